"""What a scene set records: each scene's metadata beside its spec (labels, the decision
moment, provenance) and the set's manifest, in the released dataset's layout
(``scenes.set_files``).
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from reacthuman.scenes.labels import Action, SafetyLabel, provisional_label
from reacthuman.scenes.spec import Family, SceneSpec, SpeedBand
from reacthuman.scenes.truth import GroundTruth, HazardView
from reacthuman.scenes.twin import TwinTest

SET_FORMAT = "reacthuman-scene-set/1"


class SetError(ValueError):
    """A scene set cannot be generated, written or read; the message says where and why."""


class DecisionMoment(BaseModel):
    """When the outcome comes relative to the freeze, and how fast the hazard arrives
    (``reacthuman.scenes.moment``), from the sampler's design or, for a simulated set, as
    measured."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    window: float  # s, t0 to the freeze
    arrival_time: float | None  # s after t0: it enters the reach zone
    floor_time: float | None  # s after t0: it first touches (or comes down to) the floor
    floor_resolves: bool  # False where the floor is the hazard's path, not its outcome
    reaction_margin: float | None  # s from the freeze to arrival or landing
    arrival_speed: float | None  # m/s as it enters the reach zone
    peak_speed: float | None  # m/s, the largest in reach before it lands
    peak_kinetic_energy: float | None  # J, translation + rotation


class CausalChain(BaseModel):
    """ICAT's risk explanation for an authored scene: the scene, the trigger, the outcome."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    initial_scene: str = Field(min_length=3, max_length=600)
    trigger: str = Field(min_length=3, max_length=600)
    outcome: str = Field(min_length=3, max_length=600)


class Authored(BaseModel):
    """Where an authored scene comes from (``reacthuman scenes author``): the description,
    the planner, the risk-memory units it rests on, its causal chain and severity."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str = Field(min_length=1, max_length=2000)
    planner: str  # "offline", or the model that planned it
    units: list[str] = Field(min_length=1)  # risk-memory unit ids
    causal_chain: CausalChain
    severity: Literal["low", "medium", "high"]


class SceneMetadata(BaseModel):
    """What the released dataset keeps beside each spec: the labels and how to group scenes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    scene_id: str
    family: Family
    seed: int
    group: int
    speed_band: SpeedBand
    adversarial: bool
    object: str  # catalogue name of the primary hazard
    looks_like: str
    imitates: str | None
    label: Action
    safety: SafetyLabel
    reaches_observer: bool
    label_source: str = "intended"  # "intended" (sampler kinematics) or "simulated"
    moment: DecisionMoment
    twin: TwinTest | None = None  # adversarial scenes of a simulated set (scenes.twin)
    spec_sha256: str
    authored: Authored | None = None  # an authored scene's provenance
    # A simulated scene's hazard as each view's rendered frames show it (``sim.visibility``).
    views: list[HazardView] | None = None

    @model_serializer(mode="wrap")
    def _without_absent_authoring(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # A generated scene's metadata keeps the bytes it had before authored scenes existed,
        # and an unsimulated one those it had before views were measured.
        data: dict[str, Any] = handler(self)
        for optional in ("authored", "views"):
            if data.get(optional) is None:
                data.pop(optional, None)
        return data


class SkippedScene(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    family: Family
    seeds: list[int]
    reason: str


class SetManifest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    format: str = SET_FORMAT
    generator_version: str
    catalogue_version: str
    per_family: int = Field(ge=1)
    first_seed: int = Field(default=0, ge=0)  # where each family's schedule starts
    adversarial_rate: float = Field(ge=0, le=1)
    families: list[Family]
    scenes: list[str]  # "<family>/<scene_id>", in schedule order
    skipped: list[SkippedScene]


class Scene(BaseModel):
    """One scene of a set: its spec and metadata."""

    model_config = ConfigDict(frozen=True)
    spec: SceneSpec
    metadata: SceneMetadata


def metadata_for(
    spec: SceneSpec,
    truth: GroundTruth | None = None,
    twin: TwinTest | None = None,
    authored: Authored | None = None,
) -> SceneMetadata:
    """Metadata with the label rule applied to measured kinematics (``truth``) if given, else
    to the sampler's intended ones; ``twin``: an adversarial scene's twin test; ``authored``:
    an authored scene's provenance."""
    motion = spec.intended
    if truth is None:
        label, safety = provisional_label(spec)
        reaches, source = spec.intended.reaches_observer, "intended"
        moment = DecisionMoment(
            window=spec.timing.window,
            arrival_time=motion.arrival_time,
            floor_time=motion.floor_time,
            floor_resolves=motion.floor_resolves,
            reaction_margin=motion.reaction_margin,
            arrival_speed=motion.arrival_speed,
            peak_speed=motion.peak_speed,
            peak_kinetic_energy=motion.peak_kinetic_energy,
        )
    else:
        label, safety = truth.action, truth.safety
        reaches, source = truth.reaches_observer, "simulated"
        moment = DecisionMoment(
            window=truth.window,
            arrival_time=truth.arrival_time,
            floor_time=truth.time_to_floor,
            floor_resolves=motion.floor_resolves,
            reaction_margin=truth.reaction_margin,
            arrival_speed=truth.arrival_speed,
            peak_speed=truth.peak_speed,
            peak_kinetic_energy=truth.peak_kinetic_energy,
        )
    hazard = spec.hazard
    return SceneMetadata(
        scene_id=spec.scene_id,
        family=spec.family,
        seed=spec.seed,
        group=spec.group,
        speed_band=spec.speed_band,
        adversarial=spec.adversarial,
        object=hazard.catalogue_name,
        looks_like=hazard.looks_like,
        imitates=hazard.imitates,
        label=label,
        safety=safety,
        reaches_observer=reaches,
        label_source=source,
        moment=moment,
        twin=twin,
        spec_sha256=hashlib.sha256(spec.to_json().encode()).hexdigest(),
        authored=authored,
        views=(truth.views or None) if truth is not None else None,
    )
