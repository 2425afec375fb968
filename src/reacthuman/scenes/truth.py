"""Ground truth from simulator state (paper 3.4, stage 3).

The simulator records the primary hazard's hazard point (see ``SceneObject.hazard_point``)
at every physics step of an unobserved roll-out past the freeze, and when the hazard first
touches the floor. Everything here is computed from that record with the same reach-zone
definitions and the same label rule the scene generator uses.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from reacthuman.scenes.geometry import box_corners
from reacthuman.scenes.labels import (
    Action,
    Arrival,
    SafetyLabel,
    action_label,
    others_of,
    safety_label,
)
from reacthuman.scenes.moment import reaction_margin
from reacthuman.scenes.reach import impact_point, starts_in_reach, summarise_arrival
from reacthuman.scenes.spec import ObjectArrival, Quat, SceneSpec, Vec3

# 2.0: arrival at entry, peaks, rigid-body energy, the reaction margin; 2.1: the hazard's pose
# along the trajectory and its size, the room and its obstacles at the freeze (what a planner
# needs to meet the object or keep clear of it); 2.2: peaks at the hands, and how every other
# moving object meets the observer (a chain's striker is a hazard too when it reaches); 2.3: how
# large the hazard shows and how far it moves in each view's rendered frames (``views``).
TRUTH_SCHEMA = "2.3"
TRAJECTORY_RATE = 60  # Hz stored in ground_truth.json


class TrajectoryPoint(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    t: float  # seconds after t0 (the event start)
    pos: Vec3  # the hazard point
    center: Vec3 | None = None  # the object's centre of mass (schema 2.1)
    quat: Quat | None = None  # the object's orientation, its own axes (schema 2.1)


class Obstacle(BaseModel):
    """What stands in the room at the freeze, as an axis-aligned box in the world frame:
    furniture, and every object but the hazard where it is then (fallen ones included)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    lo: Vec3
    hi: Vec3


class HazardView(BaseModel):
    """The hazard as one camera's frames show it, measured on their pixels (a segmentation
    of the same render): what a model can see of it, occlusion included."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    view: str  # the camera (CameraName)
    width: int  # px of the frame, for the sizes below
    start_span_px: float  # the longest side of its visible pixels' box, when the window opens
    span_px: float  # the same at the freeze (0: not visible)
    motion_px: float  # how far its visible centre moved over the window (0: unseen at an end)
    cue_motion_px: float  # the largest such move of the hazard or what sets it going


class GroundTruth(BaseModel):
    """What actually happens, measured in simulation. The brain never sees this."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    schema_version: str = TRUTH_SCHEMA
    scene_id: str
    action: Action
    safety: SafetyLabel
    reaches_observer: bool
    impact_point: Vec3 | None  # world frame; None where the hazard never reaches
    impact_time: float | None  # s after t0
    time_to_floor: float | None  # s after t0 of the first floor contact; None if none
    arrival_time: float | None  # s after t0: it enters the reach zone
    arrival_speed: float | None  # m/s of the hazard point then
    arrival_kinetic_energy: float | None  # J, the object's (translation + rotation) then
    peak_speed: float | None  # m/s, the largest in the zone in front until the hands
    peak_kinetic_energy: float | None  # J, likewise: what the label rule judges
    reaction_margin: float | None  # s from the freeze to arrival or landing (scenes.moment)
    starts_in_reach: bool  # the hazard point was inside the reach zone at t0
    lowest_center: float  # m: the lowest its centre of mass went (soft contacts sink a little)
    final_center: float  # m: its centre of mass at the horizon
    trajectory: list[TrajectoryPoint]  # the hazard point, 60 Hz, t0 .. t0 + horizon
    window: float  # s: the freeze is at t0 + window
    physics_dt: float
    hazard_size: Vec3 | None = None  # the object's full extents in its own axes (2.1)
    room_size: Vec3 | None = None  # the room's extents, centred on the origin (2.1)
    obstacles: list[Obstacle] = []  # at the freeze (2.1)
    floor_resolves: bool = True  # False where the floor is the hazard's path (2.1)
    others: list[ObjectArrival] = []  # every other object that moved (2.2)
    views: list[HazardView] = []  # the hazard in each camera's frames (2.3)

    def to_json(self) -> str:
        return json.dumps(self.model_dump(mode="json"), indent=2) + "\n"

    @classmethod
    def load(cls, path: str | Path) -> GroundTruth:
        return cls.model_validate_json(Path(path).read_bytes())


def _r(v: Sequence[float]) -> Vec3:
    return (round(v[0], 5) + 0.0, round(v[1], 5) + 0.0, round(v[2], 5) + 0.0)


def _q(q: Sequence[float]) -> Quat:
    return tuple(round(c, 6) + 0.0 for c in q)  # type: ignore[return-value]


def _maybe(x: float | None) -> float | None:
    return None if x is None else round(x, 5)


def ground_truth(
    spec: SceneSpec,
    samples: Sequence[Sequence],
    floor_time: float | None,
    dt: float,
    window: float | None = None,
    lowest_center: float | None = None,
    final_center: float | None = None,
    poses: Sequence[tuple[Vec3, Quat]] | None = None,
    obstacles: Sequence[Obstacle] = (),
    others: Mapping[str, Sequence[Sequence]] | None = None,
) -> GroundTruth:
    """Ground truth from (t after t0, position, velocity[, kinetic energy]) of the hazard point
    at every step (``reach.Sample``); ``lowest_center`` and ``final_center``: the lowest and
    the last height of its centre of mass; ``poses``: its centre of mass and orientation at
    every step; ``obstacles``: the room's contents at the freeze; ``others``: the samples of
    the centre of mass of every other object, by id (each is a hazard where it reaches)."""
    observer = spec.observer.pos
    hazard = spec.hazard
    window = spec.timing.window if window is None else window
    arrival = summarise_arrival(samples, observer, spec.observer.yaw, hazard.mass_kg, floor_time)
    measured = Arrival(
        reaches_observer=arrival.reaches_observer,
        peak_speed=arrival.peak_speed,
        peak_kinetic_energy=arrival.peak_kinetic_energy,
    )
    by_id = {o.id: o for o in spec.objects}
    moved = [
        object_arrival(object_id, track, observer, spec.observer.yaw, by_id[object_id].mass_kg)
        for object_id, track in (others or {}).items()
    ]
    measured_others = others_of(spec, moved)
    impact = impact_point(samples, observer)
    margin = reaction_margin(window, arrival.arrival_time, floor_time, spec.intended.floor_resolves)
    if lowest_center is None:
        lowest_center = min(sample[1][2] for sample in samples)
    if final_center is None:
        final_center = samples[-1][1][2]
    stride = max(1, round(1.0 / (TRAJECTORY_RATE * dt)))
    return GroundTruth(
        scene_id=spec.scene_id,
        action=action_label(hazard, measured, measured_others),
        safety=safety_label(hazard, measured, measured_others),
        reaches_observer=arrival.reaches_observer,
        impact_point=None if impact is None else _r(impact[1]),
        impact_time=None if impact is None else round(impact[0], 5),
        time_to_floor=_maybe(floor_time),
        arrival_time=_maybe(arrival.arrival_time),
        arrival_speed=_maybe(arrival.arrival_speed),
        arrival_kinetic_energy=_maybe(arrival.arrival_kinetic_energy),
        peak_speed=_maybe(arrival.peak_speed),
        peak_kinetic_energy=_maybe(arrival.peak_kinetic_energy),
        reaction_margin=_maybe(margin),
        starts_in_reach=starts_in_reach(samples, observer),
        lowest_center=round(lowest_center, 5),
        final_center=round(final_center, 5),
        trajectory=[
            TrajectoryPoint(
                t=round(samples[i][0], 5),
                pos=_r(samples[i][1]),
                center=None if poses is None else _r(poses[i][0]),
                quat=None if poses is None else _q(poses[i][1]),
            )
            for i in range(0, len(samples), stride)
        ],
        window=window,
        physics_dt=dt,
        hazard_size=hazard.shape.size,
        room_size=spec.room.size,
        obstacles=list(obstacles),
        floor_resolves=spec.intended.floor_resolves,
        others=moved,
    )


def object_arrival(
    object_id: str,
    samples: Sequence[Sequence],
    observer: Sequence[float],
    heading: float,
    mass_kg: float,
) -> ObjectArrival:
    """How another object of a scene meets the observer, from its (t, centre, velocity[,
    energy]) samples: designed (the generator) or measured (ground truth)."""
    arrival = summarise_arrival(samples, observer, heading, mass_kg, None)
    return ObjectArrival(
        id=object_id,
        reaches_observer=arrival.reaches_observer,
        peak_speed=None if arrival.peak_speed is None else round(arrival.peak_speed, 4),
        peak_kinetic_energy=(
            None if arrival.peak_kinetic_energy is None else round(arrival.peak_kinetic_energy, 4)
        ),
    )


def obstacle(name: str, lo: Sequence[float], hi: Sequence[float]) -> Obstacle:
    """An obstacle box, rounded as every position in ground truth."""
    return Obstacle(id=name, lo=_r(lo), hi=_r(hi))


def furniture_obstacles(spec: SceneSpec) -> list[Obstacle]:
    """The furniture's bounding boxes (a static piece does not move)."""
    out = []
    for piece in spec.furniture:
        corners = box_corners(piece.pose.pos, piece.size, piece.pose.quat)
        lo = [min(c[i] for c in corners) for i in range(3)]
        out.append(obstacle(piece.id, lo, [max(c[i] for c in corners) for i in range(3)]))
    return out
