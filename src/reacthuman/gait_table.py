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

Data only, so that a planner (the oracle brain) reads it without the spine or the simulator:
``reacthuman calibrate-gaits`` measures it on the proving ground (``sim.gait_calibration``);
the table of the default controller ships in ``assets/gaits.json``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

GAITS_FILE = "gaits.json"
RATE = 10  # samples per second of the stored paths
HORIZON = 3.0  # s measured after the command starts
ArmMode = Literal["swing", "held"]


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
