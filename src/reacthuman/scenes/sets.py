"""Balanced scene sets: the seed schedule, export and import in the released dataset's layout.

Layout of a set directory (the released dataset's)::

    set.json                      manifest: generator, parameters, scene list, skipped seeds
    <family>/<scene_id>/spec.json       the SceneSpec
    <family>/<scene_id>/metadata.json   label, speed band, adversarial flag, safety label
    authored.json                 what became of each description (``scenes author``)
    .reacthuman.json              the marker: the verb that wrote the set (``out_folder``)

Seed schedule: family by family in the paper's order; within a family, scene groups 0, 1,
2, ... in order (or from the group holding a first seed: ``first_seed``, another block of
seeds that a leaderboard can keep private). A swept family takes the four seeds of a group
(4g .. 4g+3, one per band, slow to very_fast) until it has N scenes, so N = 18 gives four
full groups and the slow and normal scenes of a fifth. A gravity-paced family takes seeds
0, 1, 2, ... A group or seed that
cannot be generated is skipped, recorded in ``set.json`` with its reason, and the schedule
moves on to the next. With simulation (``reacthuman scenes generate --simulate``) a group is
also skipped when any of its scenes' simulation contradicts its spec (see
``reacthuman.sim.validate``), and labels come from the measured ground truth. Nothing in a set
depends on time or machine: generating it twice gives byte-identical trees.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
)

from reacthuman.documents import first_problem
from reacthuman.out_folder import MARKER_FILE, OutFolderError, claim, marker_text, read_marker
from reacthuman.safe_files import DOCUMENT_LIMIT, UnsafeFile, read_inside, read_regular
from reacthuman.scenes.catalogue import Catalogue, default_catalogue
from reacthuman.scenes.generate import (
    DEFAULT_ADVERSARIAL_RATE,
    GENERATOR_VERSION,
    GenerationError,
    generate_scene,
    sampler_for,
)
from reacthuman.scenes.labels import Action, SafetyLabel, provisional_label
from reacthuman.scenes.spec import SWEPT_BANDS, Family, SceneSpec, SpeedBand
from reacthuman.scenes.truth import GroundTruth, HazardView
from reacthuman.scenes.twin import TwinTest

DEFAULT_PER_FAMILY = 18
MAX_SKIPS_PER_FAMILY = 120  # seeds; a group of four counts four
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


def _family_schedule(family: Family, first_seed: int = 0) -> Iterator[list[int]]:
    """Seed batches in schedule order from ``first_seed``: the four bands of a group (the
    group holding ``first_seed`` first), or one gravity-paced seed."""
    gravity = sampler_for(family).gravity_paced
    group = first_seed if gravity else first_seed // len(SWEPT_BANDS)
    while True:
        if gravity:
            yield [group]
        else:
            yield [len(SWEPT_BANDS) * group + i for i in range(len(SWEPT_BANDS))]
        group += 1


# A simulation check: the reasons a scene's simulation contradicts its spec (empty if it
# does not), the measured ground truth, and for an adversarial scene its twin test.
SceneCheck = Callable[[SceneSpec], tuple[list[str], GroundTruth | None, TwinTest | None]]
# A check of a whole scene group's measurements (its speed bands): reasons, empty if valid.
GroupCheck = Callable[[list[SceneSpec], list[GroundTruth]], list[str]]


def generate_family(
    family: Family,
    count: int,
    adversarial_rate: float = DEFAULT_ADVERSARIAL_RATE,
    catalogue: Catalogue | None = None,
    check: SceneCheck | None = None,
    group_check: GroupCheck | None = None,
    first_seed: int = 0,
) -> tuple[list[Scene], list[SkippedScene]]:
    """The first ``count`` scenes of a family's schedule from ``first_seed``, and what had to
    be skipped.

    With ``check`` (simulation), a scene group is kept only if every scene of it passes
    (and, with ``group_check``, the group's measurements together; a group the set takes only
    part of is still simulated and judged whole), and labels come from the measured ground
    truth.
    """
    scenes: list[Scene] = []
    skipped: list[SkippedScene] = []

    def skip(seeds: list[int], reason: str) -> None:
        skipped.append(SkippedScene(family=family, seeds=seeds, reason=reason))
        if len(skipped) > MAX_SKIPS_PER_FAMILY:
            raise SetError(
                f"{family.value}: more than {MAX_SKIPS_PER_FAMILY} seeds fail; last: {reason}"
            )

    for seeds in _family_schedule(family, first_seed):
        if len(scenes) >= count:
            break
        try:
            batch = [generate_scene(family, s, adversarial_rate, catalogue) for s in seeds]
        except GenerationError as exc:
            skip(seeds, str(exc))
            continue
        # A group is judged whole (its arrival speeds must rise over all four bands), even
        # when the set takes only its first bands.
        take = count - len(scenes)
        if check is None:
            batch = batch[:take]
        truths: list[GroundTruth | None] = [None] * len(batch)
        twins: list[TwinTest | None] = [None] * len(batch)
        if check is not None:
            problems = []
            for i, spec in enumerate(batch):
                reasons, truths[i], twins[i] = check(spec)
                problems += [f"{spec.scene_id}: {r}" for r in reasons]
            if not problems and group_check is not None:
                measured = [t for t in truths if t is not None]
                if len(measured) == len(batch):
                    problems += [
                        f"group {batch[0].group}: {r}" for r in group_check(batch, measured)
                    ]
            if problems:
                skip(seeds, "; ".join(problems))
                continue
        scenes += [
            Scene(spec=s, metadata=metadata_for(s, t, w))
            for s, t, w in zip(batch, truths, twins, strict=True)
        ][:take]
    return scenes, skipped


def generate_set(
    per_family: int = DEFAULT_PER_FAMILY,
    families: Iterable[Family] | None = None,
    adversarial_rate: float = DEFAULT_ADVERSARIAL_RATE,
    catalogue: Catalogue | None = None,
    progress: Callable[[Family], None] | None = None,
    check: SceneCheck | None = None,
    group_check: GroupCheck | None = None,
    first_seed: int = 0,
) -> tuple[SetManifest, list[Scene]]:
    """``per_family`` scenes of every family in ``families``, each family's schedule from
    ``first_seed`` (a block of seeds a leaderboard can keep private)."""
    if per_family < 1:
        raise SetError(f"scenes per family must be at least 1, got {per_family}")
    if first_seed < 0:
        raise SetError(f"the first seed must be >= 0, got {first_seed}")
    catalogue = catalogue if catalogue is not None else default_catalogue()
    chosen = list(families) if families is not None else list(Family)
    scenes: list[Scene] = []
    skipped: list[SkippedScene] = []
    for family in chosen:
        family_scenes, family_skips = generate_family(
            family, per_family, adversarial_rate, catalogue, check, group_check, first_seed
        )
        scenes += family_scenes
        skipped += family_skips
        if progress is not None:
            progress(family)
    manifest = SetManifest(
        generator_version=GENERATOR_VERSION,
        catalogue_version=catalogue.version,
        per_family=per_family,
        first_seed=first_seed,
        adversarial_rate=adversarial_rate,
        families=chosen,
        scenes=[f"{s.spec.family.value}/{s.spec.scene_id}" for s in scenes],
        skipped=skipped,
    )
    return manifest, scenes


def group_manifest(scenes: list[Scene]) -> SetManifest:
    """The manifest of a set holding only ``scenes``, picked from a larger set (the group of
    scenes a Ray task of ``reacthuman bench --ray`` runs): a set written with it reads back
    as these scenes, in this order."""
    families = sorted({s.spec.family for s in scenes}, key=list(Family).index)
    per_family = Counter(s.spec.family for s in scenes)
    adversarial = sum(1 for s in scenes if s.spec.adversarial)
    return SetManifest(
        generator_version=GENERATOR_VERSION,
        catalogue_version=default_catalogue().version,
        per_family=max(per_family.values(), default=1),
        adversarial_rate=adversarial / len(scenes) if scenes else 0.0,
        families=families,
        scenes=[f"{s.spec.family.value}/{s.spec.scene_id}" for s in scenes],
        skipped=[],
    )


# The embedded default of `reacthuman bench` (the main job, no files needed): one scene per
# family, each kept by the validated set (`scenes generate --simulate` keeps every group of the
# default set since generator 3.0.0), a normal band where the family sweeps speed, and chosen
# so that the 17 ask for both answers: 8 catch, 8 dodge, 1 no action, with a look-alike (a
# lead-cored tennis ball) and a dodge made by another object (chain_reaction's bowling
# ball rolling on after it strikes an orange). test_sim checks that all 17 pass validation
# when simulated; after a sampler change, choose again from the seeds that `reacthuman scenes
# generate --simulate` keeps.
DEFAULT_SCENE_SEEDS: dict[Family, int] = {
    Family.object_drop: 1,  # paperback book: catch
    Family.shelf_slide: 5,  # ceramic bowl: catch
    Family.hanging_fall: 0,  # cork board: catch
    Family.ceiling_drop: 0,  # ceiling panel: dodge (heavy, fast at the hands)
    Family.sliding_object: 1,  # frisbee: catch
    Family.rolling_ball: 1,  # beach ball: catch
    Family.surface_cascade: 1,  # bowling ball: dodge
    Family.furniture_tip: 5,  # coat rack falling short: no action
    Family.stack_collapse: 2,  # toolboxes: dodge
    Family.ladder_slip: 0,  # wooden ladder: dodge
    Family.door_swing: 1,  # wooden door: dodge
    Family.pendulum_swing: 1,  # teddy bear: catch
    Family.thrown_object: 1,  # apple: catch
    Family.bouncing_object: 9,  # lead-cored tennis ball, a look-alike: dodge
    Family.stair_tumble: 1,  # orange: catch
    Family.chain_reaction: 5,  # orange struck by a bowling ball that rolls on: dodge
    Family.multi_object: 1,  # bowling balls: dodge
}


def default_scenes(catalogue: Catalogue | None = None) -> list[Scene]:
    """One validated scene per family (``DEFAULT_SCENE_SEEDS``), from specs alone."""
    catalogue = catalogue if catalogue is not None else default_catalogue()
    scenes = []
    for family in Family:
        spec = generate_scene(
            family, DEFAULT_SCENE_SEEDS.get(family, 0), DEFAULT_ADVERSARIAL_RATE, catalogue
        )
        scenes.append(Scene(spec=spec, metadata=metadata_for(spec)))
    return scenes


def _dump(model: BaseModel) -> str:
    return json.dumps(model.model_dump(mode="json"), indent=2) + "\n"


SET_VERBS = ("scenes generate", "scenes author")  # the verbs whose --out is a scene set
SET_FILES = ("set.json", "authored.json", MARKER_FILE)  # a set's top folder, beside its scenes
SCENE_FILES = ("spec.json", "metadata.json")


def foreign_entry(out: Path) -> str | None:
    """None when everything in ``out`` is what a set wrote: its files (``SET_FILES``, with
    set.json a manifest) and the manifest's scene folders holding only ``SCENE_FILES``;
    else the first entry that is not, in a few words. A file merely named set.json is no
    set: replacing the folder would delete what is beside it."""
    manifest_path = out / "set.json"
    if manifest_path.is_symlink() or not manifest_path.is_file():
        return "no set.json"
    try:
        manifest = SetManifest.model_validate_json(manifest_path.read_bytes())
    except (OSError, ValidationError):
        return "its set.json is no scene set's manifest"
    listed = set(manifest.scenes)
    families = {entry.split("/")[0] for entry in listed}
    for path in sorted(out.iterdir()):
        if path.is_symlink():
            return f"{path.name} is a symbolic link"
        if path.name in SET_FILES and path.is_file():
            continue
        if path.name not in families or not path.is_dir():
            return f"it holds {path.name}"
        for scene in sorted(path.iterdir()):
            entry = f"{path.name}/{scene.name}"
            if scene.is_symlink() or not scene.is_dir() or entry not in listed:
                return f"it holds {entry}"
            for file in sorted(scene.iterdir()):
                if file.is_symlink() or not file.is_file() or file.name not in SCENE_FILES:
                    return f"it holds {entry}/{file.name}"
    return None


def check_set_folder(out: str | Path, verb: str = "scenes generate") -> None:
    """``out`` may take a set from ``verb``: missing, empty, or a set (marked, or an older
    version's) holding nothing a set did not write, so that replacing it deletes only the
    set. Raises SetError; the CLI calls it before any work, ``write_set`` again."""
    out = Path(out)
    try:
        claim(out, verb, "scene set", accepts=SET_VERBS, legacy=foreign_entry)
    except OutFolderError as exc:
        raise SetError(str(exc)) from None
    if read_marker(out) is not None:
        why = foreign_entry(out)
        if why is not None:
            raise SetError(
                f"--out {out}: a scene set, but {why}, which no set wrote; refusing to replace "
                "it: move that out, or choose a new folder"
            )


def write_set(
    out: str | Path,
    manifest: SetManifest,
    scenes: list[Scene],
    extra: dict[str, str] | None = None,
    verb: str = "scenes generate",
) -> Path:
    """Write a set atomically: into a temporary sibling, then renamed over ``out``.

    A scene set at ``out`` is replaced, and only one holding nothing but what a set wrote
    (``check_set_folder``); any other non-empty folder is left alone and refused, so a typo
    never deletes someone's files. ``extra``: more files for the set's top folder, by name
    (authoring's record), written with it. ``verb`` goes into the set's marker.
    """
    out = Path(out)
    check_set_folder(out, verb)
    parent = out.parent if str(out.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=parent))
    except OSError as exc:
        raise SetError(f"{out}: cannot write here: {exc.strerror}") from None
    try:
        for scene in scenes:
            folder = staging / scene.spec.family.value / scene.spec.scene_id
            folder.mkdir(parents=True)
            (folder / "spec.json").write_text(scene.spec.to_json())
            (folder / "metadata.json").write_text(_dump(scene.metadata))
        for name, text in (extra or {}).items():
            (staging / name).write_text(text)
        (staging / "set.json").write_text(_dump(manifest))
        (staging / MARKER_FILE).write_text(marker_text(verb))
        os.chmod(staging, 0o755)
        if out.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=parent))
            os.replace(out, retired / "set")
            os.replace(staging, out)
            shutil.rmtree(retired, ignore_errors=True)
        else:
            os.replace(staging, out)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise SetError(f"{out}: cannot write the set: {exc}") from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out


class SetReadError(SetError):
    """Reading a set found problems; ``problems`` lists each with its file."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(f"{len(problems)} problem(s): " + "; ".join(problems[:5]))
        self.problems = problems


def load_spec(path: str | Path, root: str | Path | None = None) -> SceneSpec:
    """Read and validate one spec file; errors name the file and the field. ``root``: the
    folder it must not lead out of (a set's or a scene's, ``safe_files``); without one the
    file is one a person named, and a link to it is followed."""
    path = Path(path)
    try:
        data = (
            read_regular(path, DOCUMENT_LIMIT)
            if root is None
            else read_inside(path, Path(root), DOCUMENT_LIMIT)
        )
        return SceneSpec.from_json(data)  # not UTF-8: a ValidationError
    except OSError as exc:
        raise SetError(f"{path}: cannot read: {exc.strerror}") from None
    except UnsafeFile as exc:
        raise SetError(str(exc)) from None
    except ValidationError as exc:
        raise SetError(f"{path}: invalid spec: {first_problem(exc)}") from None


Document = TypeVar("Document", bound=BaseModel)


def read_document(path: Path, root: Path, model: type[Document], what: str) -> Document:
    """A JSON file of the set at ``root`` as ``model`` (``safe_files``: never a link out of
    the set); SetError naming the file and its first problem, ``what`` it should have been."""
    try:
        return model.model_validate_json(read_inside(path, root, DOCUMENT_LIMIT))
    except OSError as exc:
        raise SetError(f"{path}: cannot read: {exc.strerror}") from None
    except UnsafeFile as exc:
        raise SetError(str(exc)) from None
    except ValidationError as exc:
        raise SetError(f"{path}: invalid {what}: {first_problem(exc)}") from None


def read_manifest(path: str | Path) -> SetManifest:
    """A set's set.json; SetError naming the file and its first problem."""
    root = Path(path)
    if not (root / "set.json").is_file():
        raise SetError(f"{root}: not a scene set (no set.json)")
    return read_document(root / "set.json", root, SetManifest, "manifest")


def read_scene(path: str | Path, entry: str) -> Scene:
    """One scene of the set at ``path`` (``entry``: its ``<family>/<scene_id>`` in set.json):
    its spec and metadata, checked against each other, neither leading out of the set
    (``safe_files``); SetError naming the file and the problem."""
    root = Path(path)
    folder = root / entry
    spec = load_spec(folder / "spec.json", root)
    meta_path = folder / "metadata.json"
    metadata = read_document(meta_path, root, SceneMetadata, "metadata")
    # Simulated labels cannot be recomputed without simulating; intended ones can.
    pin = spec.generator.pin
    if (metadata.authored is None) != (pin is None) or (
        metadata.authored is not None
        and pin is not None
        and metadata.authored.severity != pin.severity
    ):
        raise SetError(
            f"{meta_path}: an authored scene's metadata and spec go together "
            "(provenance without a pinned spec, a pinned spec without provenance, or "
            "two severities)"
        )
    expected = metadata_for(spec, authored=metadata.authored)
    if metadata.label_source == "simulated":
        expected = expected.model_copy(
            update={
                k: getattr(metadata, k)
                for k in (
                    "label",
                    "safety",
                    "reaches_observer",
                    "label_source",
                    "moment",
                    "twin",
                    "views",
                )
            }
        )
    if metadata != expected:
        differing = [
            k for k in SceneMetadata.model_fields if getattr(metadata, k) != getattr(expected, k)
        ]
        raise SetError(f"{meta_path}: disagrees with its spec in {', '.join(differing)}")
    if entry != f"{spec.family.value}/{spec.scene_id}":
        raise SetError(f"{folder}: holds scene {spec.scene_id} of {spec.family.value}")
    return Scene(spec=spec, metadata=metadata)


def read_scenes(
    path: str | Path, limit: int | None = None
) -> tuple[SetManifest, list[Scene], list[str]]:
    """The first ``limit`` scenes that set.json lists (all without one), each read on its
    own: a scene that cannot be read is named in the problems (its file and why) and the
    others are kept. Scenes past ``limit`` are never read. What a run over a set uses
    (``observe``, ``bench``); ``read_set`` checks a whole set strictly."""
    root = Path(path)
    manifest = read_manifest(root)
    scenes: list[Scene] = []
    problems: list[str] = []
    for entry in manifest.scenes if limit is None else manifest.scenes[:limit]:
        try:
            scenes.append(read_scene(root, entry))
        except SetError as exc:
            problems.append(str(exc))
    return manifest, scenes, problems


def read_set(path: str | Path) -> tuple[SetManifest, list[Scene]]:
    """Read a set and check every spec, every metadata file and their agreement.

    Metadata must match what the label rule gives for the spec (a hand-edited label is an
    error, not a silent change of ground truth).
    """
    root = Path(path)
    manifest, scenes, problems = read_scenes(root)
    listed = set(manifest.scenes)
    for spec_file in sorted(root.glob("*/*/spec.json")):
        entry = f"{spec_file.parent.parent.name}/{spec_file.parent.name}"
        if entry not in listed:
            problems.append(f"{spec_file}: not listed in set.json")
    if problems:
        raise SetReadError(problems)
    return manifest, scenes


def summarise(scenes: list[Scene]) -> dict[str, Counter]:
    """Counts per family, label, speed band and adversarial flag."""
    return {
        "family": Counter(s.spec.family.value for s in scenes),
        "label": Counter(s.metadata.label.value for s in scenes),
        "speed_band": Counter(s.spec.speed_band.value for s in scenes),
        "adversarial": Counter("adversarial" if s.spec.adversarial else "genuine" for s in scenes),
    }


def format_summary(scenes: list[Scene]) -> str:
    """A plain-text summary a person reads in a terminal."""
    total = len(scenes)
    if total == 0:
        return "0 scenes"
    counts = summarise(scenes)
    lines = [f"{total} scenes, {len(counts['family'])} families"]
    by_family_label: dict[str, Counter] = {}
    for s in scenes:
        by_family_label.setdefault(s.spec.family.value, Counter())[s.metadata.label.value] += 1
    labels = [a.value for a in Action]
    header = f"  {'family':<18}{'scenes':>7}" + "".join(f"{a:>15}" for a in labels)
    lines += ["", header]
    for family in Family:
        if family.value in counts["family"]:
            row = by_family_label[family.value]
            lines.append(
                f"  {family.value:<18}{counts['family'][family.value]:>7}"
                + "".join(f"{row.get(a, 0):>15}" for a in labels)
            )

    def share(counter: Counter, keys: list[str]) -> str:
        return ", ".join(
            f"{k} {counter.get(k, 0)} ({100.0 * counter.get(k, 0) / total:.1f} %)" for k in keys
        )

    lines += [
        "",
        "labels:      " + share(counts["label"], labels),
        "speed bands: " + share(counts["speed_band"], [b.value for b in SpeedBand]),
        "objects:     " + share(counts["adversarial"], ["genuine", "adversarial"]),
    ]
    return "\n".join(lines)
