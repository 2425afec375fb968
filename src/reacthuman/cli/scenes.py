"""``reacthuman scenes generate | validate | validity | sheet | show | families``; ``author``
and ``risks`` are in ``cli.authoring``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from reacthuman.cli.authoring import add_authoring_parsers
from reacthuman.cli.common import (
    CliError,
    add_simulation_options,
    family_name,
    load_specs,
    make_observer,
    non_negative_int,
    positive_int,
    prefill,
    rate,
    simulation_check,
    spec_path,
)


def add_parser(commands: Any) -> None:
    from reacthuman.scenes.generate import DEFAULT_ADVERSARIAL_RATE
    from reacthuman.scenes.sets import DEFAULT_PER_FAMILY

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
    gen.add_argument("--out", required=True, help="output folder: new, empty, or a set to replace")
    gen.add_argument(
        "--per-family",
        type=positive_int,
        default=DEFAULT_PER_FAMILY,
        metavar="N",
        help=f"scenes per family (default {DEFAULT_PER_FAMILY})",
    )
    gen.add_argument(
        "--family",
        type=family_name,
        metavar="F",
        help="only this family (see `reacthuman scenes families`)",
    )
    gen.add_argument(
        "--seed",
        type=non_negative_int,
        metavar="S",
        help="only the scene with this seed (needs --family)",
    )
    gen.add_argument(
        "--first-seed",
        type=non_negative_int,
        default=0,
        metavar="S",
        help="start every family's schedule at seed S (a swept family at the group holding "
        "S): another block of seeds, e.g. a private one for a leaderboard (default 0)",
    )
    gen.add_argument(
        "--adversarial-rate",
        type=rate,
        default=DEFAULT_ADVERSARIAL_RATE,
        metavar="R",
        help="share of dodge groups given a dangerous look-alike, in the families whose "
        "window can show an object's mass; a harmless one goes between two of them "
        f"(default {DEFAULT_ADVERSARIAL_RATE:.3g}: two of every three)",
    )
    gen.add_argument(
        "--simulate",
        action="store_true",
        help="simulate every scene, skip groups whose simulation contradicts their "
        "spec, and label from measured ground truth (minutes; fills the "
        "observation cache that `reacthuman observe` then reads)",
    )
    add_simulation_options(gen)
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
    add_authoring_parsers(scene_commands)


def cmd_scenes_generate(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from reacthuman.scenes.samplers import GenerationError
    from reacthuman.scenes.set_files import check_set_folder, write_set
    from reacthuman.scenes.set_models import SetError
    from reacthuman.scenes.set_summary import format_summary
    from reacthuman.scenes.sets import candidate_specs, generate_set, single_scene_set
    from reacthuman.scenes.spec import Family

    if args.seed is not None and args.family is None:
        raise CliError("--seed needs --family (a seed names a scene within one family)")
    if args.seed is not None and args.simulate:
        raise CliError(
            "--simulate validates a set's scene groups; --seed names one designed scene: "
            "generate it without --simulate, then `reacthuman observe DIR --out OUT` "
            "simulates it"
        )
    if args.seed is not None and args.first_seed:
        raise CliError("--first-seed starts a set's schedule; --seed names one scene: give one")
    try:
        check_set_folder(args.out, "scenes generate")  # before any work
        if args.seed is not None:
            manifest, scenes = single_scene_set(args.family, args.seed, args.adversarial_rate)
        else:
            families = [Family(args.family)] if args.family else list(Family)
            check = group_check = None
            if args.simulate:
                from reacthuman.sim.validate import group_rejection_reasons

                group_check = group_rejection_reasons
                observer = make_observer(args.cache)
                # Simulated in parallel up front; the check then reads them from the cache
                # and only replacements run one by one.
                specs = candidate_specs(
                    args.per_family, families, args.adversarial_rate, args.first_seed
                )
                prefill(observer, specs, args.jobs, args.quiet)
                check = simulation_check(observer)
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
                    first_seed=args.first_seed,
                )
        write_set(args.out, manifest, scenes, verb="scenes generate")
    except (GenerationError, SetError) as exc:
        raise CliError(str(exc)) from None
    print(format_summary(scenes))
    for skip in manifest.skipped:
        print(f"skipped {skip.family.value} seeds {skip.seeds}: {skip.reason}")
    print(f"\nwrote {len(scenes)} scenes to {args.out}")
    return 0


def cmd_scenes_validate(args: argparse.Namespace) -> int:
    from reacthuman.scenes.set_files import load_spec
    from reacthuman.scenes.set_models import SetError
    from reacthuman.scenes.set_summary import format_summary

    target = Path(args.path)
    if not target.exists():
        raise CliError(f"{target}: no such file or folder")
    if target.is_dir() and (target / "set.json").is_file():
        scenes = _read_set(target)
        print(format_summary(scenes))
        print(f"\n{target}: all {len(scenes)} scenes valid")
        return 0
    try:
        spec = load_spec(spec_path(target))
    except SetError as exc:
        raise CliError(str(exc)) from None
    print(f"{spec_path(target)}: valid spec {spec.scene_id}")
    return 0


def _read_set(path: Path) -> list[Any]:
    """The scenes of the set at ``path``; every invalid file named on stderr, then a
    CliError."""
    return _read_set_and_manifest(path)[1]


def _read_set_and_manifest(path: Path) -> tuple[Any, list[Any]]:
    """``_read_set``, with the set's manifest."""
    from reacthuman.scenes.set_files import SetReadError, read_set
    from reacthuman.scenes.set_models import SetError

    try:
        manifest, scenes = read_set(path)
    except SetReadError as exc:
        for problem in exc.problems:
            print(f"invalid: {problem}", file=sys.stderr)
        raise CliError(f"{path}: {len(exc.problems)} invalid file(s)") from None
    except SetError as exc:
        raise CliError(str(exc)) from None
    return manifest, scenes


def cmd_scenes_validity(args: argparse.Namespace) -> int:
    from reacthuman.scenes.validity import validity
    from reacthuman.scenes.validity_text import format_validity

    manifest, scenes = _read_set_and_manifest(Path(args.path))
    report = validity(scenes, manifest.skipped)
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
    specs, unreadable = load_specs(target)
    for problem in unreadable:
        print(f"unreadable: {problem}", file=sys.stderr)
    chosen = []
    per_family: dict[str, int] = {}  # scenes seen per family (a StrEnum)
    for spec in specs:
        per_family[spec.family] = per_family.get(spec.family, 0) + 1
        if per_family[spec.family] <= args.per_family:
            chosen.append(spec)
    observer = make_observer(args.cache)
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
    from reacthuman.scenes.set_files import load_spec
    from reacthuman.scenes.set_models import SetError
    from reacthuman.scenes.show import describe

    try:
        spec = load_spec(spec_path(Path(args.spec)))
    except SetError as exc:
        raise CliError(str(exc)) from None
    print(describe(spec))
    return 0


def cmd_scenes_families(_args: argparse.Namespace) -> int:
    from reacthuman.scenes.families import REGISTRY
    from reacthuman.scenes.spec import Family

    print(f"  {'family':<18}{'archetype':<14}{'pace':<10}summary")
    for family in Family:
        sampler = REGISTRY[family]
        pace = "gravity" if sampler.gravity_paced else "swept"
        print(f"  {family.value:<18}{sampler.archetype:<14}{pace:<10}{sampler.summary}")
    return 0
