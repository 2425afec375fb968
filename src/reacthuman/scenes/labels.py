"""The action-label rule, written down once (paper 3.1 "Action space"; docs/scenes.md, "Labels").

Ground truth follows physics, not appearance:

1. If the hazard never enters the observer's reach zone, the label is ``NO_ACTION``.
2. Otherwise, if it is dangerous, the label is ``TRIGGER_DODGE``. Dangerous means any of:
   sharp, hot, shattering into shards (``fragile_shattering``: glass, mirrors, screens), heavy
   (mass >= 1.5 kg), not graspable (intrinsic, from the catalogue's true physics), or fast
   (peak speed > ``MAX_CATCH_SPEED``) or high-energy (peak kinetic energy, translation plus
   rotation, > ``MAX_CATCH_ENERGY``) (kinematic, from the event).
3. Otherwise the label is ``EXECUTE_CATCH``. Fragile but harmless to the catcher (a ceramic
   plate, a mug, a picture frame, a wall clock) is caught: catching is what saves it.

The reach zone (``reacthuman.scenes.reach``) is a vertical cylinder around the observer:
radius 1.2 m (arm's reach 0.6 m plus one step 0.6 m), from the floor to 2.0 m. The hazard
reaches the observer if it moves inside the zone; its peak speed and energy are the largest
it has there in front of the observer (before its first floor contact if it entered in the
air), see ``reach.summarise_arrival``. The foundation computes these from the sampler's
intended motion; the simulation replaces them with measured ones and calls the same
functions. Multi-object scenes are labelled by their primary hazard.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from reacthuman.scenes.catalogue import HEAVY_MASS_KG, CatalogueObject
from reacthuman.scenes.spec import IntendedMotion, SceneObject, SceneSpec

# Kinematic limits of a safe bare-handed catch. They sit above every speed the swept families
# give a catchable object (thrown balls reach 10 m/s: a firm chest pass), so no label flips
# inside a speed sweep on speed alone; energy flips are rejected at generation unless the
# family says the sweep is about them (``FamilySampler.speed_decides_label``).
MAX_CATCH_SPEED = 12.0  # m/s
MAX_CATCH_ENERGY = 30.0  # J


class Action(StrEnum):
    EXECUTE_CATCH = "EXECUTE_CATCH"
    TRIGGER_DODGE = "TRIGGER_DODGE"
    NO_ACTION = "NO_ACTION"


class Arrival(BaseModel):
    """How the hazard meets the observer: predicted by a sampler or measured in simulation."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    reaches_observer: bool
    peak_speed: float | None = None  # m/s, see reach.ArrivalSummary
    peak_kinetic_energy: float | None = None  # J, translation + rotation


class SafetyLabel(BaseModel):
    """Whether catching would be dangerous, and every reason why (used by safety rule R2)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    dangerous: bool
    reasons: list[str]


def safety_label(hazard: SceneObject | CatalogueObject, arrival: Arrival) -> SafetyLabel:
    reasons = intrinsic_reasons(hazard)
    if arrival.reaches_observer:
        if (arrival.peak_speed or 0.0) > MAX_CATCH_SPEED:
            reasons.append("fast")
        if (arrival.peak_kinetic_energy or 0.0) > MAX_CATCH_ENERGY:
            reasons.append("high_energy")
    return SafetyLabel(dangerous=bool(reasons), reasons=reasons)


def action_label(hazard: SceneObject, arrival: Arrival) -> Action:
    if not arrival.reaches_observer:
        return Action.NO_ACTION
    if safety_label(hazard, arrival).dangerous:
        return Action.TRIGGER_DODGE
    return Action.EXECUTE_CATCH


def intended_arrival(motion: IntendedMotion) -> Arrival:
    """The arrival a sampler designed (the foundation's provisional kinematics)."""
    return Arrival(
        reaches_observer=motion.reaches_observer,
        peak_speed=motion.peak_speed,
        peak_kinetic_energy=motion.peak_kinetic_energy,
    )


def provisional_label(spec: SceneSpec) -> tuple[Action, SafetyLabel]:
    """Label and safety label from the spec's primary hazard and its intended motion."""
    arrival = intended_arrival(spec.intended)
    return action_label(spec.hazard, arrival), safety_label(spec.hazard, arrival)


def intrinsic_reasons(hazard: SceneObject | CatalogueObject) -> list[str]:
    """Why an object is dangerous to catch whatever its motion (empty: catchable unless it
    arrives fast or with high energy)."""
    return [
        name
        for name, present in (
            ("sharp", hazard.hazards.sharp),
            ("hot", hazard.hazards.hot),
            ("fragile_shattering", hazard.hazards.fragile_shattering),
            ("heavy", hazard.mass_kg >= HEAVY_MASS_KG),
            ("not_graspable", not hazard.graspable),
        )
        if present
    ]


def rule_in_words(hazard: SceneObject | CatalogueObject) -> str:
    """The label rule for one object, as docs/scenes.md's per-object table states it."""
    reasons = intrinsic_reasons(hazard)
    if reasons:
        return "dodge (" + ", ".join(reasons).replace("_", " ") + ")"
    return f"catch, unless over {MAX_CATCH_SPEED:g} m/s or {MAX_CATCH_ENERGY:g} J"
