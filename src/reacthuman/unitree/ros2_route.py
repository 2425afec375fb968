"""A physical G1 through Unitree's ``unitree_ros2`` messages: the spine's joint commands as
``unitree_hg`` frames over rclpy.

The spine's backend is an interface. The simulation is one implementation; the robot is the
other. Both take the same :class:`~reacthuman.spine.command.JointCommand` (targets by MuJoCo
Menagerie joint name, with PD gains) and hand back the same
:class:`~reacthuman.spine.command.JointState`, so a controller that runs in simulation drives
the robot unchanged. What differs is only the wire: a real G1 (29 DoF) listens for
``unitree_hg/msg/LowCmd`` on ``/lowcmd`` and reports ``unitree_hg/msg/LowState`` on
``/lowstate``, with motors addressed by slot rather than by name and every command sealed by a
CRC that the robot checks before it moves a motor.

This is the route for users who built Unitree's ``unitree_ros2`` messages: the same frames as
the DDS route (``reacthuman.unitree``: ``spine_node backend:=g1`` and the guard), through
rclpy. The parts that can hurt someone are shared with it and tested without ROS or a robot:
``unitree.motors`` maps names to slots and refuses anything unsafe, ``unitree.crc`` seals. Unitree's
message package is not on PyPI; it is imported only when the backend is constructed, and its
absence is a clear :class:`HardwareUnavailable`, never an import error at start-up.

Sources for the protocol (read, not copied): Unitree's ``unitree_ros2`` repository (message
definitions in ``cyclonedds_ws/src/unitree/unitree_hg/msg``, the CRC in
``example/src/src/common/motor_crc_hg.cpp`` and the slot order in
``example/src/src/g1/lowlevel/g1_low_level_example.cpp``) and the G1 joint motor order on
support.unitree.com (``G1_developer/joint_motor_sequence``).
"""

from __future__ import annotations

import threading
from typing import Any

from reacthuman.spine.command import JointCommand, JointState
from reacthuman.unitree.crc import crc_of
from reacthuman.unitree.messages import lowcmd_from_fields
from reacthuman.unitree.motors import (
    LowCmdFields,
    joint_state_from_lowstate,
    lowcmd_fields,
)

LOWCMD_TOPIC = "/lowcmd"  # DDS topic rt/lowcmd: the same wire as the DDS route
LOWSTATE_TOPIC = "/lowstate"  # full rate; Unitree also offers "lf/lowstate" at a low rate


def lowcmd_crc(fields: LowCmdFields) -> int:
    """The ``crc`` a G1 expects in a LowCmd with ``fields`` (reserve words zero)."""
    return crc_of(lowcmd_from_fields(fields))


class HardwareUnavailable(RuntimeError):
    """The G1 backend cannot start on this machine (Unitree's messages are not installed)."""


class HardwareNotReady(RuntimeError):
    """The robot has not reported yet, so a command cannot be addressed to it safely."""


UNITREE_HG_MISSING = (
    "The G1 hardware backend needs Unitree's ROS 2 message package 'unitree_hg' (LowCmd, "
    "LowState), and it is not importable here. Get it from Unitree's unitree_ros2 repository "
    "(https://github.com/unitreerobotics/unitree_ros2, cyclonedds_ws/src/unitree/unitree_hg), "
    "build it with colcon and source its install/setup.bash before starting. The simulation "
    "backend is the default and needs none of this."
)


class G1HardwareBackend:
    """Publishes the spine's commands to a physical G1 and keeps its latest reported state.

    Speaks the robot's low-level topics (``/lowcmd``, ``/lowstate``) through ``node``, an
    rclpy node. It sends nothing until a LowState has arrived, because every LowCmd must carry
    the robot's ``mode_machine`` (Unitree's examples read it the same way).
    """

    def __init__(self, node: Any) -> None:
        try:
            from unitree_hg.msg import LowCmd, LowState
        except ImportError as error:
            raise HardwareUnavailable(UNITREE_HG_MISSING) from error
        from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy

        qos = QoSProfile(
            history=HistoryPolicy.KEEP_LAST, depth=10, reliability=ReliabilityPolicy.RELIABLE
        )
        self._node = node
        self._lowcmd_type = LowCmd
        self._lock = threading.Lock()
        self._mode_machine: int | None = None
        self._state: JointState | None = None
        self._received = 0
        self._publisher = node.create_publisher(LowCmd, LOWCMD_TOPIC, qos)
        self._subscription = node.create_subscription(
            LowState, LOWSTATE_TOPIC, self._on_lowstate, qos
        )

    def _on_lowstate(self, msg: Any) -> None:
        """Keep the robot's mode_machine (Unitree's examples refresh it from every LowState) and
        its state, stamped with the receipt time; ``tick`` counts LowStates received (the spine
        restamps with its own control tick)."""
        now = self._node.get_clock().now().nanoseconds * 1e-9
        state = joint_state_from_lowstate(
            tick=self._received,
            t=now,
            motor_q=[m.q for m in msg.motor_state],
            motor_dq=[m.dq for m in msg.motor_state],
            imu_quaternion=msg.imu_state.quaternion,
            imu_gyroscope=msg.imu_state.gyroscope,
        )
        with self._lock:
            self._mode_machine = int(msg.mode_machine)
            self._state = state
            self._received += 1

    @property
    def mode_machine(self) -> int | None:
        """The robot's machine mode, from its latest LowState (None before the first)."""
        with self._lock:
            return self._mode_machine

    def latest_state(self) -> JointState | None:
        """The last joint state the robot reported, or None before its first LowState."""
        with self._lock:
            return self._state

    def send(self, command: JointCommand) -> None:
        """Publish ``command`` as one CRC-sealed LowCmd; raises before sending anything unsafe."""
        mode_machine = self.mode_machine
        if mode_machine is None:
            raise HardwareNotReady(
                f"no LowState received on {LOWSTATE_TOPIC} yet: the robot's mode_machine is "
                "unknown, so no command is sent (is the G1 on and on this network?)"
            )
        fields = lowcmd_fields(command, mode_machine)
        msg = self._lowcmd_type()
        msg.mode_pr = fields.mode_pr
        msg.mode_machine = fields.mode_machine
        for slot, motor in enumerate(fields.motors):
            out = msg.motor_cmd[slot]
            out.mode = motor.mode
            out.q = motor.q
            out.dq = motor.dq
            out.tau = motor.tau
            out.kp = motor.kp
            out.kd = motor.kd
        msg.crc = lowcmd_crc(fields)
        self._publisher.publish(msg)
