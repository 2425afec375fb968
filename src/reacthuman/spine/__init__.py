"""The spine: turns a committed plan into joint commands at the control rate and reports how
the execution ended. The controller is an interface (``controller.Controller``); the kinematic
stand-in is the one implementation until the G1 body and its walking policy land."""
