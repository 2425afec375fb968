"""The object catalogue: 82 household objects, 14 of them adversarial look-alikes (paper 3.3).

Stored as data in ``assets/catalogue.json`` and validated on load, so a bad edit to the data
fails loudly with the object and field named instead of producing wrong labels later.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from reacthuman.assets import assets_dir
from reacthuman.documents import first_problem, read_json
from reacthuman.scenes.spec import (
    HazardFlags,
    ObjectRole,
    Pose,
    Rgb,
    SceneObject,
    Shape,
    ShapeKind,
)

HEAVY_MASS_KG = 1.5  # an object this heavy is dangerous to catch (the `heavy` hazard flag)
# An object longer than this cannot be held in two hands (a door, a standee, a ladder, a floor
# lamp): ``graspable`` is false exactly for these, and the label rule dodges them ("large").
# A 0.9 m mirror or a 0.97 m television is held by its sides; a 1.32 m ceiling fan is not.
LARGE_EXTENT_M = 1.2
# Glass shatters into shards (a pane, a vessel, a mirror, a screen's front): the
# ``fragile_shattering`` flag follows the material, so a glass-fronted picture frame is
# shattering as a mirror is, and ceramics never are (a plate is caught: catching saves it).
GLASS = re.compile(r"\bglass\b")
MIN_DENSITY, MAX_DENSITY = 5.0, 12000.0  # kg/m^3 of the bounding primitive: foam ... lead
EXPECTED_COUNT, EXPECTED_ADVERSARIAL = 82, 14


class Visual(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    model: str = Field(pattern=r"^[a-z_]+$")
    color: Rgb


class CatalogueObject(BaseModel):
    """One object: what it looks like to a camera and what it really is to physics."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    looks_like: str = Field(min_length=3)
    category: str
    material: str
    shape: Shape
    visual: Visual
    mass_kg: float = Field(gt=0, le=500)
    friction: float = Field(ge=0.05, le=2.0)
    restitution: float = Field(ge=0.0, le=0.95)
    hazards: HazardFlags
    graspable: bool
    adversarial: bool
    imitates: str | None

    @model_validator(mode="after")
    def _physically_consistent(self) -> CatalogueObject:
        if self.graspable == is_large(self.shape):
            raise ValueError(
                f"graspable must be {not is_large(self.shape)}: its longest side is "
                f"{longest_extent(self.shape):.2f} m (large, not graspable, means over "
                f"{LARGE_EXTENT_M} m)"
            )
        if self.hazards.fragile_shattering != shatters(self.material):
            raise ValueError(
                f"hazards.fragile_shattering must be {shatters(self.material)} for material "
                f"{self.material!r} (glass shatters, nothing else does)"
            )
        if self.hazards.heavy != (self.mass_kg >= HEAVY_MASS_KG):
            raise ValueError(
                f"hazards.heavy must be {self.mass_kg >= HEAVY_MASS_KG} for mass "
                f"{self.mass_kg} kg (heavy means mass >= {HEAVY_MASS_KG} kg)"
            )
        if self.adversarial != (self.imitates is not None):
            raise ValueError("'imitates' is required for adversarial objects and only for them")
        density = self.mass_kg / volume(self.shape)
        if not MIN_DENSITY <= density <= MAX_DENSITY:
            raise ValueError(
                f"density {density:.1f} kg/m^3 (mass / bounding volume) is outside "
                f"[{MIN_DENSITY}, {MAX_DENSITY}]"
            )
        return self

    def placed(self, object_id: str, role: ObjectRole, pose: Pose, **start: Any) -> SceneObject:
        """This object in a scene: the catalogue's look, shape, mass, flags, friction and
        restitution at ``pose``; ``start`` sets any other SceneObject field (a jittered
        friction, a colour, a launch)."""
        fields: dict[str, Any] = {
            "id": object_id,
            "catalogue_name": self.name,
            "looks_like": self.looks_like,
            "visual_model": self.visual.model,
            "color": self.visual.color,
            "role": role,
            "adversarial": self.adversarial,
            "imitates": self.imitates,
            "shape": Shape(kind=self.shape.kind, size=self.shape.size),
            "mass_kg": self.mass_kg,
            "hazards": self.hazards,
            "graspable": self.graspable,
            "friction": self.friction,
            "restitution": self.restitution,
            "pose": pose,
        }
        return SceneObject(**{**fields, **start})


def longest_extent(shape: Shape) -> float:
    return shape.size[0] if shape.kind is ShapeKind.sphere else max(shape.size)


def end_on_extent(shape: Shape) -> float:
    """The longest side an object shows seen end-on along its longest side (its middle side;
    a ball's diameter): the least a tumbling object may show a camera at a given moment."""
    return sorted(shape.size)[1]


def is_large(shape: Shape) -> bool:
    """Whether an object of this shape is too large to be held in two hands."""
    return longest_extent(shape) > LARGE_EXTENT_M


def shatters(material: str) -> bool:
    """Whether a material breaks into shards: it has glass in it."""
    return GLASS.search(material) is not None


def volume(shape: Shape) -> float:
    x, y, z = shape.size
    if shape.kind is ShapeKind.box:
        return x * y * z
    if shape.kind is ShapeKind.sphere:
        return math.pi / 6.0 * x**3
    return math.pi / 4.0 * x * y * z


class CatalogueError(ValueError):
    """The catalogue data is invalid; the message names the object and the field."""


class Catalogue:
    """The validated catalogue, indexed by name."""

    def __init__(self, objects: list[CatalogueObject], version: str) -> None:
        self.version = version
        self.objects = objects
        self._by_name = {o.name: o for o in objects}

    def __len__(self) -> int:
        return len(self.objects)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def get(self, name: str) -> CatalogueObject:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"unknown catalogue object {name!r}") from None

    @property
    def adversarial(self) -> list[CatalogueObject]:
        return [o for o in self.objects if o.adversarial]

    def variants_of(self, name: str) -> list[CatalogueObject]:
        """Adversarial objects that imitate ``name``."""
        return [o for o in self.objects if o.imitates == name]


def parse_catalogue(data: object, source: str = "catalogue") -> Catalogue:
    """Validate raw catalogue data; every problem is reported with the object's name."""
    if not isinstance(data, dict) or not isinstance(data.get("objects"), list):
        raise CatalogueError(f"{source}: expected an object with an 'objects' list")
    objects: list[CatalogueObject] = []
    for index, raw in enumerate(data["objects"]):
        label = raw.get("name", f"#{index}") if isinstance(raw, dict) else f"#{index}"
        try:
            objects.append(CatalogueObject.model_validate(raw))
        except ValidationError as exc:
            problem = first_problem(exc, "object")
            raise CatalogueError(f"{source}: object {label!r}: {problem}") from None
    names = [o.name for o in objects]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise CatalogueError(f"{source}: duplicate object names {duplicates}")
    by_name = {o.name: o for o in objects}
    for obj in objects:
        if obj.imitates is None:
            continue
        genuine = by_name.get(obj.imitates)
        if genuine is None or genuine.adversarial:
            raise CatalogueError(
                f"{source}: object {obj.name!r}: imitates {obj.imitates!r}, "
                "which is not a genuine catalogue object"
            )
        for field in ("looks_like", "category", "shape", "visual"):
            if getattr(obj, field) != getattr(genuine, field):
                raise CatalogueError(
                    f"{source}: object {obj.name!r}: {field} must equal that of {genuine.name!r}, "
                    "since an adversarial object looks exactly like what it imitates"
                )
        # Twins differ in mass and material only: what follows from either (heavy, sharp,
        # shattering) may differ, what follows from neither (hot, too large to hold) may not.
        for flag, mine, theirs in (
            ("graspable", obj.graspable, genuine.graspable),
            ("hazards.hot", obj.hazards.hot, genuine.hazards.hot),
        ):
            if mine != theirs:
                raise CatalogueError(
                    f"{source}: object {obj.name!r}: {flag} must equal that of "
                    f"{genuine.name!r}: a look-alike differs from it in mass and material only"
                )
    # Only a look-alike may look like another object: two genuine objects drawn alike would be
    # a pair no model could tell apart that no label accounts for.
    seen: dict[Visual, str] = {}
    for obj in objects:
        if obj.imitates is None:
            other = seen.setdefault(obj.visual, obj.name)
            if other != obj.name:
                raise CatalogueError(
                    f"{source}: object {obj.name!r}: visual {obj.visual.model!r} in colour "
                    f"{list(obj.visual.color)} is that of {other!r}; give it its own model or "
                    "colour (only a look-alike, with 'imitates', looks like another object)"
                )
    return Catalogue(objects, str(data.get("catalogue_version", "unknown")))


def load_catalogue(path: str | Path | None = None) -> Catalogue:
    """Load and validate a catalogue file (the packaged one by default)."""
    file = Path(path) if path is not None else assets_dir() / "catalogue.json"
    try:
        data = read_json(file, "catalogue")
    except ValueError as exc:
        raise CatalogueError(str(exc)) from None
    return parse_catalogue(data, str(file))


@lru_cache(maxsize=1)
def default_catalogue() -> Catalogue:
    """The packaged catalogue, checked to hold the paper's 82 objects and 14 adversarial ones."""
    catalogue = load_catalogue()
    if len(catalogue) != EXPECTED_COUNT or len(catalogue.adversarial) != EXPECTED_ADVERSARIAL:
        raise CatalogueError(
            f"packaged catalogue must hold {EXPECTED_COUNT} objects of which "
            f"{EXPECTED_ADVERSARIAL} adversarial, found {len(catalogue)} and "
            f"{len(catalogue.adversarial)}"
        )
    return catalogue
