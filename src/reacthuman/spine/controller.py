"""The controller interface the spine node and the direct path drive, one tick at a time."""

from __future__ import annotations

from typing import Protocol

from reacthuman.brain.plan import ReactionPlan
from reacthuman.scenes.geometry import Vec3
from reacthuman.spine.command import JointCommand, JointState


class Controller(Protocol):
    name: str
    joint_names: tuple[str, ...]
    physical: bool  # True: a body in the scene (the G1); False: the kinematic stand-in

    def start(self, plan: ReactionPlan | None, robot_pos: Vec3, robot_yaw: float) -> None:
        """Begin an execution: ``plan`` is None when the decision had no usable plan (R1),
        and the robot then stands where it is."""

    def command(self, state: JointState) -> JointCommand:
        """The command for the tick that ``state`` opens."""


DEFAULT_CONTROLLER = "g1-holosoma-fastsac"
G1_CONTROLLERS = ("g1-holosoma-fastsac", "g1-holosoma-ppo", "g1-unitree-motion")


def controller_name(name: str) -> str:
    """The controller ``name`` stands for (``g1`` is the default G1 policy); ValueError for
    a name no controller has."""
    from reacthuman.spine.standin import STANDIN_NAME

    if name == "g1":
        return DEFAULT_CONTROLLER
    if name in (*G1_CONTROLLERS, STANDIN_NAME):
        return name
    known = ", ".join(("g1", *G1_CONTROLLERS, STANDIN_NAME))
    raise ValueError(f"unknown controller {name!r} (known: {known})")


def make_controller(name: str, policy_path: str | None = None) -> Controller:
    """A controller by name: ``g1-<policy>`` (the G1 under a walking policy, see
    ``spine.policy``; ``g1`` is the default, ``g1-unitree-motion`` reads ``policy_path``) or
    ``kinematic-stand-in``."""
    from reacthuman.spine.standin import STANDIN_NAME, KinematicStandIn

    name = controller_name(name)
    if name == STANDIN_NAME:
        return KinematicStandIn()
    from reacthuman.spine.g1_controller import G1Controller
    from reacthuman.spine.policy import make_policy

    return G1Controller(make_policy(name.removeprefix("g1-"), policy_path))
