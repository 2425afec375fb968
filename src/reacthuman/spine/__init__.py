"""The spine: turns a committed plan into joint commands at the control rate and reports how
the execution ended. The controller is an interface (``controller.Controller``): the G1 under
its walking policy with the hand tracker (``g1_controller``), or the kinematic stand-in. On a
robot the same controller runs on Unitree's state stream (``unitree.robot_spine``)."""
