"""Ground truth from a recorded trajectory: impact point, arrival, labels (hand-computed)."""

from __future__ import annotations

import math

import pytest

from reacthuman.scenes.generate import generate_scene
from reacthuman.scenes.labels import MAX_CATCH_ENERGY, MAX_CATCH_SPEED, Action
from reacthuman.scenes.reach import (
    REACH_PLANE_HEIGHT,
    impact_point,
    starts_in_reach,
    summarise_arrival,
)
from reacthuman.scenes.truth import ground_truth

DT = 1.0 / 240.0
G = 9.81


def free_fall(x: float, z0: float, steps: int = 480):
    """A point dropped from rest at (x, 0, z0), stopping on the floor."""
    out = []
    for i in range(steps):
        t = i * DT
        z = max(z0 - 0.5 * G * t * t, 0.0)
        vz = -G * t if z > 0.0 else 0.0
        out.append((t, (x, 0.0, z), (0.0, 0.0, vz)))
    return out


def roll(x0: float, speed: float, steps: int = 720):
    """A ball rolling along -x on the floor at constant speed."""
    return [(i * DT, (x0 - speed * i * DT, 0.2, 0.1), (-speed, 0.0, 0.0)) for i in range(steps)]


def test_a_drop_from_above_impacts_where_it_crosses_the_reach_plane():
    t, point = impact_point(free_fall(0.5, 2.5), (0.0, 0.0, 0.0))
    assert point[0] == pytest.approx(0.5) and point[2] == pytest.approx(REACH_PLANE_HEIGHT)
    assert t == pytest.approx(math.sqrt(2 * (2.5 - REACH_PLANE_HEIGHT) / G), abs=DT)


def test_a_low_arrival_impacts_where_it_enters_the_zone():
    t, point = impact_point(roll(3.0, 1.0), (0.0, 0.0, 0.0))
    assert math.hypot(point[0], point[1]) == pytest.approx(1.2, abs=0.01)
    assert t == pytest.approx((3.0 - math.sqrt(1.2**2 - 0.2**2)) / 1.0, abs=DT)


def test_out_of_reach_and_motionless_hazards_have_no_impact():
    assert impact_point(free_fall(2.5, 2.5), (0.0, 0.0, 0.0)) is None
    resting = [(i * DT, (0.5, 0.0, 0.8), (0.0, 0.0, 0.0)) for i in range(100)]
    assert impact_point(resting, (0.0, 0.0, 0.0)) is None
    assert not summarise_arrival(resting, (0, 0, 0), 0.0, 1.0, None).reaches_observer


def test_a_hazard_resting_in_reach_arrives_when_it_is_set_moving():
    # multi_object: the row's last ball rests at the counter's end until the strike reaches it.
    struck = 300
    samples = [
        (i * DT, (0.45 - max(i - struck, 0) * DT * 0.5, 0.0, 0.95), (-0.5 * (i >= struck), 0, 0))
        for i in range(480)
    ]
    assert not starts_in_reach(samples, (0.0, 0.0, 0.0))
    arrival = summarise_arrival(samples, (0.0, 0.0, 0.0), 0.0, 0.15, None)
    assert arrival.arrival_time == pytest.approx(struck * DT)
    # Already moving inside the zone when the event starts: it starts in reach.
    assert starts_in_reach(roll(0.9, 1.0), (0.0, 0.0, 0.0))


def test_peaks_are_taken_at_the_hands_in_front():
    fall = free_fall(0.5, 2.5)
    floor = next(t for t, p, _v in fall if p[2] == 0.0)
    arrival = summarise_arrival(fall, (0.0, 0.0, 0.0), 0.0, 2.0, floor)
    # Entered at the zone's top (2.0 m) in the air: what the hands meet is its speed at the
    # reach plane (1.1 m), not the floor's (issue 51: the bands must change what they face).
    hands = math.sqrt(2 * G * (2.5 - REACH_PLANE_HEIGHT))
    assert arrival.peak_speed == pytest.approx(hands, rel=0.01)
    assert arrival.peak_kinetic_energy == pytest.approx(0.5 * 2.0 * hands**2, rel=0.02)
    behind = summarise_arrival(fall, (0.0, 0.0, 0.0), math.pi, 2.0, floor)  # robot turned away
    assert behind.peak_speed == arrival.peak_speed  # nothing in front: all of the zone
    # Rolling in below the plane: it meets the hands as it enters, at its roll speed.
    rolled = summarise_arrival(roll(3.0, 1.0), (0.0, 0.0, 0.0), 0.0, 0.2, None)
    assert rolled.peak_speed == pytest.approx(1.0, rel=0.01)


def test_arrival_speed_is_the_speed_it_comes_in_with():
    """Entering the zone: the average speed over the quarter second before, so a ball caught
    mid-bounce counts at the speed it travels, not its bounce."""
    rolling = roll(3.0, 1.0)
    arrival = summarise_arrival(rolling, (0.0, 0.0, 0.0), 0.0, 0.2, None)
    assert arrival.arrival_speed == pytest.approx(1.0, rel=0.01)
    assert arrival.arrival_time == pytest.approx((3.0 - math.sqrt(1.2**2 - 0.2**2)), abs=DT)
    bouncing = [
        (t, (x, y, z + 0.1 * abs(math.sin(12.0 * t))), (vx, vy, 1.2 * math.cos(12.0 * t)))
        for t, (x, y, z), (vx, vy, _vz) in rolling
    ]
    assert summarise_arrival(bouncing, (0, 0, 0), 0.0, 0.2, None).arrival_speed == pytest.approx(
        1.0, rel=0.05
    )
    # Energy given with the samples (translation + rotation) is taken as it is.
    spinning = [(t, p, v, 0.7) for t, p, v in rolling]
    summary = summarise_arrival(spinning, (0, 0, 0), 0.0, 0.2, None)
    assert summary.peak_kinetic_energy == summary.arrival_kinetic_energy == 0.7


def test_ground_truth_labels_from_measured_kinematics():
    spec = generate_scene("ceiling_drop", 0)
    hazard = spec.hazard
    x, y = spec.observer.pos[0] + 0.5, spec.observer.pos[1]
    samples = [(t, (x, y, p[2]), v) for t, p, v in free_fall(0.0, 2.5)]
    floor = next(t for t, p, _v in samples if p[2] == 0.0)
    truth = ground_truth(spec, samples, floor, DT)
    assert truth.reaches_observer and truth.impact_point is not None
    assert truth.impact_point[2] == pytest.approx(REACH_PLANE_HEIGHT)
    assert truth.time_to_floor == pytest.approx(math.sqrt(2 * 2.5 / G), abs=DT)
    dangerous = bool(hazard.hazards.active()) or not hazard.graspable
    fast = truth.peak_kinetic_energy > MAX_CATCH_ENERGY or truth.peak_speed > MAX_CATCH_SPEED
    expected = Action.TRIGGER_DODGE if dangerous or fast else Action.EXECUTE_CATCH
    assert truth.action is expected
    assert len(truth.trajectory) == len(samples) // 4  # 240 Hz stored at 60 Hz
    far = [(t, (x + 3.0, y, p[2]), v) for t, p, v in free_fall(0.0, 2.5)]
    assert ground_truth(spec, far, floor, DT).action is Action.NO_ACTION


def test_the_reaction_margin_runs_from_the_freeze_to_arrival_or_landing():
    spec = generate_scene("ceiling_drop", 0)
    x, y = spec.observer.pos[0] + 0.5, spec.observer.pos[1]
    samples = [(t, (x, y, p[2]), v) for t, p, v in free_fall(0.0, 5.5, steps=840)]
    floor = next(t for t, p, _v in samples if p[2] == 0.0)
    truth = ground_truth(spec, samples, floor, DT, window=0.3)
    entry = math.sqrt(2 * (5.5 - 2.0) / G)  # it enters the zone at its top, 2 m
    assert truth.arrival_time == pytest.approx(entry, abs=DT)
    assert truth.reaction_margin == pytest.approx(entry - 0.3, abs=DT)
    assert not truth.starts_in_reach
    assert truth.lowest_center == pytest.approx(0.0) and truth.final_center == pytest.approx(0.0)
