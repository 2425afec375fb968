"""The kinematic stand-in: a clearly named placeholder body until the G1 lands (issue 7).

It tracks the plan perfectly and without physics: the base follows the walking command
exactly (``brain.motion.base_pose``), each hand moves in a straight line from its rest pose
at the freeze to each keyframe target in turn and holds the last one, and ``knee_bend`` is
passed through. It does not collide with anything, so the object's motion is the ground
truth's; ``spine.outcome`` judges the execution geometrically from the distances between
the object and these commanded positions. Its joints are world-frame coordinates:

``base_x, base_y, base_yaw, left_hand_{x,y,z}, right_hand_{x,y,z}, knee_bend``.
"""

from __future__ import annotations

from reacthuman import robot
from reacthuman.brain.motion import base_pose, hand_in_robot_frame, to_world
from reacthuman.brain.plan import Keyframe, ReactionPlan
from reacthuman.scenes.geometry import Vec3, vec3
from reacthuman.spine.command import JointCommand, JointState, tick_time

STANDIN_NAME = "kinematic-stand-in"
STANDIN_JOINTS: tuple[str, ...] = (
    "base_x",
    "base_y",
    "base_yaw",
    "left_hand_x",
    "left_hand_y",
    "left_hand_z",
    "right_hand_x",
    "right_hand_y",
    "right_hand_z",
    "knee_bend",
)
STANDING_PLAN = ReactionPlan(
    object_identified="",
    intent="stand still (no usable plan)",
    confidence=0.0,
    walking_cmd=(0.0, 0.0, 0.0),
    walking_duration=0.0,
    keyframes=[Keyframe(t=0.0, left_hand=robot.REST_LEFT_HAND, right_hand=robot.REST_RIGHT_HAND)],
)


def _lerp(a: Vec3, b: Vec3, u: float) -> Vec3:
    return (a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u, a[2] + (b[2] - a[2]) * u)


def hand_offsets(
    plan: ReactionPlan, t: float, start: tuple[Vec3, Vec3] | None = None
) -> tuple[Vec3, Vec3, float]:
    """Left and right hand offsets from the hand origin and the knee bend at ``t`` s after the
    freeze: straight lines from ``start`` (default: the rest pose) through the keyframes, then
    held."""
    left, right = start if start is not None else (robot.REST_LEFT_HAND, robot.REST_RIGHT_HAND)
    previous = Keyframe(t=0.0, left_hand=left, right_hand=right)
    for frame in plan.keyframes:
        if t <= frame.t:
            span = frame.t - previous.t
            u = 1.0 if span <= 0 else (t - previous.t) / span
            return (
                _lerp(previous.left_hand, frame.left_hand, u),
                _lerp(previous.right_hand, frame.right_hand, u),
                previous.knee_bend + (frame.knee_bend - previous.knee_bend) * u,
            )
        previous = frame
    return previous.left_hand, previous.right_hand, previous.knee_bend


class KinematicStandIn:
    """Perfect, physics-free tracking of a plan (module docstring)."""

    name = STANDIN_NAME
    physical = False  # no body in the scene: judged geometrically
    joint_names = STANDIN_JOINTS

    def __init__(self) -> None:
        self._plan = STANDING_PLAN
        self._pos: Vec3 = (0.0, 0.0, 0.0)
        self._yaw = 0.0

    def start(self, plan: ReactionPlan | None, robot_pos: Vec3, robot_yaw: float) -> None:
        self._plan = plan if plan is not None else STANDING_PLAN
        self._pos, self._yaw = vec3(robot_pos), robot_yaw

    def pose_at(self, t: float) -> tuple[float, ...]:
        """The stand-in's joint positions at ``t`` s after the freeze."""
        plan = self._plan
        x, y, yaw = base_pose(plan, t)
        base = to_world((x, y, 0.0), self._pos, self._yaw)
        left, right, bend = hand_offsets(plan, t)
        hands = [
            to_world(hand_in_robot_frame(plan, offset, t), self._pos, self._yaw)
            for offset in (left, right)
        ]
        return (base[0], base[1], self._yaw + yaw, *hands[0], *hands[1], bend)

    def initial_state(self) -> JointState:
        return JointState(0, 0.0, STANDIN_JOINTS, self.pose_at(0.0))

    def command(self, state: JointState) -> JointCommand:
        t = tick_time(state.tick)
        walking = self._plan.walking_cmd if t < self._plan.walking_duration else (0.0, 0.0, 0.0)
        return JointCommand(
            tick=state.tick,
            t=t,
            names=STANDIN_JOINTS,
            positions=self.pose_at(t),
            walking_cmd=walking,
        )
