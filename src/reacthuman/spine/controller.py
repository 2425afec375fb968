"""The controller interface the spine node and the direct path drive, one tick at a time."""

from __future__ import annotations

from typing import Protocol

from reacthuman.brain.plan import ReactionPlan
from reacthuman.scenes.geometry import Vec3
from reacthuman.spine.command import JointCommand, JointState


class Controller(Protocol):
    name: str
    joint_names: tuple[str, ...]

    def start(self, plan: ReactionPlan | None, robot_pos: Vec3, robot_yaw: float) -> None:
        """Begin an execution: ``plan`` is None when the decision had no usable plan (R1),
        and the robot then stands where it is."""

    def initial_state(self) -> JointState:
        """The body's joint state at the freeze, before the first command."""

    def command(self, state: JointState) -> JointCommand:
        """The command for the tick that ``state`` opens."""


def make_controller(name: str) -> Controller:
    from reacthuman.spine.standin import STANDIN_NAME, KinematicStandIn

    if name == STANDIN_NAME:
        return KinematicStandIn()
    raise ValueError(f"unknown controller {name!r} (known: {STANDIN_NAME})")
