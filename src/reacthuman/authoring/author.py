"""From selections to scenes: the seeded randomizer stages what a planner selected.

Each selection becomes one scene: its family's sampler with the selection's object and room
pinned (``generate.Pin``) and a seed that owns every physical number, checked like any
generated scene (the decision moment, the twin test's premise that a look-alike only where
the window shows mass), with the description, the units, the causal chain and the severity
in its metadata. Authored seeds start at ``AUTHORED_FIRST_SEED``, far above any generated
set's, and each selection of a batch has its own block of them, so a batch's scene ids never
collide; a seed whose design fails moves to the next group of the block, as generation does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reacthuman.authoring.offline import ROOM_WORDS, causal_chain, normalise
from reacthuman.authoring.retrieval import RiskIndex
from reacthuman.authoring.selection import Selection, SelectionError
from reacthuman.scenes.catalogue import Catalogue, default_catalogue
from reacthuman.scenes.generate import GENERATOR_VERSION, generate_scene
from reacthuman.scenes.samplers import GenerationError, pinnable_objects, sampler_for
from reacthuman.scenes.set_models import Authored, Scene, SetManifest, metadata_for
from reacthuman.scenes.sets import SceneCheck
from reacthuman.scenes.spec import SWEPT_BANDS, Family, Pin, RoomType, SceneSpec

AUTHORED_FIRST_SEED = 500_000
GROUPS_PER_SELECTION = 8  # scene groups a selection may try before it is rejected
MAX_COUNT = 1000  # scenes one scenario run authors at most
EMBODIMENTS = ("g1", "humanoid", "unitree")  # what a scenario may name as the robot
OTHER_ROBOTS = r"\b(quadruped|dog|arm|manipulator|wheeled|drone|rover)\b"


@dataclass(frozen=True)
class Authoring:
    """One selection and where it came from."""

    description: str
    planner: str
    selection: Selection


@dataclass(frozen=True)
class Rejected:
    description: str
    reason: str


def _seeds(selection: Selection, slot: int, first_seed: int) -> list[int]:
    """A selection's block of candidate seeds, in the order they are tried."""
    if sampler_for(selection.family).gravity_paced:
        start = first_seed + slot * GROUPS_PER_SELECTION
        return list(range(start, start + GROUPS_PER_SELECTION))
    band = selection.speed if selection.speed is not None else SWEPT_BANDS[slot % 4]
    groups = range(slot * GROUPS_PER_SELECTION, (slot + 1) * GROUPS_PER_SELECTION)
    return [first_seed + 4 * group + SWEPT_BANDS.index(band) for group in groups]


def first_candidate(
    authoring: Authoring, slot: int, first_seed: int = AUTHORED_FIRST_SEED
) -> SceneSpec | None:
    """The first spec ``author_scene`` would try (None when its design fails): what to
    simulate ahead, in parallel."""
    selection = authoring.selection
    pin = Pin(object=selection.object, room=selection.room, severity=selection.severity.value)
    for seed in _seeds(selection, slot, first_seed):
        try:
            return generate_scene(selection.family, seed, pin=pin)
        except GenerationError:
            continue
    return None


def author_scene(
    authoring: Authoring,
    slot: int,
    first_seed: int = AUTHORED_FIRST_SEED,
    check: SceneCheck | None = None,
) -> Scene:
    """The scene for the ``slot``-th selection of a batch (its block of seeds). ``check``:
    simulate each candidate and judge it as ``scenes generate --simulate`` does (a candidate
    it rejects moves to the next group; the scene is labelled from its measured truth)."""
    selection = authoring.selection
    pin = Pin(object=selection.object, room=selection.room, severity=selection.severity.value)
    reasons: list[str] = []
    for seed in _seeds(selection, slot, first_seed):
        try:
            spec = generate_scene(selection.family, seed, pin=pin)
        except GenerationError as exc:
            reasons.append(str(exc))
            continue
        truth = twin = None
        if check is not None:
            problems, truth, twin = check(spec)
            if problems:
                reasons.append(f"{spec.scene_id}: " + "; ".join(problems))
                continue
        provenance = Authored(
            description=authoring.description,
            planner=authoring.planner,
            units=list(selection.units),
            causal_chain=selection.causal_chain,
            severity=selection.severity.value,
        )
        return Scene(spec=spec, metadata=metadata_for(spec, truth, twin, provenance))
    raise SelectionError(
        f"no valid scene in {GROUPS_PER_SELECTION} seeds for {selection.family.value} with "
        f"{selection.object} in a {selection.room.value}: {reasons[-1]}"
    )


def author_all(
    items: list[Authoring | Rejected],
    first_seed: int = AUTHORED_FIRST_SEED,
    check: SceneCheck | None = None,
) -> tuple[list[Scene], list[dict[str, str]]]:
    """The scenes of a batch (the i-th item takes the i-th block of seeds, rejected or not,
    so an item's scene does not depend on whether the ones before it could be staged) and
    the record of what became of each item: its scene id, or why it was rejected."""
    scenes: list[Scene] = []
    record: list[dict[str, str]] = []
    for slot, item in enumerate(items):
        if isinstance(item, Rejected):
            record.append({"description": item.description, "rejected": item.reason})
            continue
        try:
            scene = author_scene(item, slot, first_seed, check)
        except SelectionError as exc:
            record.append({"description": item.description, "rejected": str(exc)})
            continue
        scenes.append(scene)
        record.append({"description": item.description, "scene": scene.spec.scene_id})
    return scenes, record


def manifest_for(scenes: list[Scene], catalogue: Catalogue | None = None) -> SetManifest:
    catalogue = catalogue if catalogue is not None else default_catalogue()
    families = sorted({s.spec.family for s in scenes}, key=list(Family).index)
    return SetManifest(
        generator_version=GENERATOR_VERSION,
        catalogue_version=catalogue.version,
        per_family=1,
        adversarial_rate=scenes[0].spec.generator.adversarial_rate if scenes else 0.0,
        families=families,
        scenes=[f"{s.spec.family.value}/{s.spec.scene_id}" for s in scenes],
        skipped=[],
    )


def merged(
    base: tuple[SetManifest, list[Scene]], scenes: list[Scene]
) -> tuple[SetManifest, list[Scene]]:
    """A set holding ``base``'s scenes (generated, authored or both) and then ``scenes``;
    an error naming the scene when an id is in both."""
    manifest, existing = base
    held = {s.spec.scene_id for s in existing}
    clash = [s.spec.scene_id for s in scenes if s.spec.scene_id in held]
    if clash:
        raise SelectionError(
            f"the set already holds {', '.join(clash)}; author with another --first-seed"
        )
    combined = existing + scenes
    families = sorted({s.spec.family for s in combined}, key=list(Family).index)
    update = {
        "families": families,
        "scenes": manifest.scenes + [f"{s.spec.family.value}/{s.spec.scene_id}" for s in scenes],
    }
    return manifest.model_copy(update=update), combined


def parse_scenario(scenario: str) -> RoomType | None:
    """A scenario's room ("kitchen, G1 humanoid"); an error for a robot ReactHuman lacks."""
    plain = normalise(scenario)
    if not plain:
        raise SelectionError("the scenario is empty: name a room, e.g. 'kitchen, G1 humanoid'")
    other = re.search(OTHER_ROBOTS, plain)
    if other is not None and not any(word in plain for word in EMBODIMENTS):
        raise SelectionError(
            f"the scenario names a {other.group(1)} robot; ReactHuman simulates a Unitree G1 "
            "humanoid only"
        )
    rooms = [room for room, words in ROOM_WORDS.items() if re.search(words, plain)]
    return rooms[0] if rooms else None


def scenario_authorings(
    scenario: str, count: int, index: RiskIndex, catalogue: Catalogue | None = None
) -> list[Authoring]:
    """``count`` selections for a scenario, offline: the bank's units closest to it that
    happen in its room, in turn, each with the next family and object it names that can be
    staged there. Deterministic: the same scenario and count give the same selections."""
    if not 1 <= count <= MAX_COUNT:
        raise SelectionError(f"count must be between 1 and {MAX_COUNT}, not {count}")
    catalogue = catalogue if catalogue is not None else default_catalogue()
    room = parse_scenario(scenario)
    options: list[tuple[str, list[tuple[Family, str]]]] = []
    for hit in index.search(scenario, len(index.bank.units)):
        unit = hit.unit
        if room is not None and room not in unit.rooms:
            continue
        pairs = [
            (family, obj)
            for family in unit.families
            for obj in unit.objects
            if obj in pinnable_objects(family, catalogue)
        ]
        if pairs:
            options.append((unit.id, pairs))
    if not options:
        where = f"a {room.value}" if room is not None else "this scenario"
        raise SelectionError(
            f"no risk-memory unit documents a hazard ReactHuman can stage in {where}"
        )
    out = []
    for i in range(count):
        unit_id, pairs = options[i % len(options)]
        family, obj = pairs[(i // len(options)) % len(pairs)]
        unit = index.bank.get(unit_id)
        where = room if room is not None else unit.rooms[0]
        description = f"{unit.title} ({where.value.replace('_', ' ')})"
        selection = Selection(
            family=family,
            object=obj,
            room=where,
            units=[unit.id],
            causal_chain=causal_chain(unit, catalogue.get(obj), where, unit.conditions),
            severity=unit.severity,
        )
        out.append(Authoring(description, "offline", selection))
    return out
