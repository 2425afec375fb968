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

from reacthuman.scenes.geometry import Vec3, norm

REACH_RADIUS = 1.2  # m, horizontal distance from the observer's vertical axis
REACH_HEIGHT = 2.0  # m above the floor
REACH_PLANE_HEIGHT = 1.1  # m above the floor
MOVING_SPEED = 0.05  # m/s: a hazard at rest inside the zone (a cup on a near table) is no arrival


def in_reach_zone(point: Sequence[float], observer: Sequence[float]) -> bool:
    horizontal = math.hypot(point[0] - observer[0], point[1] - observer[1])
    return horizontal <= REACH_RADIUS and point[2] <= REACH_HEIGHT


@dataclass(frozen=True)
class ArrivalSummary:
    reaches_observer: bool
    arrival_time: float | None = None
    arrival_point: Vec3 | None = None
    arrival_speed: float | None = None
    arrival_kinetic_energy: float | None = None


def summarise_arrival(
    samples: Iterable[tuple[float, Sequence[float], Sequence[float]]],
    observer: Sequence[float],
    heading: float,
    mass_kg: float,
    floor_time: float | None,
) -> ArrivalSummary:
    """Whether and how the hazard meets the observer, from (t, position, velocity) samples.

    It reaches the observer if it moves inside the reach zone at any time (an object resting
    within reach that is never set in motion does not arrive). The arrival speed is the
    largest speed it has there while in front of the observer (``heading``: the observer's
    yaw) and, if it was still in the air when it entered, before it first touched the floor:
    what hands reaching forward would meet, not what it hits the floor with behind the robot.
    """
    forward = (math.cos(heading), math.sin(heading))
    inside: list[tuple[float, Sequence[float], float, bool]] = []
    for t, pos, vel in samples:
        if in_reach_zone(pos, observer):
            speed = norm(vel)
            if speed >= MOVING_SPEED:
                ahead = (pos[0] - observer[0]) * forward[0] + (pos[1] - observer[1]) * forward[1]
                inside.append((t, pos, speed, ahead >= 0.0))
    if not inside:
        return ArrivalSummary(reaches_observer=False)
    first_t, first_pos = inside[0][0], inside[0][1]
    airborne_entry = floor_time is None or first_t <= floor_time
    candidates = [
        speed
        for t, _pos, speed, ahead in inside
        if ahead and (not airborne_entry or floor_time is None or t <= floor_time + 1e-9)
    ] or [speed for _t, _pos, speed, _ahead in inside]
    top_speed = max(candidates)
    return ArrivalSummary(
        reaches_observer=True,
        arrival_time=first_t,
        arrival_point=tuple(first_pos),  # type: ignore[arg-type]
        arrival_speed=top_speed,
        arrival_kinetic_energy=0.5 * mass_kg * top_speed**2,
    )


def impact_point(
    samples: Sequence[tuple[float, Sequence[float], Sequence[float]]],
    observer: Sequence[float],
) -> tuple[float, Vec3] | None:
    """(time, point) where the hazard meets the reach plane (see the module doc), or None."""
    entry: tuple[float, Vec3] | None = None
    previous: tuple[float, Sequence[float]] | None = None
    for t, pos, vel in samples:
        inside = in_reach_zone(pos, observer) and norm(vel) >= MOVING_SPEED
        if inside:
            if entry is None:
                entry = (t, tuple(pos))  # type: ignore[assignment]
                if pos[2] <= REACH_PLANE_HEIGHT:
                    return entry
            if previous is not None and previous[1][2] > REACH_PLANE_HEIGHT >= pos[2]:
                # Interpolate the crossing between the two samples.
                z0, z1 = previous[1][2], pos[2]
                k = (z0 - REACH_PLANE_HEIGHT) / (z0 - z1)
                point = tuple(previous[1][i] + k * (pos[i] - previous[1][i]) for i in range(3))
                return (previous[0] + k * (t - previous[0]), point)  # type: ignore[return-value]
        previous = (t, pos)
    return entry
