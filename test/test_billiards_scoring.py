"""BilliardPhys's judgments (the paper's rules) and its reference answerers."""

from __future__ import annotations

import math

import pytest

from reacthuman.billiards.physics import RADIUS, WIDTH, Wall
from reacthuman.billiards.scenes import BilliardScene, BilliardTruth, generate, truth
from reacthuman.billiards.scoring import (
    BilliardAnswer,
    accuracies,
    baseline_answer,
    grade,
    s_total,
    straight_line,
)

TABLES = [generate(seed, horizon) for seed in range(40) for horizon in (1, 3, 5)]
TRUTHS = [truth(scene) for scene in TABLES]


def graded(name: str) -> tuple[float, float, float]:
    return accuracies(
        [grade(t, baseline_answer(name, s, t)) for s, t in zip(TABLES, TRUTHS, strict=True)]
    )


def test_the_oracle_scores_everything():
    assert graded("oracle") == (1.0, 1.0, 1.0)
    assert s_total((1.0, 1.0, 1.0)) == pytest.approx(1.0)


def test_no_collision_scores_exactly_what_stasis_gets_right():
    q1, q2, q3 = graded("no-collision")
    missed = sum(len(t.hits) for t in TRUTHS)
    assert q1 == pytest.approx(1 - missed / (6 * len(TRUTHS)))
    assert q2 == pytest.approx(sum(not t.walls for t in TRUTHS) / len(TRUTHS))
    still = sum(
        where is not None and math.dist(where, start) <= RADIUS
        for s, t in zip(TABLES, TRUTHS, strict=True)
        for where, start in zip(t.positions, s.positions, strict=True)
    )
    assert q3 == pytest.approx(still / (7 * len(TRUTHS)))
    assert s_total((q1, q2, q3)) == pytest.approx(0.3 * q1 + 0.3 * q2 + 0.4 * q3)


def test_the_straight_line_stops_at_the_first_cushion_on_its_path():
    scene = BilliardScene(
        scene_id="t", seed=0, horizon=5, positions=((1.5, 0.5), (1.0, 0.2)), cue_velocity=(1.0, 0.0)
    )
    assert straight_line(scene) == ((WIDTH - RADIUS, 0.5), Wall.RIGHT)
    slow = scene.model_copy(update={"cue_velocity": (0.0, -0.1)})
    (x, y), wall = straight_line(slow)
    assert (x, wall) == (1.5, None) and y == pytest.approx(0.5 - (0.1 * 5 - 0.5 * 0.0196 * 25))
    q1, q2, _q3 = graded("straight-line")
    assert q1 == graded("no-collision")[0]  # it never predicts a hit either


def test_a_missing_answer_is_wrong_on_every_item_and_two_nulls_agree():
    t = BilliardTruth(
        hits=(2,), walls=(Wall.TOP,), positions=((0.5, 0.5), None, (1.0, 0.5)), events=3
    )
    assert grade(t, BilliardAnswer()) == grade(t, BilliardAnswer(hits={}, positions={}))
    none = grade(t, BilliardAnswer())
    assert (none.q1_right, none.q2_right, none.q3_right) == (0, False, 0)
    right = BilliardAnswer(
        hits={1: False, 2: True},
        walls={Wall.TOP: True, Wall.LEFT: False},
        positions={0: (0.5 + 0.99 * RADIUS, 0.5), 1: None, 2: (1.0, 0.5 + 1.01 * RADIUS)},
    )
    g = grade(t, right)
    assert (g.q1_right, g.q1_asked, g.q2_right, g.q3_right, g.q3_asked) == (2, 2, True, 2, 3)
    extra_wall = right.model_copy(update={"walls": {Wall.TOP: True, Wall.LEFT: True}})
    assert not grade(t, extra_wall).q2_right  # the set must match exactly


def test_an_unknown_baseline_or_nothing_to_grade_is_refused():
    with pytest.raises(ValueError, match="unknown BilliardPhys baseline 'psychic'"):
        baseline_answer("psychic", TABLES[0], TRUTHS[0])
    with pytest.raises(ValueError, match="no graded tables"):
        accuracies([])
