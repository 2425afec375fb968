"""Measuring the gait table and the reach maps (``reacthuman calibrate-gaits``): every
command of ``COMMANDS`` held for every duration of ``DURATIONS`` in both arm modes, on the
proving ground (a flat floor), and the spine's inverse kinematics over the reach grid.
What the measurements mean: ``reacthuman.gait_table``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from reacthuman import robot
from reacthuman.brain.plan import Keyframe, ReactionPlan
from reacthuman.gait_table import (
    HORIZON,
    RATE,
    REACH_LOW,
    REACH_SHAPE,
    REACH_STEP,
    REACH_TOLERANCE,
    ArmMode,
    Gait,
    GaitTable,
    ReachMap,
)

if TYPE_CHECKING:
    from reacthuman.spine.hands import HandTracker

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
    tracker = HandTracker()  # the spine's own kinematics, for the ready pose and reach
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
                    arms=arms,
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
                landed = np.asarray(tracker.hands(qpos)[0]) - origin
                bits.append("1" if np.linalg.norm(landed - left) < REACH_TOLERANCE else "0")
    return ReachMap(reachable="".join(bits))


def _path(trial) -> list[tuple[float, float, float]]:
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
