"""The hand tracker's inverse kinematics (spine.hands.HandTracker.solve): two starts, the seed's
solution kept unless the last one lands clearly closer, and the second solve skipped only
where it could not be kept."""

from __future__ import annotations

import numpy as np
import pytest

from reacthuman import robot
from reacthuman.spine.hands import IK_PREFERENCE, HandTracker
from reacthuman.spine.kinematics import IK_TOLERANCE

NEAR = ((0.35, 0.12, 0.05), (0.35, -0.12, 0.05))  # in front of the chest: within reach
FAR = ((2.0, 0.5, 0.9), (2.0, -0.5, 0.9))  # 2 m away: no solve lands on it


@pytest.fixture
def spied(monkeypatch):
    """A tracker whose kinematic model records every solve's error and solution."""
    tracker = HandTracker()
    solve = tracker.model.solve
    calls: list[tuple[float, np.ndarray]] = []

    def recorded(*args, **kwargs):
        solution, error = solve(*args, **kwargs)
        calls.append((float(np.abs(error).max()), solution[0].copy()))
        return solution, error

    monkeypatch.setattr(tracker.model, "solve", recorded)
    return tracker, calls


def test_a_reachable_target_is_solved_once_from_the_seed(spied):
    tracker, calls = spied
    joints = tracker.solve(*NEAR)
    assert len(calls) == 1
    miss, solution = calls[0]
    assert miss <= IK_PREFERENCE  # no second start could land IK_PREFERENCE closer than this
    assert np.array_equal(tracker.solution, solution)
    assert joints == {n: float(solution[tracker.qs[n]]) for n in joints}
    # the hand centres of the solved arms are where they were asked to be (offsets from the
    # hand origin, the body standing)
    for hand, goal in zip(tracker.hands(tracker.solution), NEAR, strict=True):
        assert np.linalg.norm(np.subtract(hand, np.add(robot.HAND_ORIGIN, goal))) <= IK_TOLERANCE


def test_an_unreachable_target_is_solved_from_both_starts_and_the_closer_kept(spied):
    tracker, calls = spied
    tracker.solve(*FAR)
    assert len(calls) == 2
    (seed_miss, from_seed), (last_miss, from_last) = calls
    assert seed_miss > IK_PREFERENCE
    kept = from_last if last_miss < seed_miss - IK_PREFERENCE else from_seed
    assert np.array_equal(tracker.solution, kept)
