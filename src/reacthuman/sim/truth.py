"""Ground truth from simulator state (paper 3.4, stage 3).

The simulator records the primary hazard's hazard point (see ``SceneObject.hazard_point``)
at every physics step of an unobserved roll-out past the freeze, and when the hazard first
touches the floor. Everything here is computed from that record with the same reach-zone
definitions and the same label rule the scene generator uses.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from reacthuman.scenes.labels import Action, Arrival, SafetyLabel, action_label, safety_label
from reacthuman.scenes.reach import impact_point, summarise_arrival
from reacthuman.scenes.spec import SceneSpec, Vec3

TRUTH_SCHEMA = "1.1"  # 1.1: the window length
TRAJECTORY_RATE = 60  # Hz stored in ground_truth.json


class TrajectoryPoint(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    t: float  # seconds after t0 (the event start)
    pos: Vec3


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
    arrival_time: float | None
    arrival_speed: float | None  # m/s
    arrival_kinetic_energy: float | None  # J
    trajectory: list[TrajectoryPoint]  # the hazard point, 60 Hz, t0 .. t0 + horizon
    window: float  # s: the freeze is at t0 + window
    physics_dt: float

    def to_json(self) -> str:
        return json.dumps(self.model_dump(mode="json"), indent=2) + "\n"

    @classmethod
    def load(cls, path: str | Path) -> GroundTruth:
        return cls.model_validate_json(Path(path).read_text())


def _r(v: Sequence[float]) -> Vec3:
    return (round(v[0], 5) + 0.0, round(v[1], 5) + 0.0, round(v[2], 5) + 0.0)


def ground_truth(
    spec: SceneSpec,
    samples: Sequence[tuple[float, Sequence[float], Sequence[float]]],
    floor_time: float | None,
    dt: float,
    window: float | None = None,
) -> GroundTruth:
    """Ground truth from (t after t0, position, velocity) of the hazard point at every step."""
    observer = spec.observer.pos
    hazard = spec.hazard
    arrival = summarise_arrival(samples, observer, spec.observer.yaw, hazard.mass_kg, floor_time)
    measured = Arrival(
        reaches_observer=arrival.reaches_observer,
        arrival_speed=arrival.arrival_speed,
        arrival_kinetic_energy=arrival.arrival_kinetic_energy,
    )
    impact = impact_point(samples, observer)
    stride = max(1, round(1.0 / (TRAJECTORY_RATE * dt)))
    return GroundTruth(
        scene_id=spec.scene_id,
        action=action_label(hazard, measured),
        safety=safety_label(hazard, measured),
        reaches_observer=arrival.reaches_observer,
        impact_point=None if impact is None else _r(impact[1]),
        impact_time=None if impact is None else round(impact[0], 5),
        time_to_floor=None if floor_time is None else round(floor_time, 5),
        arrival_time=None if arrival.arrival_time is None else round(arrival.arrival_time, 5),
        arrival_speed=None if arrival.arrival_speed is None else round(arrival.arrival_speed, 5),
        arrival_kinetic_energy=(
            None
            if arrival.arrival_kinetic_energy is None
            else round(arrival.arrival_kinetic_energy, 5)
        ),
        trajectory=[TrajectoryPoint(t=round(t, 5), pos=_r(p)) for t, p, _v in samples[::stride]],
        window=spec.timing.window if window is None else window,
        physics_dt=dt,
    )
