"""The simulated body as ROS tools see it: its URDF (``/robot_description``), its transforms
(``/reacthuman/tf``, and ``/tf`` where tf2 is installed) and its state at a control tick
(``/imu``, ``/joint_states``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from geometry_msgs.msg import TransformStamped

from reacthuman.episode_host import BodyPose
from reacthuman.ros import contract as c
from reacthuman.ros import convert
from reacthuman.ros.base import ReactNode
from reacthuman.spine.command import JointState

STANDIN_URDF = """<?xml version="1.0"?>
<robot name="reacthuman_kinematic_stand_in">
  <link name="base_link"><visual><origin xyz="0 0 0.66"/><geometry><cylinder radius="0.2"
    length="1.32"/></geometry></visual></link>
  <link name="left_hand"><visual><geometry><sphere radius="0.06"/></geometry></visual></link>
  <link name="right_hand"><visual><geometry><sphere radius="0.06"/></geometry></visual></link>
  <joint name="left_hand_free" type="floating"><parent link="base_link"/>
    <child link="left_hand"/></joint>
  <joint name="right_hand_free" type="floating"><parent link="base_link"/>
    <child link="right_hand"/></joint>
</robot>
"""


def robot_description(controller: str) -> str:
    """URDF of the body the controller drives: the G1 (converted from the simulated MJCF)
    or the kinematic stand-in's."""
    if controller.startswith("g1"):
        from reacthuman.spine.urdf import g1_urdf

        return g1_urdf()
    return STANDIN_URDF


def standard_tf_publisher(node: ReactNode) -> Any:
    """A ``/tf`` publisher where tf2_msgs is installed (a full ROS 2 install; it is not on
    PyPI), so RViz and tf2 see the transforms live; None elsewhere."""
    try:
        from tf2_msgs.msg import TFMessage
    except ImportError:
        return None
    return node.create_publisher(TFMessage, "/tf", c.STREAM)


def body_transforms(
    state: JointState, ns: int, pose: BodyPose | None = None
) -> list[TransformStamped]:
    """world -> base_link and base_link -> hands at sim time ``ns`` (``convert.body_frames``)."""
    return [
        convert.transform(parent, child, ns, translation, rotation)
        for parent, child, translation, rotation in convert.body_frames(state, pose)
    ]


@dataclass(frozen=True)
class BodyPublisher:
    """The simulator node's publishers of the body and its frames."""

    joint_pub: Any  # /joint_states
    imu_pub: Any  # /imu
    tf_pub: Any  # /reacthuman/tf
    tf2_pub: Any  # /tf, or None (``standard_tf_publisher``)

    def body(
        self, state: JointState, ns: int, transforms: bool = True, pose: BodyPose | None = None
    ) -> None:
        """The body at a tick: the IMU first (the spine pairs it with the joint state of the
        same stamp), then the joint state, then transforms."""
        if state.imu_quat is not None:
            self.imu_pub.publish(convert.imu_msg(state, ns, c.BASE_FRAME))
        self.joint_pub.publish(
            convert.joint_state_msg(state.names, state.positions, ns, state.velocities)
        )
        if transforms:
            self.transforms(body_transforms(state, ns, pose))

    def transforms(self, transforms: list[TransformStamped]) -> None:
        for transform in transforms:
            self.tf_pub.publish(transform)
        if self.tf2_pub is not None:
            from tf2_msgs.msg import TFMessage

            self.tf2_pub.publish(TFMessage(transforms=transforms))
