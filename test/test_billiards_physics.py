"""The billiard table's ground truth against cases solved by hand (BilliardPhys-Bench's physics:
constant friction, perfectly elastic collisions, pockets)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reacthuman.billiards.physics import (
    DECELERATION,
    HEIGHT,
    POCKETS,
    RADIUS,
    WIDTH,
    Wall,
    simulate,
)


def rolled(speed: float, t: float) -> float:
    """Distance a ball starting at ``speed`` rolls in ``t`` s (it stops at v^2 / (2 mu g))."""
    t = min(t, speed / DECELERATION)
    return speed * t - 0.5 * DECELERATION * t * t


def test_a_lone_ball_rolls_its_stopping_distance_and_stops():
    speed, direction = 0.2, np.array([0.6, 0.8])
    start = np.array([0.5, 0.3])
    stopping = speed**2 / (2 * 0.002 * 9.8)  # the paper's s_stop, 1.0204 m
    assert stopping == pytest.approx(speed**2 / (2 * DECELERATION))
    for horizon in (1.0, 3.0):
        out = simulate(start[None], (speed * direction)[None], horizon)
        expected = start + direction * rolled(speed, horizon)
        assert np.allclose(out.positions[0], expected, atol=1e-12, rtol=0)
    direction = np.array([1.0, 0.0])  # along the table: room to stop
    out = simulate(start[None], (speed * direction)[None], 30.0)
    assert np.allclose(out.positions[0], start + direction * stopping, atol=1e-12, rtol=0)
    assert out.velocities[0] == (0.0, 0.0)
    assert [e.kind for e in out.events] == ["stop"]
    assert out.events[0].t == pytest.approx(speed / DECELERATION, abs=1e-12)


def test_a_head_on_hit_between_equal_balls_exchanges_their_velocities():
    speed = 0.2
    positions = np.array([[0.3, 0.5], [0.6, 0.5]])
    velocities = np.array([[speed, 0.0], [0.0, 0.0]])
    out = simulate(positions, velocities, 20.0)
    gap = 0.3 - 2 * RADIUS
    hit = (speed - math.sqrt(speed**2 - 2 * DECELERATION * gap)) / DECELERATION
    (contact,) = [e for e in out.events if e.kind == "ball"]
    assert (contact.ball, contact.other) == (0, 1)
    assert contact.t == pytest.approx(hit, abs=1e-12)
    # The cue ball stops dead where it touched; the other rolls off with its speed.
    assert out.positions[0] == pytest.approx((0.6 - 2 * RADIUS, 0.5), abs=1e-12)
    stopping = speed**2 / (2 * DECELERATION)
    assert out.positions[1] == pytest.approx((0.6 + stopping - gap, 0.5), abs=1e-12)
    assert out.hit_by(0) == {1} and out.walls_of(0) == set()


@pytest.mark.parametrize("offset", [0.3, 0.7, 1.2, 1.9])  # how far off-centre, in radii
def test_a_glancing_hit_splits_the_balls_at_ninety_degrees(offset):
    """A moving ball hitting a ball at rest, off centre: afterwards the two move at right
    angles, with the impact's speed shared as cos and sin of the cut angle."""
    speed = 0.25
    positions = np.array([[0.4, 0.5], [0.8, 0.5 + offset * RADIUS]])
    velocities = np.array([[speed, 0.0], [0.0, 0.0]])
    out = simulate(positions, velocities, 0.0)  # nothing happens at 0 s
    assert out.events == []
    first = simulate(positions, velocities, 5.0)
    (contact,) = [e for e in first.events if e.kind == "ball"][:1]
    at = simulate(positions, velocities, contact.t + 1e-9)
    cue, target = np.array(at.velocities[0]), np.array(at.velocities[1])
    impact = speed - DECELERATION * contact.t
    assert float(cue @ target) == pytest.approx(0.0, abs=1e-9)
    assert float(cue @ cue + target @ target) == pytest.approx(impact**2, rel=1e-6)
    cut = math.asin(offset / 2)  # the line of centres against the cue's path
    assert np.linalg.norm(target) == pytest.approx(impact * math.cos(cut), rel=1e-6)
    assert np.linalg.norm(cue) == pytest.approx(impact * math.sin(cut), rel=1e-6, abs=1e-9)


def test_a_cushion_reflects_a_ball_as_a_mirror_would():
    """Rolled past the right cushion, the ball is where the straight path's mirror image is."""
    speed, angle = 0.3, math.radians(30)
    start = np.array([1.6, 0.4])
    direction = np.array([math.cos(angle), math.sin(angle)])
    horizon = 3.0
    out = simulate(start[None], (speed * direction)[None], horizon)
    straight = start + direction * rolled(speed, horizon)
    mirrored = (2 * (WIDTH - RADIUS) - straight[0], straight[1])
    assert straight[0] > WIDTH - RADIUS and straight[1] < HEIGHT - RADIUS  # one cushion
    assert out.positions[0] == pytest.approx(mirrored, abs=1e-12)
    assert out.walls_of(0) == {Wall.RIGHT}
    vx, vy = out.velocities[0]
    assert vx < 0 < vy


def test_a_ball_rolled_into_a_pocket_is_gone():
    corner = np.array(POCKETS[2])  # bottom right
    start = np.array([1.7, 0.3])
    direction = (corner - start) / np.linalg.norm(corner - start)
    out = simulate(start[None], (0.5 * direction)[None], 5.0)
    assert out.positions == [None]
    (pocket,) = [e for e in out.events if e.kind == "pocket"]
    assert pocket.pocket == 2
    travelled = np.linalg.norm(corner - start) - 0.06
    assert pocket.t == pytest.approx(
        (0.5 - math.sqrt(0.25 - 2 * DECELERATION * travelled)) / DECELERATION, abs=1e-12
    )


def test_random_tables_keep_balls_apart_on_the_table_and_lose_energy():
    rng = np.random.default_rng(7)
    for _ in range(40):
        positions = []
        while len(positions) < 7:
            p = rng.uniform([0.1, 0.1], [WIDTH - 0.1, HEIGHT - 0.1])
            if all(np.linalg.norm(p - q) > 2.2 * RADIUS for q in positions):
                positions.append(p)
        velocities = np.zeros((7, 2))
        velocities[0] = rng.uniform(-1.5, 1.5, 2)
        energy = float(velocities[0] @ velocities[0])
        previous = energy
        for horizon in (1.0, 2.0, 3.0, 4.0, 5.0):
            out = simulate(np.array(positions), velocities, horizon)
            left = [np.array(p) for p in out.positions if p is not None]
            for i, p in enumerate(left):
                assert RADIUS - 1e-9 <= p[0] <= WIDTH - RADIUS + 1e-9
                assert RADIUS - 1e-9 <= p[1] <= HEIGHT - RADIUS + 1e-9
                for q in left[:i]:
                    assert np.linalg.norm(p - q) >= 2 * RADIUS - 1e-7
            now = sum(vx * vx + vy * vy for vx, vy in out.velocities)
            assert now <= previous + 1e-12  # friction only takes
            previous = now
            times = [e.t for e in out.events]
            assert times == sorted(times) and all(t <= horizon for t in times)


def test_a_longer_horizon_continues_the_same_history():
    positions = np.array([[0.5, 0.5], [0.9, 0.52], [1.3, 0.45], [1.5, 0.7]])
    velocities = np.array([[0.9, 0.05], [0, 0], [0, 0], [0, 0]])
    short, long = simulate(positions, velocities, 2.0), simulate(positions, velocities, 5.0)
    assert long.events[: len(short.events)] == short.events
    assert short.hit_by(0) <= long.hit_by(0)


@pytest.mark.parametrize(
    ("positions", "velocities", "horizon", "message"),
    [
        ([[0.5, 0.5], [0.52, 0.5]], [[0, 0], [0, 0]], 1.0, "balls 0 and 1 overlap"),
        ([[0.01, 0.5]], [[0, 0]], 1.0, "ball 0 at (0.01, 0.5) is not on the table"),
        ([[0.5, 0.5]], [[0, 0], [0, 0]], 1.0, "expected (n, 2) each"),
        ([[0.5, 0.5]], [[math.nan, 0]], 1.0, "finite"),
        ([[0.5, 0.5]], [[0, 0]], -1.0, "horizon -1"),
    ],
)
def test_an_impossible_table_is_refused_with_the_reason(positions, velocities, horizon, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        simulate(np.array(positions, dtype=float), np.array(velocities, dtype=float), horizon)
