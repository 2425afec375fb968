"""BilliardPhys's judgments and its reference answerers.

The paper's rules (section 2.3, "Correctness judgments"): Q1 is judged per object ball
(did the cue ball touch it, T/F), Q2 per table (the predicted set of cushions the cue ball
touched must equal the true set), Q3 per ball (within one ball radius of where it is at the
horizon; a pocketed ball answered null is right). ``s_total`` weighs the three accuracies
0.3 / 0.3 / 0.4. An answer a model never gave, or gave unusably, is wrong on every item it
should have covered, and is kept as such, never dropped.

The reference answerers bracket a model: the oracle reads the exact simulation; "no
collision" is stasis bias in its purest form (nothing touches anything, and nothing moves);
"straight line" rolls the cue ball along its arrow with the right friction but through
every ball and cushion, stopping it at the first cushion it meets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from reacthuman.billiards.physics import DECELERATION, HEIGHT, RADIUS, WIDTH, Wall
from reacthuman.billiards.scenes import BilliardScene, BilliardTruth

WEIGHTS = (0.3, 0.3, 0.4)  # Q1, Q2, Q3 in S_total
BASELINES = ("oracle", "no-collision", "straight-line")


class BilliardAnswer(BaseModel):
    """A model's answers to one table's three questions (None: no usable answer to it)."""

    model_config = ConfigDict(frozen=True)

    hits: dict[int, bool] | None = None  # Q1: object ball id -> touched by the cue ball
    walls: dict[Wall, bool] | None = None  # Q2: cushion -> touched by the cue ball
    positions: dict[int, tuple[float, float] | None] | None = None  # Q3: id -> where, or pocketed


@dataclass(frozen=True)
class Grade:
    """One table's judgments: Q1 per object ball, Q2 for the table, Q3 per ball."""

    q1_right: int
    q1_asked: int
    q2_right: bool
    q3_right: int
    q3_asked: int


def grade(truth: BilliardTruth, answer: BilliardAnswer) -> Grade:
    balls = len(truth.positions)
    hits = set(truth.hits)
    q1 = 0
    if answer.hits is not None:
        q1 = sum(answer.hits.get(b) == (b in hits) for b in range(1, balls))
    q2 = answer.walls is not None and {w for w in Wall if answer.walls.get(w)} == set(truth.walls)
    q3 = 0
    if answer.positions is not None:
        for ball, where in enumerate(truth.positions):
            if ball not in answer.positions:
                continue
            said = answer.positions[ball]
            if where is None or said is None:
                q3 += where is None and said is None
            else:
                q3 += math.dist(where, said) <= RADIUS
    return Grade(q1, balls - 1, q2, q3, balls)


def accuracies(grades: list[Grade]) -> tuple[float, float, float]:
    """Acc_T1 (over object balls), Acc_T2 (over tables), Acc_T3 (over balls)."""
    if not grades:
        raise ValueError("no graded tables")
    q1 = sum(g.q1_right for g in grades) / sum(g.q1_asked for g in grades)
    q2 = sum(g.q2_right for g in grades) / len(grades)
    q3 = sum(g.q3_right for g in grades) / sum(g.q3_asked for g in grades)
    return q1, q2, q3


def s_total(acc: tuple[float, float, float]) -> float:
    return sum(w * a for w, a in zip(WEIGHTS, acc, strict=True))


def baseline_answer(name: str, scene: BilliardScene, truth: BilliardTruth) -> BilliardAnswer:
    """A reference answerer's answers (``truth`` is read by the oracle only)."""
    balls = range(len(scene.positions))
    if name == "oracle":
        return BilliardAnswer(
            hits={b: b in truth.hits for b in balls if b},
            walls={w: w in truth.walls for w in Wall},
            positions=dict(enumerate(truth.positions)),
        )
    if name == "no-collision":
        return BilliardAnswer(
            hits={b: False for b in balls if b},
            walls={w: False for w in Wall},
            positions=dict(enumerate(scene.positions)),
        )
    if name == "straight-line":
        end, wall = straight_line(scene)
        positions: dict[int, tuple[float, float] | None] = dict(enumerate(scene.positions))
        positions[0] = end
        return BilliardAnswer(
            hits={b: False for b in balls if b},
            walls={w: w == wall for w in Wall},
            positions=positions,
        )
    raise ValueError(f"unknown BilliardPhys baseline {name!r} (known: {', '.join(BASELINES)})")


def straight_line(scene: BilliardScene) -> tuple[tuple[float, float], Wall | None]:
    """Where the cue ball is at the horizon rolling straight along its arrow with friction,
    through the other balls, stopped by the first cushion it reaches (and which)."""
    (x, y), (vx, vy) = scene.positions[0], scene.cue_velocity
    speed = math.hypot(vx, vy)
    if speed == 0.0:
        return (x, y), None
    t = min(float(scene.horizon), speed / DECELERATION)
    rolled = speed * t - 0.5 * DECELERATION * t * t
    ux, uy = vx / speed, vy / speed
    room, wall = rolled, None
    for component, here, low, high, walls in (
        (ux, x, RADIUS, WIDTH - RADIUS, (Wall.LEFT, Wall.RIGHT)),
        (uy, y, RADIUS, HEIGHT - RADIUS, (Wall.BOTTOM, Wall.TOP)),
    ):
        if component == 0.0:
            continue
        bound, side = (high, walls[1]) if component > 0 else (low, walls[0])
        reach = (bound - here) / component
        if reach < room:
            room, wall = reach, side
    return (x + ux * room, y + uy * room), wall
