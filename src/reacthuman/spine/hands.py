"""Hand keyframe tracking for the G1: keyframes interpolated in time, inverse kinematics for
both arms, and the knee bend as a crouch.

The tracker poses the G1's kinematic model (``spine.kinematics``: numpy and numba, no
simulator) each tick as measured (joints, and the base's roll and pitch from the IMU) with the
lower sole on z = 0, the pelvis above the origin and facing x: the robot frame of
``reacthuman.robot`` (floor between the feet, x forward), in which keyframes are offsets
from the hand origin. It solves the arm joints (shoulder pitch, roll, yaw and elbow per arm;
wrists held straight) for both hand centres at once, warm-started from the last solution.
It needs only the joint state and the IMU, as on a physical G1.

From shortly after the walking command has ended (``anchor_time``), keyframes hold their
place in the room rather than on the body: with its arms out the G1 sways and shuffles (its
policies were trained with the arms at its sides), and hands carried along with the pelvis
missed a falling ball by 5-13 cm in ``benchmarks/oracle_execution.py``. Leg odometry
(``StanceOdometry``: the foot lower in the posed copy stands still on the floor) tracks how
far the pelvis has moved and turned since then, and the targets are moved back by as much,
as a person's hands stay where the ball will be while their weight shifts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from reacthuman import robot
from reacthuman.brain.motion import to_robot
from reacthuman.brain.plan import ReactionPlan
from reacthuman.scenes.geometry import (
    Vec3,
    add,
    quat_from_yaw,
    quat_mul,
    quat_yaw,
    rotate_yaw,
    sub,
)
from reacthuman.spine.command import JointState
from reacthuman.spine.g1 import (
    ARM_JOINTS,
    DEFAULT_POSE,
    G1_JOINTS,
    HAND_LINK,
    HAND_POINT,
)
from reacthuman.spine.kinematics import g1_kinematics
from reacthuman.spine.standin import hand_offsets


def _without_yaw(quat: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The base orientation with its heading removed (roll and pitch kept)."""
    return quat_mul(quat_from_yaw(-quat_yaw(quat)), quat)


IK_JOINTS: tuple[str, ...] = tuple(
    name for side in ("left", "right") for name in ARM_JOINTS[side][:4]
)
# The arms-forward posture every inverse-kinematics solve starts from (HandTracker.solve).
IK_SEED: dict[str, float] = {
    **{f"{side}_shoulder_pitch_joint": -0.6 for side in ("left", "right")},
    "left_shoulder_roll_joint": 0.15,
    "right_shoulder_roll_joint": -0.15,
    **{f"{side}_shoulder_yaw_joint": 0.0 for side in ("left", "right")},
    **{f"{side}_elbow_joint": 0.8 for side in ("left", "right")},
}
IK_PREFERENCE = 0.005  # m closer the last solution must land to be kept over the seed's
SOLE_BELOW_ANKLE = 0.035  # m from the ankle-roll link's origin down to the sole
CROUCH_MAX = 0.3  # rad of hip and ankle pitch (twice at the knee) at knee_bend = 1
# Arms held forward move the body's centre of mass forward, and the walking policies, trained
# with the arms at their sides, answer by walking forward (0.6 m in 3 s under a zero command
# with both hands 0.35 m forward); held back, they walk backward. Leaning the torso by the
# waist in proportion keeps the mass over the feet (measured on hand poses from rest to
# 0.5 m forward: BENCHMARKS.md, "The gait table, the reach map and the balance lean").
LEAN_PER_METRE = 1.0  # rad of waist pitch back per metre the hands are forward of NEUTRAL_REACH
NEUTRAL_REACH = 0.153  # m: hands of the default pose, ahead of the hand origin (no lean)
LEAN_LIMITS = (-0.4, 0.15)  # rad, back and forward
STANCE_SWITCH = 0.002  # m lower the other foot must be to take over as the stance foot
MAX_SHIFT = 0.2  # m of the body's drift the hands make up for, at most
MAX_TURN = 0.35  # rad of its turn


@dataclass
class StanceOdometry:
    """Where the pelvis is (x, y) and how far it has turned since the anchor, in the frame the
    robot had at the anchor, from the feet of the posed copy: the lower foot is planted, so
    the pelvis moves by as much as that foot moves the other way under it."""

    yaw0: float
    stance: int  # 0 left, 1 right
    planted: tuple[float, float]  # the stance foot in the anchor frame
    base: tuple[float, float] = (0.0, 0.0)
    turn: float = 0.0

    @classmethod
    def anchored(cls, yaw: float, feet: list[tuple[float, float]], heights: list[float]):
        stance = int(heights[1] < heights[0])
        return cls(yaw0=yaw, stance=stance, planted=feet[stance])

    def update(self, yaw: float, feet: list[tuple[float, float]], heights: list[float]) -> None:
        """One tick: ``feet`` (x, y) relative to the pelvis in its own heading-free frame,
        ``heights`` of the feet in the posed copy."""
        self.turn = math.atan2(math.sin(yaw - self.yaw0), math.cos(yaw - self.yaw0))
        rel = [rotate_yaw((x, y, 0.0), self.turn)[:2] for x, y in feet]
        foot = rel[self.stance]  # planted until this tick
        self.base = (self.planted[0] - foot[0], self.planted[1] - foot[1])
        other = 1 - self.stance
        if heights[other] < heights[self.stance] - STANCE_SWITCH:
            self.stance = other
            self.planted = (self.base[0] + rel[other][0], self.base[1] + rel[other][1])

    def to_body(self, offset: Vec3) -> Vec3:
        """A hand offset from the anchor's hand origin, as an offset from the hand origin now.
        The correction is capped (``MAX_SHIFT``, ``MAX_TURN``): beyond a sway the body is
        walking, and arms held back in the room against it pulled it over."""
        shift = math.hypot(*self.base)
        k = min(1.0, MAX_SHIFT / shift) if shift > 0.0 else 1.0
        turn = min(max(self.turn, -MAX_TURN), MAX_TURN)
        body = (k * self.base[0], k * self.base[1], 0.0)
        x, y, _z = sub(to_robot(add(offset, robot.HAND_ORIGIN), body, turn), robot.HAND_ORIGIN)
        return (x, y, offset[2])  # heights are the sole's, the same in both frames


def balance_lean(left: Vec3, right: Vec3) -> float:
    """Waist pitch (negative: back) that balances hands at these offsets from the hand origin."""
    reach = 0.5 * (left[0] + right[0]) - NEUTRAL_REACH
    return min(max(-LEAN_PER_METRE * reach, LEAN_LIMITS[0]), LEAN_LIMITS[1])


def anchor_time(plan: ReactionPlan) -> float:
    """When the hands start to hold their place in the room (s after the freeze): at once
    when the plan stands, ``robot.WALK_STOP`` after its walking command ends when it walks."""
    return plan.walking_duration + robot.WALK_STOP if plan.walking_duration > 0.0 else 0.0


def crouch_offsets(knee_bend: float) -> dict[str, float]:
    """Leg target offsets for a knee bend in [0, 1]: hips and ankles pitch, knees bend twice
    as far, so the feet stay flat and the pelvis comes straight down."""
    c = CROUCH_MAX * min(max(knee_bend, 0.0), 1.0)
    offsets: dict[str, float] = {}
    for side in ("left", "right"):
        offsets[f"{side}_hip_pitch_joint"] = -c
        offsets[f"{side}_knee_joint"] = 2.0 * c
        offsets[f"{side}_ankle_pitch_joint"] = -c
    return offsets


class HandTracker:
    """Arm joint targets that put each hand centre on its keyframe (module docstring). What an
    execution carries (plan, last solution, odometry) is the tracker's own; the model is the
    process's (``g1_kinematics``)."""

    def __init__(self) -> None:
        self.model = m = g1_kinematics()
        self.qs = {name: m.qs[name] for name in G1_JOINTS}
        self.n_qs = m.n_qs
        sides = ("left", "right")
        self.hand_points = [(HAND_LINK[side], HAND_POINT[side]) for side in sides]
        self.feet = [f"{side}_ankle_roll_link" for side in sides]
        self.arms = m.targets(
            [HAND_LINK[side] for side in sides], [HAND_POINT[side] for side in sides], IK_JOINTS
        )
        self.plan: ReactionPlan | None = None
        self.odometry: StanceOdometry | None = None
        self.start_offsets: tuple[Vec3, Vec3] | None = None
        self.standing = self._standing_qpos()
        self.posed = self.standing.copy()
        self.solution = self.standing.copy()
        self.arm_qs = [self.qs[n] for n in IK_JOINTS]
        self.seed = self.standing.copy()
        for name, value in IK_SEED.items():
            self.seed[self.qs[name]] = value

    def _on_floor(self, qpos: np.ndarray) -> np.ndarray:
        """``qpos`` with the pelvis raised so that the lower sole is on z = 0."""
        qpos[2] = 0.0
        frames = self.model.frames(qpos, self.feet)
        qpos[2] = SOLE_BELOW_ANKLE - min(float(frames[foot][0][2]) for foot in self.feet)
        return qpos

    def _standing_qpos(self) -> np.ndarray:
        qpos = np.zeros(self.n_qs)
        qpos[3] = 1.0
        for name, value in DEFAULT_POSE.items():
            qpos[self.qs[name]] = value
        return self._on_floor(qpos)

    def hands(self, qpos: np.ndarray | None = None) -> tuple[Vec3, Vec3]:
        """Hand centres in the robot frame, of the copy as last posed or of ``qpos``."""
        points = self.model.points(self.posed if qpos is None else qpos, self.hand_points)
        left, right = ((float(p[0]), float(p[1]), float(p[2])) for p in points)
        return left, right

    def start(self, plan: ReactionPlan | None) -> None:
        """A new execution: interpolation starts from the hands of the default pose."""
        self.plan = plan
        self.odometry = None
        self.posed = self.standing.copy()
        origin = robot.HAND_ORIGIN
        self.start_offsets = tuple(  # type: ignore[assignment]
            (h[0] - origin[0], h[1] - origin[1], h[2] - origin[2]) for h in self.hands()
        )
        self.solution = self.standing.copy()

    def pose(self, state: JointState) -> np.ndarray:
        """The copy as measured: joints, the base's roll and pitch (not its heading), the lower
        sole on z = 0 and the pelvis above the origin. Returns its qpos."""
        qpos = self.standing.copy()
        qpos[3:7] = _without_yaw(state.imu_quat or (1.0, 0.0, 0.0, 0.0))
        for name, value in zip(state.names, state.positions, strict=True):
            if name in self.qs:
                qpos[self.qs[name]] = value
        self.posed = self._on_floor(qpos)
        return qpos.copy()

    def _feet(self) -> tuple[list[tuple[float, float]], list[float]]:
        """The posed copy's ankles: (x, y) from the pelvis, and their heights."""
        frames = self.model.frames(self.posed, self.feet)
        points = [frames[foot][0] for foot in self.feet]
        return [(float(p[0]), float(p[1])) for p in points], [float(p[2]) for p in points]

    def solve(
        self,
        left: Vec3,
        right: Vec3,
        state: JointState | None = None,
        posture: np.ndarray | None = None,
    ) -> dict[str, float]:
        """Arm joints that put the hand centres at these offsets from the hand origin, with
        the body as measured in ``state`` (default: standing straight).

        Four arm joints place a hand's three coordinates, so a solution is one of many: solved
        each tick from the last one, the arms wander along the others (a shoulder twisting
        through 1.4 rad while the hand holds still) and, as the body moves, off the target.
        Each tick solves from a fixed arms-forward posture (``IK_SEED``) and from the last
        solution, and keeps the first unless the second lands clearly closer: when the first
        lands within ``IK_PREFERENCE`` none can, and the second solve is skipped (the same
        result; 88 % of ticks on the default scenes' oracle plans)."""
        origin = robot.HAND_ORIGIN
        goals = [np.asarray(origin) + np.asarray(hand) for hand in (left, right)]
        if posture is None:
            posture = self.pose(state) if state is not None else self.standing.copy()
        best: tuple[float, np.ndarray] | None = None
        for start in (self.seed, self.solution):
            if best is not None and best[0] <= IK_PREFERENCE:
                break  # no miss (>= 0) is below best[0] - IK_PREFERENCE (<= 0)
            init = posture.copy()
            init[self.arm_qs] = start[self.arm_qs]
            solved, error = self.model.solve(init, self.arms, np.array(goals))
            miss = float(np.abs(error).max())
            if best is None or miss < best[0] - IK_PREFERENCE:
                best = (miss, solved[0])
        assert best is not None
        self.solution = best[1]
        return {n: float(self.solution[self.qs[n]]) for n in IK_JOINTS}

    def targets(self, state: JointState, t: float) -> tuple[dict[str, float], float]:
        """Arm joint targets, with the waist pitch that balances them (``balance_lean``), and
        the knee bend at ``t`` s after the freeze."""
        plan = self.plan
        if plan is None or not plan.keyframes:
            return {}, 0.0
        if self.start_offsets is None:
            self.start(plan)
        left, right, bend = hand_offsets(plan, t, self.start_offsets)
        posture = self.pose(state)
        if t >= anchor_time(plan) and state.imu_quat is not None:
            yaw = quat_yaw(state.imu_quat)
            feet, heights = self._feet()
            if self.odometry is None:
                self.odometry = StanceOdometry.anchored(yaw, feet, heights)
            self.odometry.update(yaw, feet, heights)
            left, right = self.odometry.to_body(left), self.odometry.to_body(right)
        joints = self.solve(left, right, posture=posture)
        joints["waist_pitch_joint"] = balance_lean(left, right)
        return joints, bend
