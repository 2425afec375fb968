"""The action-label rule, written down once (paper 3.1 "Action space"; docs/scenes.md, "Labels").

Ground truth follows physics, not appearance, object by object and event by event:

1. The scene's hazards are every object whose motion enters the observer's reach zone: the
   primary hazard, and any other (a chain reaction's striking bowling ball that rolls on into
   reach counts as much as the teddy bear it launches). If none does, the label is
   ``NO_ACTION``.
2. Otherwise, if any of them is dangerous, the label is ``TRIGGER_DODGE``. Dangerous means any
   of: sharp, hot, shattering into shards (``fragile_shattering``: what has glass in it), heavy
   (mass >= 1.5 kg), large (longer than ``catalogue.LARGE_EXTENT_M``: it cannot be held in two
   hands, so the catalogue marks it not ``graspable``) (intrinsic, from the catalogue's true
   physics), or fast (over ``MAX_CATCH_SPEED``) or high-energy (kinetic energy, translation
   plus rotation, over ``MAX_CATCH_ENERGY``) where it meets the hands (kinematic, from the
   event).
3. Otherwise the label is ``EXECUTE_CATCH``. Fragile but harmless to the catcher (a ceramic
   plate, a mug, a ceramic lamp base) is caught: catching is what saves it.

The reach zone (``reacthuman.scenes.reach``) is a vertical cylinder around the observer:
radius 1.2 m (arm's reach 0.6 m plus one step 0.6 m), from the floor to 2.0 m. A hazard
reaches the observer if it moves inside the zone; its speed and energy at the hands are the
largest it has there in front of the observer until it meets the reach plane (``reach.
summarise_arrival``). The foundation computes these from the sampler's intended motion; the
simulation replaces them with measured ones and calls the same functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from reacthuman.scenes.catalogue import HEAVY_MASS_KG, CatalogueObject
from reacthuman.scenes.spec import IntendedMotion, ObjectArrival, SceneObject, SceneSpec

# Kinematic limits of a safe bare-handed catch, judged where the object meets the hands.
# Faster than 8 m/s an unknown household object strikes the hands rather than lands in them
# (a fall of 3.3 m): everything falling from a double-height ceiling (9 m/s and more at chest
# height) and a very fast throw (9.3 m/s and more) is dodged, a fast throw (at most 7 m/s)
# can be caught. The limit sits in that gap, so no label hinges on a few per cent of speed.
MAX_CATCH_SPEED = 8.0  # m/s
MAX_CATCH_ENERGY = 30.0  # J


class Action(StrEnum):
    EXECUTE_CATCH = "EXECUTE_CATCH"
    TRIGGER_DODGE = "TRIGGER_DODGE"
    NO_ACTION = "NO_ACTION"


class Arrival(BaseModel):
    """How a hazard meets the observer: predicted by a sampler or measured in simulation."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    reaches_observer: bool
    peak_speed: float | None = None  # m/s at the hands, see reach.ArrivalSummary
    peak_kinetic_energy: float | None = None  # J at the hands, translation + rotation

    @classmethod
    def of(cls, motion: IntendedMotion | ObjectArrival) -> Arrival:
        return cls(
            reaches_observer=motion.reaches_observer,
            peak_speed=motion.peak_speed,
            peak_kinetic_energy=motion.peak_kinetic_energy,
        )


class SafetyLabel(BaseModel):
    """Whether catching would be dangerous, and every reason why (used by safety rule R2)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    dangerous: bool
    reasons: list[str]


# Another moving object of the scene and how it meets the observer.
Other = tuple[SceneObject | CatalogueObject, Arrival]


def _reasons(hazard: SceneObject | CatalogueObject, arrival: Arrival) -> list[str]:
    reasons = intrinsic_reasons(hazard)
    if arrival.reaches_observer:
        if (arrival.peak_speed or 0.0) > MAX_CATCH_SPEED:
            reasons.append("fast")
        if (arrival.peak_kinetic_energy or 0.0) > MAX_CATCH_ENERGY:
            reasons.append("high_energy")
    return reasons


def safety_label(
    hazard: SceneObject | CatalogueObject, arrival: Arrival, others: Sequence[Other] = ()
) -> SafetyLabel:
    """The primary hazard's reasons (whether or not it reaches: grabbing a knife that does not
    arrive is still dangerous, rule R2), and those of every other object that reaches the
    observer: named by its kind ("heavy (bowling_ball)"), or for another item of the same kind
    (a stack's, a row's) by its id, where it adds to the primary's own ("high_energy
    (stack_1)")."""
    reasons = _reasons(hazard, arrival)
    own = list(reasons)
    for obj, other in others:
        if not other.reaches_observer:
            continue
        same_kind = _kind(obj) == _kind(hazard)  # a stack's or a row's other items
        for reason in _reasons(obj, other):
            if same_kind and reason in own:
                continue
            named = f"{reason} ({_id(obj) if same_kind else _kind(obj)})"
            if named not in reasons:
                reasons.append(named)
    return SafetyLabel(dangerous=bool(reasons), reasons=reasons)


def _kind(obj: SceneObject | CatalogueObject) -> str:
    return obj.catalogue_name if isinstance(obj, SceneObject) else obj.name


def _id(obj: SceneObject | CatalogueObject) -> str:
    return obj.id if isinstance(obj, SceneObject) else obj.name


def action_label(
    hazard: SceneObject | CatalogueObject, arrival: Arrival, others: Sequence[Other] = ()
) -> Action:
    if not arrival.reaches_observer and not any(o.reaches_observer for _obj, o in others):
        return Action.NO_ACTION
    if arrival.reaches_observer and _reasons(hazard, arrival):
        return Action.TRIGGER_DODGE
    if any(o.reaches_observer and _reasons(obj, o) for obj, o in others):
        return Action.TRIGGER_DODGE
    return Action.EXECUTE_CATCH


def others_of(spec: SceneSpec, arrivals: Sequence[ObjectArrival]) -> list[Other]:
    """(object, arrival) of each other object of ``spec`` an arrival is recorded for."""
    by_id = {o.id: o for o in spec.objects}
    return [(by_id[a.id], Arrival.of(a)) for a in arrivals]


def provisional_label(spec: SceneSpec) -> tuple[Action, SafetyLabel]:
    """Label and safety label from the spec's intended motion: its primary hazard's and that
    of every other object the sampler designed to move."""
    arrival = Arrival.of(spec.intended)
    others = others_of(spec, spec.intended.others)
    return action_label(spec.hazard, arrival, others), safety_label(spec.hazard, arrival, others)


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
            ("large", not hazard.graspable),
        )
        if present
    ]


def rule_in_words(hazard: SceneObject | CatalogueObject) -> str:
    """The label rule for one object, as docs/scenes.md's per-object table states it."""
    reasons = intrinsic_reasons(hazard)
    if reasons:
        return "dodge (" + ", ".join(reasons).replace("_", " ") + ")"
    return f"catch, unless over {MAX_CATCH_SPEED:g} m/s or {MAX_CATCH_ENERGY:g} J at the hands"
