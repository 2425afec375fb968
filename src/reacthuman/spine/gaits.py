"""How the simulated G1 really moves under a plan's walking command: a measured table.

A plan's walking command is a constant twist held for ``walking_duration``; the body under a
walking policy does not follow it exactly. It takes a step before it gets going, walks slower
than commanded and coasts after the command stops (BENCHMARKS.md). A planner that assumes the
commanded motion sends the robot somewhere else. This table holds the base's measured path
(x, y, heading in the robot's frame at the start, every 0.1 s for ``HORIZON`` s) for a set of
commands and durations, in two arm modes: ``swing`` (hands at rest: the policy swings the
arms) and ``held`` (the spine holds the hands where the default pose has them, ``ready``, as
a plan that raises the hands only after a walk does: held anywhere else, at rest for
instance, they shift the body's balance and the walk drifts).

It also holds where the hands can go (``ReachMap``): the spine's inverse kinematics solved
for a grid of left-hand targets (the right hand mirrored), kept where the hand lands within
``REACH_TOLERANCE``. The G1's arms reach about 0.45 m ahead of the hand origin at chest
height and less below it, well inside the plan checker's ``robot.ARM_REACH`` sphere.

``reacthuman calibrate-gaits`` measures both on the proving ground (a flat floor); the table
of the default controller ships in ``assets/gaits.json`` and is what the oracle plans with.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

from reacthuman import robot
from reacthuman.brain.plan import Keyframe, ReactionPlan

if TYPE_CHECKING:
    from reacthuman.spine.hands import HandTracker

GAITS_FILE = "gaits.json"
RATE = 10  # samples per second of the stored paths
HORIZON = 3.0  # s measured after the command starts
ArmMode = Literal["swing", "held"]
# Commands within every limit of the plan checker (robot.py): forward, backward, sideways,
# the four diagonals, and forward and backward arcs turning either way.
COMMANDS: tuple[tuple[float, float, float], ...] = (
    (robot.MAX_FORWARD_SPEED, 0.0, 0.0),
    (-robot.MAX_BACKWARD_SPEED, 0.0, 0.0),
    (0.0, robot.MAX_LATERAL_SPEED, 0.0),
    (0.0, -robot.MAX_LATERAL_SPEED, 0.0),
    (0.5, 0.5, 0.0),
    (0.5, -0.5, 0.0),
    (-0.5, 0.5, 0.0),
    (-0.5, -0.5, 0.0),
    (robot.MAX_FORWARD_SPEED, 0.0, 1.0),
    (robot.MAX_FORWARD_SPEED, 0.0, -1.0),
    (-robot.MAX_BACKWARD_SPEED, 0.0, 1.0),
    (-robot.MAX_BACKWARD_SPEED, 0.0, -1.0),
)
DURATIONS: tuple[float, ...] = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.5, 2.0)
HELD_MARK = 0.02  # m the last keyframe moves the held hands (so the spine holds the arms)


class Gait(BaseModel):
    """One command held for ``duration`` s, and where the base went."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    command: tuple[float, float, float]
    duration: float
    arms: ArmMode
    path: list[tuple[float, float, float]]  # (x, y, heading), every 1/RATE s from 0
    fell: bool = False

    def at(self, t: float) -> tuple[float, float, float]:
        """The base pose ``t`` s after the command started (linear between samples)."""
        u = min(max(t, 0.0), HORIZON) * RATE
        i = min(int(u), len(self.path) - 2)
        f = u - i
        a, b = self.path[i], self.path[i + 1]
        return (
            a[0] + (b[0] - a[0]) * f,
            a[1] + (b[1] - a[1]) * f,
            a[2] + (b[2] - a[2]) * f,
        )


REACH_STEP = 0.05  # m between the reach map's grid points
REACH_LOW = (0.1, -0.1, -0.65)  # m, the grid's first left-hand target from the hand origin
REACH_SHAPE = (12, 12, 19)  # points along x, y, z
REACH_TOLERANCE = 0.02  # m between the target and where the hand lands


class ReachMap(BaseModel):
    """Left-hand targets (offsets from the hand origin) the arm reaches, on a grid; the right
    hand's are their mirror images (y negated)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    low: tuple[float, float, float] = REACH_LOW
    step: float = REACH_STEP
    shape: tuple[int, int, int] = REACH_SHAPE
    reachable: str  # "1" or "0" per grid point, x slowest, z fastest

    def reaches(self, hand: tuple[float, float, float], left: bool = True) -> bool:
        """Whether the hand reaches this target (the nearest grid point's verdict)."""
        x, y, z = hand[0], hand[1] if left else -hand[1], hand[2]
        index = []
        for value, low, n in zip((x, y, z), self.low, self.shape, strict=True):
            i = round((value - low) / self.step)
            if i < 0 or i >= n:
                return False
            index.append(i)
        i, j, k = index
        return self.reachable[(i * self.shape[1] + j) * self.shape[2] + k] == "1"


class GaitTable(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    controller: str
    rate: int = RATE
    horizon: float = HORIZON
    gaits: list[Gait]
    reach: ReachMap
    reach_crouched: ReachMap  # the same with the knees bent fully (knee_bend 1)
    ready: tuple[float, float, float]  # the left hand of the default pose, from the hand origin

    def choices(self, arms: ArmMode) -> list[Gait]:
        return [g for g in self.gaits if g.arms == arms and not g.fell]


def calibration_plan(
    command: tuple[float, float, float],
    duration: float,
    arms: ArmMode,
    ready: tuple[float, float, float] = (0.0, 0.0, 0.0),
) -> ReactionPlan:
    """The plan a table entry is measured with: the command, and the hands at rest (swing) or
    held by the spine at ``ready`` (the last keyframe ``HELD_MARK`` m ahead, at the horizon)."""
    frames = [Keyframe(t=0.0, left_hand=robot.REST_LEFT_HAND, right_hand=robot.REST_RIGHT_HAND)]
    if arms == "held":
        x, y, z = ready
        frames = [
            Keyframe(t=0.0, left_hand=(x, y, z), right_hand=(x, -y, z)),
            Keyframe(t=HORIZON, left_hand=(x + HELD_MARK, y, z), right_hand=(x + HELD_MARK, -y, z)),
        ]
    return ReactionPlan(
        object_identified="calibration",
        intent="measure the gait",
        confidence=1.0,
        walking_cmd=command,
        walking_duration=duration,
        keyframes=frames,
    )


def measure(
    controller_name: str,
    policy_path: str | None = None,
    commands: Iterable[tuple[float, float, float]] = COMMANDS,
    durations: Iterable[float] = DURATIONS,
    on_gait: Callable[[Gait], None] | None = None,
) -> GaitTable:
    """Walk every command for every duration in both arm modes on the proving ground."""
    from reacthuman.sim.proving import ProvingGround
    from reacthuman.spine.controller import make_controller
    from reacthuman.spine.hands import HandTracker

    ground = ProvingGround()
    controller = make_controller(controller_name, policy_path)
    tracker = HandTracker()  # the spine's own kinematic copy, for the ready pose and reach
    ready = ready_hand(tracker)
    gaits: list[Gait] = []
    for arms in ("swing", "held"):
        for command in commands:
            for duration in durations:
                plan = calibration_plan(command, duration, arms, ready)
                trial = ground.trial(controller, plan, HORIZON)
                gait = Gait(
                    command=command,
                    duration=duration,
                    arms=arms,  # type: ignore[arg-type]
                    path=_path(trial),
                    fell=trial.fell,
                )
                gaits.append(gait)
                if on_gait is not None:
                    on_gait(gait)
    return GaitTable(
        controller=controller.name,
        gaits=gaits,
        reach=measure_reach(tracker),
        reach_crouched=measure_reach(tracker, knee_bend=1.0),
        ready=ready,
    )


def ready_hand(tracker: HandTracker) -> tuple[float, float, float]:
    """The left hand of the G1's default pose, from the hand origin."""
    tracker.start(None)
    assert tracker.start_offsets is not None
    return tuple(round(float(v), 4) for v in tracker.start_offsets[0])  # type: ignore[return-value]


def measure_reach(tracker: HandTracker, knee_bend: float = 0.0) -> ReachMap:
    """Solve the spine's inverse kinematics for every grid target, both hands at once (the
    right one mirrored), with the body standing (or crouched by ``knee_bend``), and keep
    where the hand lands."""
    import numpy as np

    from reacthuman.spine.command import JointState
    from reacthuman.spine.g1 import DEFAULT_POSE, G1_JOINTS
    from reacthuman.spine.hands import crouch_offsets

    tracker.start(None)
    bend = crouch_offsets(knee_bend)
    posture = JointState(
        tick=0,
        t=0.0,
        names=G1_JOINTS,
        positions=tuple(DEFAULT_POSE[n] + bend.get(n, 0.0) for n in G1_JOINTS),
        imu_quat=(1.0, 0.0, 0.0, 0.0),
    )
    origin = np.asarray(robot.HAND_ORIGIN)
    bits = []
    nx, ny, nz = REACH_SHAPE
    for i in range(nx):
        for j in range(ny):
            for k in range(nz):
                left = (
                    REACH_LOW[0] + i * REACH_STEP,
                    REACH_LOW[1] + j * REACH_STEP,
                    REACH_LOW[2] + k * REACH_STEP,
                )
                right = (left[0], -left[1], left[2])
                tracker.solution = tracker.standing.copy()
                for _ in range(3):  # a hand held at a target: a few ticks' solves
                    joints = tracker.solve(left, right, posture)
                qpos = tracker.pose(posture)
                for name, value in joints.items():
                    qpos[tracker.qs[name]] = value
                tracker.entity.set_qpos(qpos)
                landed = np.asarray(tracker.hands()[0]) - origin
                bits.append("1" if np.linalg.norm(landed - left) < REACH_TOLERANCE else "0")
    return ReachMap(reachable="".join(bits))


def _path(trial) -> list[tuple[float, float, float]]:  # noqa: ANN001 - proving.Trial
    """The base's path in its starting frame, every 1/RATE s (tick 0 is the start)."""
    step = 50 // RATE
    x0, y0, _z = trial.base[0]
    yaw0 = trial.yaw[0]
    c, s = math.cos(yaw0), math.sin(yaw0)
    out = [(0.0, 0.0, 0.0)]
    for i in range(step - 1, len(trial.base), step):
        dx, dy = trial.base[i][0] - x0, trial.base[i][1] - y0
        turned = math.atan2(math.sin(trial.yaw[i] - yaw0), math.cos(trial.yaw[i] - yaw0))
        out.append((round(c * dx + s * dy, 4), round(-s * dx + c * dy, 4), round(turned, 4)))
    return out


@lru_cache(maxsize=4)
def load_gaits(path: str | None = None) -> GaitTable:
    """The shipped table (``assets/gaits.json``) or one written by ``calibrate-gaits``."""
    from reacthuman.assets import assets_dir

    file = Path(path) if path else assets_dir() / GAITS_FILE
    try:
        return GaitTable.model_validate_json(file.read_bytes())
    except FileNotFoundError:
        raise FileNotFoundError(
            f"{file}: no gait table; `reacthuman calibrate-gaits --out {file}` measures one"
        ) from None
