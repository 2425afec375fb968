"""The hand tracker's inverse kinematics (spine.hands.HandTracker.solve): two starts, the seed's
solution kept unless the last one lands clearly closer, and the second solve skipped only
where it could not be kept."""

from __future__ import annotations

import numpy as np
import pytest

from reacthuman.genesis_runtime import as_numpy
from reacthuman.spine.hands import IK_PREFERENCE, HandTracker

pytestmark = pytest.mark.slow

NEAR = ((0.35, 0.12, 0.05), (0.35, -0.12, 0.05))  # in front of the chest: within reach
FAR = ((2.0, 0.5, 0.9), (2.0, -0.5, 0.9))  # 2 m away: no solve lands on it


@pytest.fixture
def spied(monkeypatch):
    """A tracker whose kinematic copy records every solve's error and solution."""
    tracker = HandTracker()
    solve = tracker.entity.inverse_kinematics_multilink
    calls: list[tuple[float, np.ndarray]] = []

    def recorded(**kwargs):
        solution, error = solve(**kwargs)
        calls.append((float(np.abs(as_numpy(error)[:, :3]).max()), as_numpy(solution).copy()))
        return solution, error

    monkeypatch.setattr(tracker.entity, "inverse_kinematics_multilink", recorded)
    return tracker, calls


def test_a_reachable_target_is_solved_once_from_the_seed(spied):
    tracker, calls = spied
    joints = tracker.solve(*NEAR)
    assert len(calls) == 1
    miss, solution = calls[0]
    assert miss <= IK_PREFERENCE  # no second start could land IK_PREFERENCE closer than this
    assert np.array_equal(tracker.solution, solution.astype(float))
    assert joints == {n: float(solution[tracker.qs[n]]) for n in joints}


def test_an_unreachable_target_is_solved_from_both_starts_and_the_closer_kept(spied):
    tracker, calls = spied
    tracker.solve(*FAR)
    assert len(calls) == 2
    (seed_miss, from_seed), (last_miss, from_last) = calls
    assert seed_miss > IK_PREFERENCE
    kept = from_last if last_miss < seed_miss - IK_PREFERENCE else from_seed
    assert np.array_equal(tracker.solution, kept.astype(float))
