"""A planner's selection: the semantics of one authored scene, and what makes one valid.

A selection names an event family, a catalogue object, a room type, optionally the swept
speed band, the risk-memory units it rests on, and the causal chain with its severity. It
never holds a number: the seeded randomizer draws every physical quantity when the selection
becomes a scene (``reacthuman.authoring.author``). ``selection_problems`` is what both
planners are held to: a model's selection with problems is asked again with them, then
rejected with them.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from reacthuman.authoring.risk_memory import RiskBank, Severity, UnitId
from reacthuman.scenes.catalogue import Catalogue, default_catalogue
from reacthuman.scenes.samplers import pinnable_objects, sampler_for
from reacthuman.scenes.set_models import CausalChain
from reacthuman.scenes.spec import Family, RoomType, SpeedBand

MAX_DESCRIPTION_CHARS = 2000  # a scene's description is a sentence or a short paragraph
MAX_UNITS = 5


class Selection(BaseModel):
    """One scene's semantics, as a planner chose them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    family: Family
    object: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]
    room: RoomType
    speed: SpeedBand | None = None  # a speed-swept family's band; None: the seed picks it
    units: Annotated[list[UnitId], Field(min_length=1, max_length=MAX_UNITS)]
    causal_chain: CausalChain
    severity: Severity


class SelectionError(ValueError):
    """A description or scenario cannot become a selection; the message says why."""


def check_description(text: str) -> str:
    """The description, stripped; an error for one a planner cannot work from."""
    stripped = text.strip()
    if not stripped:
        raise SelectionError("the description is empty: describe an object and what it does")
    if len(stripped) > MAX_DESCRIPTION_CHARS:
        raise SelectionError(
            f"the description is {len(stripped)} characters long; a scene's description is "
            f"at most {MAX_DESCRIPTION_CHARS} (a sentence or two)"
        )
    if any(ord(c) < 32 and c not in "\t\n\r" for c in stripped):
        raise SelectionError("the description holds control characters")
    return stripped


def selection_problems(
    selection: Selection,
    bank: RiskBank,
    retrieved: list[str] | None = None,
    catalogue: Catalogue | None = None,
) -> list[str]:
    """Why ``selection`` cannot become a scene (empty: it can). ``retrieved``: the unit ids
    the planner was given; a selection may rest only on those."""
    catalogue = catalogue if catalogue is not None else default_catalogue()
    sampler = sampler_for(selection.family)
    family = selection.family.value
    problems = []
    if selection.object not in catalogue:
        problems.append(
            f"object {selection.object!r} is not in the catalogue; the nearest are "
            + ", ".join(nearest_objects(selection.object, catalogue))
        )
    elif selection.object not in pinnable_objects(selection.family, catalogue):
        problems.append(
            f"{family} cannot stage {selection.object!r}; it stages "
            + ", ".join(sorted(pinnable_objects(selection.family, catalogue)))
        )
    if selection.speed is not None:
        if sampler.gravity_paced:
            problems.append(f"{family} is paced by gravity: it takes no speed")
        elif selection.speed is SpeedBand.gravity:
            problems.append(f"{family} sweeps speed: slow, normal, fast or very_fast")
    known = {unit.id for unit in bank.units}
    for unit_id in selection.units:
        if unit_id not in known:
            problems.append(f"unit {unit_id!r} is not in the risk-memory bank")
        elif retrieved is not None and unit_id not in retrieved:
            problems.append(f"unit {unit_id!r} was not among the units retrieved for this")
    if len(set(selection.units)) != len(selection.units):
        problems.append("units are listed twice")
    return problems


def nearest_objects(name: str, catalogue: Catalogue | None = None, k: int = 3) -> list[str]:
    """The catalogue's genuine objects closest in meaning to ``name`` (an object it lacks)."""
    from reacthuman.authoring.retrieval import embed

    catalogue = catalogue if catalogue is not None else default_catalogue()
    genuine = [o for o in catalogue.objects if not o.adversarial]
    texts = [f"{o.name.replace('_', ' ')}: {o.looks_like} ({o.category})" for o in genuine]
    vectors = embed([name.replace("_", " "), *texts])
    scores = vectors[1:] @ vectors[0]
    order = sorted(range(len(genuine)), key=lambda i: (-round(float(scores[i]), 4), i))
    return [genuine[i].name for i in order[:k]]
