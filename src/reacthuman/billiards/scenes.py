"""Procedural BilliardPhys tables and their answers: a pure function of (seed, horizon).

As in the paper (section 2.2): seven balls, ids 0-6, the cue ball (0) the only one moving,
positions and the cue's velocity sampled from a seed, the answers read off the exact
simulation at the horizon (1 to 5 s). The paper does not print its velocity intervals; it
chose friction so that "collisions occur in roughly 50 % of generated scenarios". Here the
cue's speed is drawn so that, unobstructed, it would roll ``REACH`` metres within the
horizon (the longer the horizon, the slower the shot, as the paper's Figure 2 shows), which
gives each horizon a comparable share of collisions (measured in the tests). Coordinates
are kept to four decimals, as the paper records them, so the table a model is shown and the
one simulated are the same.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict

from reacthuman.billiards.physics import (
    DECELERATION,
    HEIGHT,
    POCKET_RADIUS,
    POCKETS,
    RADIUS,
    WIDTH,
    Outcome,
    Wall,
    simulate,
)
from reacthuman.scenes.rng import SeededRng

BALLS = 7
HORIZONS = (1, 2, 3, 4, 5)  # s
REACH = (0.5, 4.5)  # m the cue ball would roll within the horizon, unobstructed
GAP = 0.01  # m of cloth at least between two balls, and between a ball and a cushion
POCKET_CLEARANCE = 0.05  # m beyond a pocket's reach: no ball starts on a pocket's lip
DECIMALS = 4


class BilliardScene(BaseModel):
    """What the model is shown: the balls where they are, the cue ball's velocity, and the
    horizon it is asked about."""

    model_config = ConfigDict(frozen=True)

    scene_id: str
    seed: int
    horizon: int  # s
    positions: tuple[tuple[float, float], ...]  # by ball id, the cue ball first
    cue_velocity: tuple[float, float]  # m/s


class BilliardTruth(BaseModel):
    """The answers: which balls and which cushions the cue ball touched before the horizon
    (Q1, Q2), and where every ball is at the horizon (Q3; None: pocketed)."""

    model_config = ConfigDict(frozen=True)

    hits: tuple[int, ...]
    walls: tuple[Wall, ...]
    positions: tuple[tuple[float, float] | None, ...]
    events: int  # everything that happened on the table, for the report's complexity bands


def cue_speed(reach: float, horizon: float) -> float:
    """The speed at which a ball rolls ``reach`` metres in ``horizon`` seconds, still moving
    then (``reach`` at least ``a t^2 / 2``)."""
    if reach < 0.5 * DECELERATION * horizon**2:
        raise ValueError(f"a ball still rolling after {horizon} s covers at least that far")
    return reach / horizon + 0.5 * DECELERATION * horizon


def _free(spot: tuple[float, float], placed: list[tuple[float, float]]) -> bool:
    if any(math.dist(spot, pocket) < POCKET_RADIUS + POCKET_CLEARANCE for pocket in POCKETS):
        return False
    return all(math.dist(spot, other) >= 2 * RADIUS + GAP for other in placed)


def generate(seed: int, horizon: int) -> BilliardScene:
    """The table of ``seed`` asked about at ``horizon`` seconds."""
    if horizon not in HORIZONS:
        raise ValueError(f"horizon {horizon!r}: BilliardPhys asks about {HORIZONS} seconds")
    rng = SeededRng("billiards", seed, horizon)
    margin = RADIUS + GAP
    placed: list[tuple[float, float]] = []
    while len(placed) < BALLS:
        spot = (
            round(rng.uniform(margin, WIDTH - margin), DECIMALS),
            round(rng.uniform(margin, HEIGHT - margin), DECIMALS),
        )
        if _free(spot, placed):
            placed.append(spot)
    speed = cue_speed(rng.uniform(*REACH), horizon)
    heading = rng.uniform(-math.pi, math.pi)
    velocity = (
        round(speed * math.cos(heading), DECIMALS),
        round(speed * math.sin(heading), DECIMALS),
    )
    return BilliardScene(
        scene_id=f"billiards-{horizon}s-{seed:06d}",
        seed=seed,
        horizon=horizon,
        positions=tuple(placed),
        cue_velocity=velocity,
    )


def shot(
    positions: np.ndarray | Sequence[tuple[float, float]],
    cue_velocity: np.ndarray | tuple[float, float],
    horizon: float,
) -> tuple[Outcome, tuple[int, ...], tuple[Wall, ...]]:
    """The cue ball (ball 0) shot at ``cue_velocity`` among balls at rest at ``positions``,
    rolled exactly to ``horizon`` s: the outcome, the balls the cue ball hit (Q1, in order
    of number) and the cushions it touched (Q2, in ``Wall``'s order)."""
    velocities = np.zeros((len(positions), 2))
    velocities[0] = cue_velocity
    out = simulate(np.asarray(positions), velocities, float(horizon))
    return out, tuple(sorted(out.hit_by(0))), tuple(w for w in Wall if w in out.walls_of(0))


def truth(scene: BilliardScene) -> BilliardTruth:
    """The scene's answers from the exact simulation."""
    out, hits, walls = shot(scene.positions, scene.cue_velocity, scene.horizon)
    return BilliardTruth(
        hits=hits,
        walls=walls,
        positions=tuple(
            None if p is None else (round(p[0], DECIMALS), round(p[1], DECIMALS))
            for p in out.positions
        ),
        events=len(out.events),
    )
