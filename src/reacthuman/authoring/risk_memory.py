"""The household risk-memory bank: ICAT's risk-memory units, grounded in public guidance.

Each unit is ICAT's m = (n, c, p, r): the conditions and the triggering action or event (n),
the consequence for a person nearby (c, with a severity grade), the prevention (p) and the
public source it paraphrases (r), plus what ReactHuman can simulate of it: the event families,
room types and catalogue objects that stage it. Scene authoring retrieves units for a
description or a scenario and hands them to the planner as binding context, so an authored
scene rests on a documented hazard instead of one a model imagined.

The bank is a versioned data file (``assets/risk_memory.json``); a user's own bank is checked
by the same rules: every unit names only families, rooms and catalogue objects that exist,
ids are unique, each family a unit names can stage at least one of its objects, and a problem
is reported with the unit's id and field.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from reacthuman.assets import assets_dir
from reacthuman.documents import first_problem, read_json
from reacthuman.scenes.catalogue import Catalogue, default_catalogue
from reacthuman.scenes.samplers import pinnable_objects
from reacthuman.scenes.spec import Family, RoomType

BANK_FILE = "risk_memory.json"
MIN_PACKAGED_UNITS = 60  # the floor for the packaged bank

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=600)]
Word = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9 -]*$", max_length=40)]
UnitId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=80)]


class Severity(StrEnum):
    """ICAT's graded outcome: low (a bruise, a mess), medium (a cut, a scald, a sprain: first
    aid or a doctor), high (a fracture, a head injury, crushing, a serious burn)."""

    low = "low"
    medium = "medium"
    high = "high"


class ReferenceKind(StrEnum):
    incident_statistics = "incident_statistics"
    safety_guidance = "safety_guidance"
    standard = "standard"
    recall_notice = "recall_notice"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Reference(_Strict):
    """r: the public source a unit rests on, by name, and what it says in the bank's words."""

    source: Text
    kind: ReferenceKind
    paraphrase: Text


class RiskUnit(_Strict):
    """One risk memory m = (n, c, p, r), with what the simulator can stage of it."""

    id: UnitId
    title: Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=80)]
    conditions: Text  # n: setting, objects and their state, the triggering action or event
    mechanism: Text  # the physics that turns the trigger into the outcome
    consequence: Text  # c: what happens to a person nearby if nothing is done
    severity: Severity
    prevention: Text  # p
    reference: Reference  # r
    families: Annotated[list[Family], Field(min_length=1)]
    rooms: Annotated[list[RoomType], Field(min_length=1)]
    objects: Annotated[list[str], Field(min_length=1)]  # catalogue names that can be the hazard
    keywords: Annotated[list[Word], Field(min_length=1, max_length=12)]

    def text(self) -> str:
        """What retrieval embeds and a planner reads: the unit as one passage."""
        return (
            f"{self.title}. Conditions: {self.conditions} Mechanism: {self.mechanism} "
            f"Consequence ({self.severity.value} severity): {self.consequence} "
            f"Prevention: {self.prevention} Keywords: {', '.join(self.keywords)}."
        )


class RiskBank(_Strict):
    bank_version: Annotated[str, StringConstraints(min_length=1, max_length=20)]
    units: Annotated[list[RiskUnit], Field(min_length=1)]

    def get(self, unit_id: str) -> RiskUnit:
        for unit in self.units:
            if unit.id == unit_id:
                return unit
        raise KeyError(f"no risk-memory unit {unit_id!r}")


class BankError(ValueError):
    """The bank file is unreadable or a unit is invalid; the message names the unit and field."""


def parse_bank(data: object, source: str, catalogue: Catalogue | None = None) -> RiskBank:
    """Validate raw bank data. Each problem names the unit (its id, else its index) and the
    field; objects must be genuine catalogue objects (an adversarial look-alike is a twin of
    one, never a unit's documented hazard)."""
    if not isinstance(data, dict) or not isinstance(data.get("units"), list):
        raise BankError(f"{source}: expected an object with 'bank_version' and a 'units' list")
    units: list[RiskUnit] = []
    for index, raw in enumerate(data["units"]):
        label = raw.get("id") if isinstance(raw, dict) else None
        name = f"unit {label!r}" if isinstance(label, str) else f"unit #{index}"
        try:
            units.append(RiskUnit.model_validate(raw))
        except ValidationError as exc:
            raise BankError(f"{source}: {name}: {first_problem(exc, 'unit')}") from None
    ids = [u.id for u in units]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise BankError(f"{source}: duplicate unit ids {duplicates}")
    catalogue = catalogue if catalogue is not None else default_catalogue()
    for unit in units:
        for obj in unit.objects:
            if obj not in catalogue:
                raise BankError(
                    f"{source}: unit {unit.id!r}: objects: {obj!r} is not in the catalogue"
                )
            if catalogue.get(obj).adversarial:
                raise BankError(
                    f"{source}: unit {unit.id!r}: objects: {obj!r} is an adversarial look-alike; "
                    f"name the genuine object it imitates ({catalogue.get(obj).imitates!r})"
                )
        for family in unit.families:  # a family the unit names must be able to stage it
            if not set(unit.objects) & set(pinnable_objects(family, catalogue)):
                raise BankError(
                    f"{source}: unit {unit.id!r}: families: {family.value} cannot stage any of "
                    f"its objects {unit.objects}; it stages "
                    + ", ".join(sorted(pinnable_objects(family, catalogue)))
                )
    try:
        return RiskBank.model_validate({**data, "units": units})
    except ValidationError as exc:
        raise BankError(f"{source}: {first_problem(exc, 'bank')}") from None


def load_bank(path: str | Path | None = None, catalogue: Catalogue | None = None) -> RiskBank:
    """Load and validate a bank file (the packaged one by default)."""
    file = Path(path) if path is not None else assets_dir() / BANK_FILE
    try:
        data = read_json(file, "the risk-memory bank")
    except ValueError as exc:
        raise BankError(str(exc)) from None
    return parse_bank(data, str(file), catalogue)


@lru_cache(maxsize=1)
def default_bank() -> RiskBank:
    """The packaged bank, checked to hold at least ``MIN_PACKAGED_UNITS`` units and to cover
    every event family."""
    bank = load_bank()
    if len(bank.units) < MIN_PACKAGED_UNITS:
        raise BankError(
            f"packaged risk-memory bank must hold at least {MIN_PACKAGED_UNITS} units, "
            f"found {len(bank.units)}"
        )
    missing = sorted(set(Family) - {f for u in bank.units for f in u.families})
    if missing:
        raise BankError(f"packaged risk-memory bank: no unit for the families {missing}")
    return bank


def format_bank(bank: RiskBank, every_unit: bool = False) -> str:
    """What a bank covers, a person reads in a terminal (``reacthuman scenes risks``): its
    units per severity and per family, the families no unit stages, and with
    ``every_unit`` each unit with its families, objects and source."""
    units = bank.units
    grades = Counter(u.severity for u in units)
    lines = [
        f"risk-memory bank {bank.bank_version}: {len(units)} units",
        "  severity   " + ", ".join(f"{g.value} {grades[g]}" for g in Severity),
        f"  {'family':<18}{'units':>6}  {'low':>4}{'medium':>7}{'high':>5}",
    ]
    for family in Family:
        mine = [u for u in units if family in u.families]
        counts = Counter(u.severity for u in mine)
        lines.append(
            f"  {family.value:<18}{len(mine):>6}  {counts[Severity.low]:>4}"
            f"{counts[Severity.medium]:>7}{counts[Severity.high]:>5}"
        )
    uncovered = [f.value for f in Family if not any(f in u.families for u in units)]
    if uncovered:
        lines.append(f"  no unit for: {', '.join(uncovered)}")
    if every_unit:
        for unit in units:
            lines += [
                f"\n{unit.id} [{unit.severity.value}] {unit.title}",
                f"  families: {', '.join(unit.families)}; objects: {', '.join(unit.objects)}",
                f"  source: {unit.reference.source}",
            ]
    return "\n".join(lines)
