"""The observer's reach zone, its reach plane, and how a hazard's path meets them.

Defined once here and used by the labels (whether and how fast the hazard arrives), by the
simulation's ground truth (the impact point) and by the scorer. The zone is a vertical
cylinder around the observer's feet: radius ``REACH_RADIUS`` (arm's reach 0.6 m plus one step
0.6 m) from the floor up to ``REACH_HEIGHT``. The reach plane is the zone's horizontal cross
section at ``REACH_PLANE_HEIGHT``, the G1's chest: where hands held forward meet something
coming down.

The impact point is where the hazard crosses the reach plane, moving down, inside the zone;
a hazard that enters the zone already below the plane (rolling, sliding, thrown low) impacts
where it enters; one that passes through the zone only above the plane impacts where it
enters. A hazard that never moves inside the zone has no impact point.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from reacthuman.scenes.geometry import Vec3, norm, vec3

REACH_RADIUS = 1.2  # m, horizontal distance from the observer's vertical axis
REACH_HEIGHT = 2.0  # m above the floor
REACH_PLANE_HEIGHT = 1.1  # m above the floor
MOVING_SPEED = 0.05  # m/s: a hazard at rest inside the zone (a cup on a near table) is no arrival
# The arrival speed is the hazard's average velocity over this span before it enters the zone
# (or since it started moving, if later): a ball caught mid-bounce or a wobbling edge does not
# set it, the speed it travels with does.
ARRIVAL_SPAN = 0.25  # s


def in_reach_zone(point: Sequence[float], observer: Sequence[float]) -> bool:
    horizontal = math.hypot(point[0] - observer[0], point[1] - observer[1])
    return horizontal <= REACH_RADIUS and point[2] <= REACH_HEIGHT


# A motion sample: (t, position, velocity) of the hazard point, optionally followed by the
# whole object's kinetic energy (translation + rotation, J); without it, 1/2 m v^2 of the point.
Sample = Sequence


def _energy(sample: Sample, mass_kg: float) -> float:
    if len(sample) > 3 and sample[3] is not None:
        return float(sample[3])
    return 0.5 * mass_kg * norm(sample[2]) ** 2


@dataclass(frozen=True)
class ArrivalSummary:
    """How the hazard meets the observer.

    ``arrival_*`` describe the moment it enters the reach zone (time, point, the object's
    kinetic energy there; its speed averaged over the ``ARRIVAL_SPAN`` before, or after if it
    was set moving where it rested inside the zone). ``peak_*`` are the largest speed and
    kinetic energy it has inside the zone in front of the observer until it meets the hands
    (the impact point: where it comes down through the reach plane, or enters below it):
    what hands held out would have to stop, what the label rule judges and what the speed
    bands sweep. What it gathers falling on past the hands to the floor is not the hands'
    to stop (a ball rolled off a counter at any speed hits the floor at about the same).
    """

    reaches_observer: bool
    arrival_time: float | None = None
    arrival_point: Vec3 | None = None
    arrival_speed: float | None = None
    arrival_kinetic_energy: float | None = None
    peak_speed: float | None = None
    peak_kinetic_energy: float | None = None


def summarise_arrival(
    samples: Iterable[Sample],
    observer: Sequence[float],
    heading: float,
    mass_kg: float,
    floor_time: float | None,
) -> ArrivalSummary:
    """Whether and how the hazard meets the observer, from (t, position, velocity[, energy])
    samples.

    It reaches the observer if it moves inside the reach zone at any time (an object resting
    within reach that is never set in motion does not arrive). Peaks are taken while it is in
    front of the observer (``heading``: the observer's yaw) until it meets the hands
    (``impact_point``) and, if it was still in the air when it entered, before it first
    touched the floor: what hands reaching forward would meet, not what it hits the floor
    with behind the robot.
    """
    samples = list(samples)
    impact = impact_point(samples, observer)
    hands_t = math.inf if impact is None else impact[0]
    forward = (math.cos(heading), math.sin(heading))
    inside: list[tuple[float, Sequence[float], float, float, bool]] = []
    before: list[tuple[float, Sequence[float]]] = []  # the moving approach, before entry
    for sample in samples:
        t, pos, vel = sample[0], sample[1], sample[2]
        if not inside:
            if norm(vel) < MOVING_SPEED:
                before = []
            else:
                before.append((t, pos))
        if in_reach_zone(pos, observer):
            speed = norm(vel)
            if speed >= MOVING_SPEED:
                ahead = (pos[0] - observer[0]) * forward[0] + (pos[1] - observer[1]) * forward[1]
                inside.append((t, pos, speed, _energy(sample, mass_kg), ahead >= 0.0))
    if not inside:
        return ArrivalSummary(reaches_observer=False)
    first_t, first_pos, first_speed, first_energy, _ahead = inside[0]
    span = [(t, pos) for t, pos in before if t >= first_t - ARRIVAL_SPAN - 1e-9]
    set_moving = len(span) < 2  # where it rested inside the zone: the speed it sets off with
    if set_moving:
        span = [(t, pos) for t, pos, *_rest in inside if t <= first_t + ARRIVAL_SPAN + 1e-9]
    if len(span) >= 2 and span[-1][0] > span[0][0]:
        (t_a, p_a), (t_b, p_b) = span[0], span[-1]
        first_speed = math.dist(p_a, p_b) / (t_b - t_a)
    if set_moving:
        # Struck where it rested in reach (a row's last ball, a chain's target): the hands
        # meet what it sets off with, not a contact's jolt in the step it starts.
        energy = max(e for t, _p, _s, e, _a in inside if t <= first_t + ARRIVAL_SPAN + 1e-9)
        hands_t = first_t
        inside[0] = (first_t, first_pos, first_speed, energy, inside[0][4])
    airborne_entry = floor_time is None or first_t <= floor_time
    until_hands = [
        (speed, energy, ahead)
        for t, _pos, speed, energy, ahead in inside
        if t <= hands_t + 1e-9
        and (not airborne_entry or floor_time is None or t <= floor_time + 1e-9)
    ]
    candidates = (
        [(speed, energy) for speed, energy, ahead in until_hands if ahead]
        or [(speed, energy) for speed, energy, _ahead in until_hands]  # nothing in front
        or [(speed, energy) for _t, _pos, speed, energy, _ahead in inside[:1]]
    )
    return ArrivalSummary(
        reaches_observer=True,
        arrival_time=first_t,
        arrival_point=vec3(first_pos),
        arrival_speed=first_speed,
        arrival_kinetic_energy=first_energy,
        peak_speed=max(speed for speed, _e in candidates),
        peak_kinetic_energy=max(energy for _s, energy in candidates),
    )


def starts_in_reach(samples: Sequence[Sample], observer: Sequence[float]) -> bool:
    """Whether the hazard is already arriving when the event starts: moving inside the reach
    zone. One resting there (the last ball of multi_object's row at the table's near end)
    arrives only when something sets it moving, and that must leave the margin."""
    return (
        bool(samples)
        and in_reach_zone(samples[0][1], observer)
        and norm(samples[0][2]) >= MOVING_SPEED
    )


def impact_point(
    samples: Sequence[Sample],
    observer: Sequence[float],
) -> tuple[float, Vec3] | None:
    """(time, point) where the hazard meets the reach plane (see the module doc), or None."""
    entry: tuple[float, Vec3] | None = None
    previous: tuple[float, Sequence[float]] | None = None
    for sample in samples:
        t, pos, vel = sample[0], sample[1], sample[2]
        inside = in_reach_zone(pos, observer) and norm(vel) >= MOVING_SPEED
        if inside:
            if entry is None:
                entry = (t, tuple(pos))
                if pos[2] <= REACH_PLANE_HEIGHT:
                    return entry
            if previous is not None and previous[1][2] > REACH_PLANE_HEIGHT >= pos[2]:
                # Interpolate the crossing between the two samples.
                z0, z1 = previous[1][2], pos[2]
                k = (z0 - REACH_PLANE_HEIGHT) / (z0 - z1)
                point = tuple(previous[1][i] + k * (pos[i] - previous[1][i]) for i in range(3))
                return (previous[0] + k * (t - previous[0]), point)
        previous = (t, pos)
    return entry
