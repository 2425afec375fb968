"""Balanced scene sets: which seeds a set takes, and what it skips.

A set is written and read by ``scenes.set_files``; its metadata and manifest are
``scenes.set_models``; ``scenes.set_summary`` counts it.

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

from collections import Counter
from collections.abc import Callable, Iterable, Iterator

from reacthuman.scenes.catalogue import Catalogue, default_catalogue
from reacthuman.scenes.generate import DEFAULT_ADVERSARIAL_RATE, GENERATOR_VERSION, generate_scene
from reacthuman.scenes.samplers import GenerationError, sampler_for
from reacthuman.scenes.set_models import (
    Scene,
    SetError,
    SetManifest,
    SkippedScene,
    metadata_for,
)
from reacthuman.scenes.spec import SWEPT_BANDS, Family, SceneSpec
from reacthuman.scenes.truth import GroundTruth
from reacthuman.scenes.twin import TwinTest, twin_spec

DEFAULT_PER_FAMILY = 18
MAX_SKIPS_PER_FAMILY = 120  # seeds; a group of four counts four


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


def single_scene_set(
    family: Family | str, seed: int, adversarial_rate: float = DEFAULT_ADVERSARIAL_RATE
) -> tuple[SetManifest, list[Scene]]:
    """A set of one designed scene (``scenes generate --family F --seed S``)."""
    spec = generate_scene(family, seed, adversarial_rate)
    manifest = SetManifest(
        generator_version=GENERATOR_VERSION,
        catalogue_version=default_catalogue().version,
        per_family=1,
        adversarial_rate=adversarial_rate,
        families=[spec.family],
        scenes=[f"{spec.family.value}/{spec.scene_id}"],
        skipped=[],
    )
    return manifest, [Scene(spec=spec, metadata=metadata_for(spec))]


def candidate_specs(
    per_family: int,
    families: Iterable[Family],
    adversarial_rate: float = DEFAULT_ADVERSARIAL_RATE,
    first_seed: int = 0,
) -> list[SceneSpec]:
    """What a simulated set will most likely simulate, to run in parallel up front: the
    schedule's first candidates, one group (or four seeds) more per family than the set
    takes, so that a rejected group's replacement is usually simulated already, and the
    look-alikes' twin tests."""
    _manifest, candidates = generate_set(
        per_family + 4, families, adversarial_rate, first_seed=first_seed
    )
    specs = [c.spec for c in candidates]
    return specs + [twin_spec(s) for s in specs if s.adversarial]
