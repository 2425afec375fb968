"""The ``reacthuman`` command.

Every subcommand is a thin layer over the library: parse arguments, call one function, print
what a person needs, and turn expected failures into a one-line error and a non-zero exit.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from reacthuman import __version__


class CliError(Exception):
    """An expected failure: printed as one line, exit status 1."""


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def _positive_int(text: str) -> int:
    value = _non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be >= 1, got 0")
    return value


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in [0, 1], got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be in [0, 1], got {value}")
    return value


def _family(text: str) -> str:
    from reacthuman.scenes.spec import Family

    try:
        return Family(text).value
    except ValueError:
        known = ", ".join(f.value for f in Family)
        raise argparse.ArgumentTypeError(f"unknown family {text!r} (known: {known})") from None


# --- scenes ------------------------------------------------------------------------------


def cmd_scenes_generate(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from reacthuman.scenes.catalogue import default_catalogue
    from reacthuman.scenes.generate import GenerationError, generate_scene
    from reacthuman.scenes.sets import (
        GENERATOR_VERSION,
        Scene,
        SetError,
        SetManifest,
        format_summary,
        generate_set,
        metadata_for,
        write_set,
    )
    from reacthuman.scenes.spec import Family

    if args.seed is not None and args.family is None:
        raise CliError("--seed needs --family (a seed names a scene within one family)")
    try:
        if args.seed is not None:
            spec = generate_scene(args.family, args.seed, args.adversarial_rate)
            scenes = [Scene(spec=spec, metadata=metadata_for(spec))]
            manifest = SetManifest(
                generator_version=GENERATOR_VERSION,
                catalogue_version=default_catalogue().version,
                per_family=1,
                adversarial_rate=args.adversarial_rate,
                families=[spec.family],
                scenes=[f"{spec.family.value}/{spec.scene_id}"],
                skipped=[],
            )
        else:
            families = [Family(args.family)] if args.family else list(Family)
            check = group_check = None
            if args.simulate:
                from reacthuman.sim.validate import group_rejection_reasons

                group_check = group_rejection_reasons
                observer = _observer(args.cache)
                # Simulate the schedule's first candidates in parallel up front; the check
                # then reads them from the cache and only replacements run one by one.
                # One group (or four seeds) more per family than the set takes: a rejected
                # group's replacement is then usually simulated already.
                _manifest, candidates = generate_set(
                    args.per_family + 4, families, args.adversarial_rate
                )
                from reacthuman.scenes.twin import twin_spec

                specs = [c.spec for c in candidates]
                specs += [twin_spec(s) for s in specs if s.adversarial]  # their twin tests
                _prefill(observer, specs, args.jobs, args.quiet)
                check = _simulation_check(observer)
            with tqdm(
                total=len(families),
                desc="generating",
                unit="family",
                disable=args.quiet,
                file=sys.stderr,
            ) as bar:
                manifest, scenes = generate_set(
                    args.per_family,
                    families,
                    args.adversarial_rate,
                    progress=lambda _family: bar.update(1),
                    check=check,
                    group_check=group_check,
                )
        write_set(args.out, manifest, scenes)
    except (GenerationError, SetError) as exc:
        raise CliError(str(exc)) from None
    print(format_summary(scenes))
    for skip in manifest.skipped:
        print(f"skipped {skip.family.value} seeds {skip.seeds}: {skip.reason}")
    print(f"\nwrote {len(scenes)} scenes to {args.out}")
    return 0


def _observer(cache: str | None):
    from reacthuman.sim.cache import ObservationCache
    from reacthuman.sim.observe import Observer
    from reacthuman.sim.settings import RenderSettings

    return Observer(RenderSettings(), ObservationCache(cache) if cache else None)


def _prefill(observer, specs, jobs: int, quiet: bool) -> None:
    from tqdm import tqdm

    from reacthuman.sim.observe import observe_all

    with tqdm(
        total=len(specs), desc="simulating", unit="scene", disable=quiet, file=sys.stderr
    ) as bar:
        observe_all(specs, observer, None, lambda _r: bar.update(1), jobs=jobs)


def _simulation_check(observer):
    """Simulate a candidate scene (through the observation cache) and validate it."""
    from reacthuman.sim.validate import SceneCheck

    return SceneCheck(observer)


def _spec_path(target: Path) -> Path:
    return target / "spec.json" if target.is_dir() else target


def cmd_scenes_validate(args: argparse.Namespace) -> int:
    from reacthuman.scenes.sets import SetError, SetReadError, format_summary, load_spec, read_set

    target = Path(args.path)
    if not target.exists():
        raise CliError(f"{target}: no such file or folder")
    if target.is_dir() and (target / "set.json").is_file():
        try:
            _manifest, scenes = read_set(target)
        except SetReadError as exc:
            for problem in exc.problems:
                print(f"invalid: {problem}", file=sys.stderr)
            raise CliError(f"{target}: {len(exc.problems)} invalid file(s)") from None
        except SetError as exc:
            raise CliError(str(exc)) from None
        print(format_summary(scenes))
        print(f"\n{target}: all {len(scenes)} scenes valid")
        return 0
    try:
        spec = load_spec(_spec_path(target))
    except SetError as exc:
        raise CliError(str(exc)) from None
    print(f"{_spec_path(target)}: valid spec {spec.scene_id}")
    return 0


def cmd_scenes_validity(args: argparse.Namespace) -> int:
    from reacthuman.scenes.sets import SetError, SetReadError, read_set
    from reacthuman.scenes.validity import format_validity, validity

    try:
        _manifest, scenes = read_set(Path(args.path))
    except SetReadError as exc:
        for problem in exc.problems:
            print(f"invalid: {problem}", file=sys.stderr)
        raise CliError(f"{args.path}: {len(exc.problems)} invalid file(s)") from None
    except SetError as exc:
        raise CliError(str(exc)) from None
    report = validity(scenes)
    print(format_validity(report))
    if args.json:
        try:
            Path(args.json).write_text(report.model_dump_json(indent=2) + "\n")
        except OSError as exc:
            raise CliError(f"{args.json}: cannot write: {exc.strerror}") from None
    return 0


def cmd_scenes_sheet(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from reacthuman.sim.sheet import SheetRow, write_sheet

    if args.per_family < 1:
        raise CliError(f"--per-family must be at least 1, got {args.per_family}")
    target = Path(args.path)
    if not target.exists():
        raise CliError(f"{target}: no such file or folder")
    specs = _load_specs(target)
    chosen, per_family = [], {}
    for spec in specs:
        per_family[spec.family] = per_family.get(spec.family, 0) + 1
        if per_family[spec.family] <= args.per_family:
            chosen.append(spec)
    observer = _observer(args.cache)
    rows = []
    for spec in tqdm(chosen, desc="simulating", unit="scene", disable=args.quiet, file=sys.stderr):
        result = observer.observe(spec)
        if result.status == "failed" or result.folder is None or result.truth is None:
            print(f"{spec.scene_id}: {'; '.join(result.reasons)}", file=sys.stderr)
            continue
        rows.append(SheetRow(spec, result.folder, result.truth))
    if not rows:
        raise CliError("no scene could be simulated")
    try:
        write_sheet(rows, Path(args.out))
    except OSError as exc:
        raise CliError(str(exc)) from None
    print(f"wrote {len(rows)} scenes to {args.out}")
    return 0


def cmd_scenes_show(args: argparse.Namespace) -> int:
    from reacthuman.scenes.sets import SetError, load_spec
    from reacthuman.scenes.show import describe

    try:
        spec = load_spec(_spec_path(Path(args.spec)))
    except SetError as exc:
        raise CliError(str(exc)) from None
    print(describe(spec))
    return 0


# --- observe -------------------------------------------------------------------------------


def _load_specs(target: Path) -> list:
    from reacthuman.scenes.sets import SetError, load_spec, read_set

    try:
        if target.is_dir() and (target / "set.json").is_file():
            return [scene.spec for scene in read_set(target)[1]]
        return [load_spec(_spec_path(target))]
    except SetError as exc:
        raise CliError(str(exc)) from None


def cmd_observe(args: argparse.Namespace) -> int:
    from pydantic import ValidationError
    from tqdm import tqdm

    from reacthuman.sim.cache import ObservationCache
    from reacthuman.sim.observe import Observer, observe_all
    from reacthuman.sim.settings import RenderSettings, parse_resolution

    target = Path(args.path)
    if not target.exists():
        raise CliError(f"{target}: no such file or folder")
    try:
        width, height = parse_resolution(args.resolution)
        settings = RenderSettings(
            width=width, height=height, frames=args.frames, window=args.window
        )
    except ValidationError as exc:
        raise CliError(f"invalid settings: {exc.errors()[0]['msg']}") from None
    except ValueError as exc:
        raise CliError(str(exc)) from None
    specs = _load_specs(target)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"{out}: cannot write here: {exc.strerror}") from None
    observer = Observer(settings, ObservationCache(args.cache) if args.cache else None)
    counts = {"ok": 0, "rejected": 0, "failed": 0, "cached": 0}
    with tqdm(
        total=len(specs), desc="observing", unit="scene", disable=args.quiet, file=sys.stderr
    ) as bar:

        def tick(result) -> None:
            counts[result.status] += 1
            counts["cached"] += result.cached
            bar.set_postfix(counts, refresh=False)
            bar.update(1)
            if result.status != "ok":
                bar.write(f"{result.status} {result.scene_id}: {'; '.join(result.reasons)}")

        results = observe_all(specs, observer, out, tick, jobs=args.jobs, legend=args.legend)
    summary = {
        "settings": settings.model_dump(),
        "legend": args.legend,
        "scenes": [
            {
                "scene_id": r.scene_id,
                "status": r.status,
                "reasons": list(r.reasons),
                "cached": r.cached,
                "seconds": round(r.seconds, 3),
            }
            for r in results
        ],
    }
    (out / "observe_summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(
        f"{counts['ok']} observed, {counts['rejected']} rejected, {counts['failed']} failed "
        f"({counts['cached']} from the cache) -> {out}"
    )
    return 1 if counts["failed"] else 0


def cmd_decide(args: argparse.Namespace) -> int:
    import asyncio

    from tqdm import tqdm

    from reacthuman.brain.run import ModelBrain, baseline, decide_all, write_outcome
    from reacthuman.brain.store import ResponseStore
    from reacthuman.layout import LayoutError, find_scenes

    root = Path(args.obs_dir)
    try:
        folders = find_scenes(root) if root.is_dir() else []
    except LayoutError as exc:
        raise CliError(str(exc)) from None
    if not folders:
        raise CliError(
            f"{root}: no observation/observation.json found (run `reacthuman observe` first)"
        )
    if args.model:
        from reacthuman.brain.client import ModelClient, api_key_from_env

        key = api_key_from_env(args.api_key_env)
        if key is None:
            where = args.api_key_env or "REACTHUMAN_API_KEY, OPENROUTER_API_KEY or OPENAI_API_KEY"
            print(f"note: no API key in {where} (fine for local endpoints)", file=sys.stderr)
        brain = ModelBrain(
            ModelClient(
                args.model,
                args.base_url,
                key,
                max_tokens=args.max_tokens,
                timeout=args.timeout,
                rate_limit=args.rate_limit,
            )
        )
    else:
        try:
            brain = baseline(args.brain)
        except ValueError as exc:
            raise CliError(str(exc)) from None
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        store = ResponseStore(args.store or _default_store())
    except OSError as exc:
        raise CliError(f"cannot write: {exc}") from None
    counts = {"done": 0, "R1": 0, "cached": 0}
    lines = []
    failed: list[str] = []  # not stored: the next run asks them again
    with tqdm(
        total=len(folders),
        desc=f"deciding ({brain.name})",
        unit="scene",
        disable=args.quiet,
        file=sys.stderr,
    ) as bar:

        def tick(outcome) -> None:
            counts["done"] += 1
            counts["R1"] += outcome.decision.plan is None
            counts["cached"] += outcome.cached
            if outcome.decision.api_failure:
                failed.append(f"{outcome.decision.scene_id}: {outcome.decision.r1_reason}")
            write_outcome(outcome, out, root)
            lines.append(
                json.dumps(
                    {
                        "scene_id": outcome.decision.scene_id,
                        "brain": outcome.decision.brain,
                        "r1_reason": outcome.decision.r1_reason,
                        "cached": outcome.cached,
                        "requests": 0 if outcome.cached else outcome.decision.requests,
                    }
                )
            )
            bar.set_postfix(counts, refresh=False)
            bar.update(1)

        try:
            asyncio.run(decide_all(folders, brain, store, args.concurrency, tick))
        finally:
            (out / "decisions.jsonl").write_text("".join(line + "\n" for line in lines))
            store.close()
    print(
        f"{counts['done']} decisions by {brain.name} ({counts['cached']} from the store, "
        f"{counts['R1']} R1) -> {out}"
    )
    if failed:
        print(
            f"{len(failed)} scenes could not be decided (recorded as R1, not stored: a rerun "
            "asks them again):\n  " + "\n  ".join(sorted(failed)),
            file=sys.stderr,
        )
    return 0


def _default_store() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "reacthuman" / "responses.sqlite"


def cmd_score(args: argparse.Namespace) -> int:
    from reacthuman.brain.classify import ClassifierConfig
    from reacthuman.scoring.results import ResultsStore
    from reacthuman.scoring.run import score_folders

    config = ClassifierConfig.load(args.classifier) if args.classifier else ClassifierConfig()
    rows, problems = score_folders(
        Path(args.observations), [Path(d) for d in args.decisions], config
    )
    for problem in problems:
        print(f"could not read: {problem}", file=sys.stderr)
    out = Path(args.out)
    store = ResultsStore(out / "results.sqlite")
    for row in rows:
        store.put(row)
    csv_path, jsonl_path = store.export(out)
    total = len(store.rows())
    store.close()
    print(
        f"scored {len(rows)} decisions ({len(problems)} unreadable); the run holds {total} "
        f"-> {csv_path}, {jsonl_path}"
    )
    return 1 if not rows else 0


def cmd_report(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from reacthuman.scenes.validity import VALIDITY_FILE, Validity
    from reacthuman.scoring.report import write_report
    from reacthuman.scoring.results import ResultsStore

    rows = []
    runs = [Path(args.run_dir), *(Path(p) for p in args.compare or [])]
    for run in runs:
        if not (run / "results.sqlite").is_file():
            raise CliError(f"{run}: no results.sqlite (score the run first: reacthuman score)")
        store = ResultsStore(run / "results.sqlite")
        found = store.rows()
        store.close()
        if args.compare:  # name brains by run so that the same model in two runs stays apart
            found = [r.model_copy(update={"brain": f"{run.name}:{r.brain}"}) for r in found]
        rows += found
    out = Path(args.out) if args.out else runs[0]
    checks = runs[0] / VALIDITY_FILE
    try:
        scene_checks = (
            Validity.model_validate_json(checks.read_bytes()) if checks.is_file() else None
        )
    except (OSError, ValidationError) as exc:
        raise CliError(f"{checks}: not a validity report ({exc})") from None
    md, page = write_report(
        rows,
        out,
        args.title or f"ReactHuman report: {runs[0].name}",
        validity=scene_checks if not args.compare else None,
    )
    if not rows:
        print(f"the run has no decisions to score; wrote {md}")
        return 1
    print(f"wrote {md} and {page}")
    return 0


def cmd_bench_sim(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from reacthuman.scenes.sets import generate_set
    from reacthuman.sim.bench import bench, format_report
    from reacthuman.sim.settings import RenderSettings, parse_resolution

    width, height = parse_resolution(args.resolution)
    _manifest, scenes = generate_set(args.per_family)
    specs = [s.spec for s in scenes]
    if args.limit:
        specs = specs[: args.limit]
    with tqdm(
        total=len(specs), desc="bench-sim", unit="scene", disable=args.quiet, file=sys.stderr
    ) as bar:
        report = bench(
            specs, RenderSettings(width=width, height=height), lambda _i, _row: bar.update(1)
        )
    print(format_report(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


def cmd_calibrate_gaits(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from reacthuman.sim.gait_calibration import COMMANDS, DURATIONS, measure

    total = 2 * len(COMMANDS) * len(DURATIONS)
    try:
        with tqdm(total=total, desc="gaits", unit="walk", file=sys.stderr) as bar:
            table = measure(args.controller, args.policy_path, on_gait=lambda _g: bar.update(1))
    except (ValueError, RuntimeError) as exc:
        raise CliError(f"--controller {args.controller}: {exc}") from None
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(table.model_dump_json() + "\n")
    fell = sum(g.fell for g in table.gaits)
    print(f"wrote {out}: {len(table.gaits)} walks of {table.controller}, {fell} fell")
    return 0


# --- catalogue -----------------------------------------------------------------------------


def cmd_catalogue(args: argparse.Namespace) -> int:
    from reacthuman.scenes.catalogue import CatalogueError, default_catalogue, load_catalogue

    try:
        catalogue = load_catalogue(args.file) if args.file else default_catalogue()
    except CatalogueError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps([o.model_dump(mode="json") for o in catalogue.objects], indent=2))
        return 0
    if args.markdown:
        print(_catalogue_markdown(catalogue))
        return 0
    print(
        f"{len(catalogue)} objects, {len(catalogue.adversarial)} adversarial "
        f"(catalogue {catalogue.version})\n"
    )
    print(f"  {'name':<28}{'mass kg':>8}  {'hazards':<32}{'looks like'}")
    for obj in catalogue.objects:
        hazards = obj.hazards.active() + ([] if obj.graspable else ["not_graspable"])
        looks = obj.looks_like + (f"  [imitates {obj.imitates}]" if obj.imitates else "")
        print(f"  {obj.name:<28}{obj.mass_kg:>8.3g}  {', '.join(hazards) or '-':<32}{looks}")
    return 0


def _catalogue_markdown(catalogue) -> str:
    """The per-object label table the README publishes: what each object looks like, what it
    is, the label rule's verdict, and the families that use it."""
    from reacthuman.scenes.families import REGISTRY
    from reacthuman.scenes.labels import rule_in_words

    users: dict[str, list[str]] = {}
    for family, sampler in REGISTRY.items():
        for name in sampler.pool:
            for obj in [catalogue.get(name), *catalogue.variants_of(name)]:
                users.setdefault(obj.name, []).append(family.value)
    lines = [
        "| object | looks like | material | mass (kg) | label | families |",
        "|---|---|---|---|---|---|",
    ]
    for obj in catalogue.objects:
        name = f"{obj.name} (imitates {obj.imitates})" if obj.imitates else obj.name
        lines.append(
            f"| {name} | {obj.looks_like} | {obj.material} | {obj.mass_kg:g} | "
            f"{rule_in_words(obj)} | {', '.join(users.get(obj.name, [])) or '-'} |"
        )
    return "\n".join(lines)


# --- parser --------------------------------------------------------------------------------


def _add_simulation_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cache",
        metavar="DIR",
        help="observation cache (default $REACTHUMAN_CACHE or ~/.cache/reacthuman/observations)",
    )
    parser.add_argument(
        "--jobs",
        type=_positive_int,
        default=min(2, os.cpu_count() or 1),
        metavar="J",
        help="worker processes that simulate (default: up to 2, one per core)",
    )


def build_parser() -> argparse.ArgumentParser:
    from reacthuman.scenes.generate import DEFAULT_ADVERSARIAL_RATE
    from reacthuman.scenes.sets import DEFAULT_PER_FAMILY

    parser = argparse.ArgumentParser(
        prog="reacthuman",
        description="ReactHuman: do multimodal LLMs react to sudden household hazards like a "
        "competent person? Generate scenes, simulate, decide, score.",
    )
    parser.add_argument("--version", action="version", version=f"reacthuman {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    scenes = commands.add_parser(
        "scenes",
        help="generate, validate and inspect scene sets",
        description="Generate, validate and inspect scene sets.",
    )
    scene_commands = scenes.add_subparsers(dest="scenes_command", required=True, metavar="ACTION")

    gen = scene_commands.add_parser(
        "generate",
        help="generate a balanced scene set",
        description="Generate a balanced scene set (default: 18 scenes per family, 306 in all) "
        "as <family>/<scene_id>/{spec,metadata}.json plus set.json. Same arguments, same bytes.",
    )
    gen.add_argument("--out", required=True, help="output folder (replaced if it holds a set)")
    gen.add_argument(
        "--per-family",
        type=_positive_int,
        default=DEFAULT_PER_FAMILY,
        metavar="N",
        help=f"scenes per family (default {DEFAULT_PER_FAMILY})",
    )
    gen.add_argument(
        "--family",
        type=_family,
        metavar="F",
        help="only this family (see `reacthuman scenes families`)",
    )
    gen.add_argument(
        "--seed",
        type=_non_negative_int,
        metavar="S",
        help="only the scene with this seed (needs --family)",
    )
    gen.add_argument(
        "--adversarial-rate",
        type=_rate,
        default=DEFAULT_ADVERSARIAL_RATE,
        metavar="R",
        help="share of scene groups given an adversarial look-alike, in the families whose "
        f"window can show an object's mass (default {DEFAULT_ADVERSARIAL_RATE})",
    )
    gen.add_argument(
        "--simulate",
        action="store_true",
        help="simulate every scene, skip groups whose simulation contradicts their "
        "spec, and label from measured ground truth (minutes; fills the "
        "observation cache that `reacthuman observe` then reads)",
    )
    _add_simulation_options(gen)
    gen.add_argument("--quiet", action="store_true", help="no progress bar")
    gen.set_defaults(func=cmd_scenes_generate)

    val = scene_commands.add_parser(
        "validate",
        help="check a scene set or a spec file",
        description="Check every spec and metadata file of a set (or one spec file) and that "
        "labels follow the label rule. Exit status 1 lists every invalid file.",
    )
    val.add_argument("path", help="a set folder, a scene folder or a spec.json")
    val.set_defaults(func=cmd_scenes_validate)

    vali = scene_commands.add_parser(
        "validity",
        help="is each scene the paper's decision problem? margins, speed bands, labels, twins",
        description="Print the validity report of a scene set: per family and speed band "
        "the window and the reaction margin from the freeze to arrival or landing (min / "
        "median / max), the arrival speed per band and how it rises, the label split against "
        "the paper's, and each adversarial scene's twin test. Figures are measured for a set "
        "generated with --simulate, designed otherwise.",
    )
    vali.add_argument("path", help="a scene set folder")
    vali.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    vali.set_defaults(func=cmd_scenes_validity)

    sheet = scene_commands.add_parser(
        "sheet",
        help="a contact sheet: what the brain sees of one scene per family, in one PNG",
        description="Simulate (through the observation cache) the first scene of each family "
        "in a set, or the scenes given, and write one PNG with a row per scene: the close-up "
        "view when the window opens and the three views at the freeze, captioned with the "
        "object, its label, window and reaction margin.",
    )
    sheet.add_argument("path", help="a scene set folder, or a spec file or scene folder")
    sheet.add_argument("--out", required=True, help="the PNG to write")
    sheet.add_argument(
        "--per-family", type=int, default=1, metavar="N", help="scenes per family (default 1)"
    )
    sheet.add_argument("--cache", metavar="DIR", help="observation cache")
    sheet.add_argument("--quiet", action="store_true", help="no progress bar")
    sheet.set_defaults(func=cmd_scenes_sheet)

    show = scene_commands.add_parser(
        "show",
        help="print a readable summary of one scene",
        description="Print a readable summary of one scene spec.",
    )
    show.add_argument("spec", help="a spec.json or its scene folder")
    show.set_defaults(func=cmd_scenes_show)

    fams = scene_commands.add_parser(
        "families", help="list the 17 event families", description="List the 17 event families."
    )
    fams.set_defaults(func=cmd_scenes_families)

    obs = commands.add_parser(
        "observe",
        help="simulate scenes to their frozen observation window",
        description="Simulate each scene in Genesis to the freeze and write, per scene, "
        "under OUT/<family>/<scene_id>/: the brain's folder observation/ (observation.json "
        "and the frames, PNG named by view and time: all a brain is shown) and beside it "
        "ground_truth.json and spec.json. Each scene is simulated once per spec and settings "
        "(observation cache); scenes whose simulation contradicts their spec are rejected "
        "with the reason.",
    )
    obs.add_argument("path", help="a scene set folder, a scene folder or a spec.json")
    obs.add_argument("--out", required=True, help="output folder")
    obs.add_argument(
        "--resolution",
        default="640x360",
        metavar="WxH",
        help="frame size, 16:9 (default 640x360; 1280x720 on request)",
    )
    obs.add_argument(
        "--frames",
        type=_positive_int,
        default=5,
        metavar="N",
        help="frames per view, evenly spaced over the window (default 5)",
    )
    obs.add_argument(
        "--window",
        type=float,
        default=None,
        metavar="S",
        help="observation window in seconds for every scene (default: each scene's own, "
        "0.6 s or shorter for a fast hazard; see README 'The decision moment')",
    )
    obs.add_argument(
        "--legend",
        action="store_true",
        help="ablation: observation.json also lists the objects by how they look, under "
        "neutral ids (object_1, ...); by default brains get frames only, as in the paper",
    )
    _add_simulation_options(obs)
    obs.add_argument("--quiet", action="store_true", help="no progress bar")
    obs.set_defaults(func=cmd_observe)

    dec = commands.add_parser(
        "decide",
        help="let a brain (a model or a baseline) decide every observed scene",
        description="Show each observation to a brain and write, per scene, plan.json (the "
        "parsed plan, or the R1 record when the reply never parses) and reply.txt (the raw "
        "replies). Decisions are cached in a SQLite store: reruns ask nothing twice.",
    )
    dec.add_argument("obs_dir", help="output of `reacthuman observe` (or one of its scene folders)")
    who = dec.add_mutually_exclusive_group(required=True)
    who.add_argument(
        "--brain",
        metavar="NAME",
        help="a baseline: always-dodge, always-catch, no-action, random, "
        "legend-only, heuristic, oracle (is handed ground truth)",
    )
    who.add_argument("--model", metavar="ID", help="a model id at an OpenAI-compatible endpoint")
    dec.add_argument(
        "--base-url",
        default="https://openrouter.ai/api/v1",
        metavar="URL",
        help="endpoint (default OpenRouter; vLLM, Ollama, LM Studio work too)",
    )
    dec.add_argument(
        "--api-key-env",
        metavar="VAR",
        help="environment variable holding the key (default REACTHUMAN_API_KEY, "
        "OPENROUTER_API_KEY or OPENAI_API_KEY)",
    )
    dec.add_argument(
        "--concurrency",
        type=_positive_int,
        default=8,
        metavar="K",
        help="decisions in flight at once (default 8)",
    )
    dec.add_argument("--rate-limit", type=float, metavar="R", help="requests per second at most")
    dec.add_argument("--max-tokens", type=_positive_int, default=1024, metavar="N")
    dec.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        metavar="S",
        help="seconds per request before it is retried",
    )
    dec.add_argument(
        "--store",
        metavar="FILE",
        help="response store (default ~/.cache/reacthuman/responses.sqlite)",
    )
    dec.add_argument("--out", required=True, help="output folder")
    dec.add_argument("--quiet", action="store_true", help="no progress bar")
    dec.set_defaults(func=cmd_decide)

    sc = commands.add_parser(
        "score",
        help="score decisions against ground truth into a run's results store",
        description="Score every plan.json under the decision folders against the ground "
        "truth of the observation folder; write results.sqlite, scores.csv and scores.jsonl "
        "(one row per scene and brain; rescoring replaces rows, never duplicates them).",
    )
    sc.add_argument("--observations", required=True, help="output of `reacthuman observe`")
    sc.add_argument("--decisions", required=True, nargs="+", help="outputs of `reacthuman decide`")
    sc.add_argument(
        "--classifier",
        metavar="YAML",
        help="plan -> action thresholds (default config/classifier.yaml's values)",
    )
    sc.add_argument("--out", required=True, help="the run folder")
    sc.set_defaults(func=cmd_score)

    rep = commands.add_parser(
        "report",
        help="write report.md and report.html for a scored run",
        description="The main table, per-family SAA, agreement, speed-band consistency and "
        "plots (disposition, freeze by band, safety rules, endpoint distance, adversarial vs "
        "genuine), with 95 % bootstrap intervals.",
    )
    rep.add_argument("run_dir", help="a run folder holding results.sqlite")
    rep.add_argument("--compare", nargs="+", metavar="RUN_DIR", help="more runs side by side")
    rep.add_argument("--out", help="where to write (default: the run folder)")
    rep.add_argument("--title", help="report title")
    rep.set_defaults(func=cmd_report)

    bsim = commands.add_parser(
        "bench-sim",
        help="measure simulation and rendering speed and memory",
        description="Simulate scenes of the balanced set into a throw-away cache and report "
        "seconds per scene cold and warm, the physics/rendering split and peak memory.",
    )
    bsim.add_argument(
        "--per-family",
        type=_positive_int,
        default=1,
        metavar="N",
        help="scenes per family (default 1; 18 for the 306-scene set)",
    )
    bsim.add_argument("--limit", type=_positive_int, metavar="K", help="only the first K scenes")
    bsim.add_argument("--resolution", default="640x360", metavar="WxH")
    bsim.add_argument("--json", metavar="FILE", help="also write the full report as JSON")
    bsim.add_argument("--quiet", action="store_true", help="no progress bar")
    bsim.set_defaults(func=cmd_bench_sim)

    gaits = commands.add_parser(
        "calibrate-gaits",
        help="measure how the simulated G1 walks under each walking command",
        description="Walk the G1 on a flat floor under every command and duration of the "
        "gait table (gait_table.py), arms swinging and held, and write where the base went. "
        "The oracle plans with this table; assets/gaits.json is the default controller's.",
    )
    gaits.add_argument("--controller", default="g1", help="g1-<policy> (default g1)")
    gaits.add_argument("--policy-path", help="the unitree-motion policy's motion.pt")
    gaits.add_argument("--out", required=True, metavar="FILE", help="where to write the table")
    gaits.set_defaults(func=cmd_calibrate_gaits)

    cat = commands.add_parser(
        "catalogue",
        help="print the object catalogue",
        description="Print the 82-object catalogue (14 adversarial look-alikes).",
    )
    cat.add_argument("--json", action="store_true", help="machine-readable JSON list")
    cat.add_argument(
        "--markdown",
        action="store_true",
        help="the per-object label table (README), as Markdown",
    )
    cat.add_argument("--file", help="validate and print this catalogue file instead")
    cat.set_defaults(func=cmd_catalogue)

    from reacthuman.benchcmd import add_parsers
    from reacthuman.unitree.cli import add_parsers as add_g1_parsers

    add_parsers(commands)
    add_g1_parsers(commands)
    return parser


def cmd_scenes_families(_args: argparse.Namespace) -> int:
    from reacthuman.scenes.families import REGISTRY
    from reacthuman.scenes.spec import Family

    print(f"  {'family':<18}{'archetype':<14}{'pace':<10}summary")
    for family in Family:
        sampler = REGISTRY[family]
        pace = "gravity" if sampler.gravity_paced else "swept"
        print(f"  {family.value:<18}{sampler.archetype:<14}{pace:<10}{sampler.summary}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    from reacthuman.benchcmd import BenchError
    from reacthuman.sqlite_store import StoreError

    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except (CliError, BenchError, StoreError) as exc:
        print(f"reacthuman: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("reacthuman: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
