"""``reacthuman scenes generate | author | validate | validity | sheet | show | families |
risks``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from reacthuman.cli.common import (
    CliError,
    add_endpoint_options,
    add_simulation_options,
    default_store,
    endpoint_key,
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

    risks = scene_commands.add_parser(
        "risks",
        help="check and summarise a risk-memory bank",
        description="Check a household risk-memory bank (ICAT's units: conditions, "
        "consequence with severity, prevention, reference; the families, rooms and catalogue "
        "objects that stage them) and print what it covers: the packaged one, or --bank FILE "
        "(a bad unit is named with its field).",
    )
    risks.add_argument("--bank", help="a bank file (default: the packaged assets/risk_memory.json)")
    risks.add_argument("--list", action="store_true", help="also list every unit")
    risks.set_defaults(func=cmd_scenes_risks)

    author = scene_commands.add_parser(
        "author",
        help="scenes from words, grounded in the risk-memory bank",
        description="Author scenes from descriptions ('a cast-iron pan slides off the counter "
        "while someone is cooking') or from a scenario ('kitchen, G1 humanoid') and a count: "
        "risk-memory units are retrieved for each, a planner selects the family, catalogue "
        "object, room and causal chain with its severity, and the seeded randomizer stages "
        "the selection as a validated scene. The offline planner needs no model. A "
        "description that cannot be staged is rejected with the reason; the set holds the "
        "rest, and authored.json says what became of each. Same arguments, same bytes.",
    )
    author.add_argument("descriptions", nargs="*", metavar="DESCRIPTION")
    author.add_argument("--file", metavar="FILE", help="descriptions, one per line (# comments)")
    author.add_argument("--scenario", help='a room and the robot, e.g. "kitchen, G1 humanoid"')
    author.add_argument(
        "--count", type=positive_int, metavar="N", help="scenes for --scenario (default 20)"
    )
    author.add_argument(
        "--out", required=True, help="output folder: new, empty, or a set to replace"
    )
    author.add_argument(
        "--into",
        metavar="SET",
        help="a set (generated, authored or both) whose scenes the output holds too, the "
        "authored ones after them (--out may be the same folder)",
    )
    author.add_argument(
        "--bank", help="a risk-memory bank file (default: the packaged assets/risk_memory.json)"
    )
    author.add_argument(
        "--index-cache",
        metavar="DIR",
        help="where the bank's embeddings are cached (default ~/.cache/reacthuman/risk-index)",
    )
    author.add_argument(
        "--first-seed",
        type=non_negative_int,
        metavar="S",
        help="the first authored seed (default 500000; each selection takes a block of seeds)",
    )
    author.add_argument(
        "--model",
        metavar="ID",
        help="plan with this model at an OpenAI-compatible endpoint (default: the offline "
        "planner, no model)",
    )
    add_endpoint_options(author, ": a rerun asks --model nothing twice")
    author.add_argument(
        "--simulate",
        action="store_true",
        help="simulate every authored scene, move past candidates whose simulation "
        "contradicts their spec, and label from measured ground truth (minutes)",
    )
    add_simulation_options(author)
    author.add_argument("--quiet", action="store_true", help="no progress bar")
    author.set_defaults(func=cmd_scenes_author)


def cmd_scenes_generate(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from reacthuman.scenes.catalogue import default_catalogue
    from reacthuman.scenes.generate import GenerationError, generate_scene
    from reacthuman.scenes.sets import (
        GENERATOR_VERSION,
        Scene,
        SetError,
        SetManifest,
        check_set_folder,
        format_summary,
        generate_set,
        metadata_for,
        write_set,
    )
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
                observer = make_observer(args.cache)
                # Simulate the schedule's first candidates in parallel up front; the check
                # then reads them from the cache and only replacements run one by one.
                # One group (or four seeds) more per family than the set takes: a rejected
                # group's replacement is then usually simulated already.
                _manifest, candidates = generate_set(
                    args.per_family + 4,
                    families,
                    args.adversarial_rate,
                    first_seed=args.first_seed,
                )
                from reacthuman.scenes.twin import twin_spec

                specs = [c.spec for c in candidates]
                specs += [twin_spec(s) for s in specs if s.adversarial]  # their twin tests
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
    from reacthuman.scenes.sets import SetError, format_summary, load_spec

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
    from reacthuman.scenes.sets import SetError, SetReadError, read_set

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
    from reacthuman.scenes.validity import format_validity, validity

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
    from reacthuman.scenes.sets import SetError, load_spec
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


def cmd_scenes_risks(args: argparse.Namespace) -> int:
    from collections import Counter

    from reacthuman.authoring.risk_memory import BankError, Severity, load_bank
    from reacthuman.scenes.spec import Family

    try:
        bank = load_bank(args.bank)
    except BankError as exc:
        raise CliError(str(exc)) from None
    units = bank.units
    grades = Counter(u.severity for u in units)
    print(f"risk-memory bank {bank.bank_version}: {len(units)} units")
    print("  severity   " + ", ".join(f"{g.value} {grades[g]}" for g in Severity))
    print(f"  {'family':<18}{'units':>6}  {'low':>4}{'medium':>7}{'high':>5}")
    for family in Family:
        mine = [u for u in units if family in u.families]
        counts = Counter(u.severity for u in mine)
        print(
            f"  {family.value:<18}{len(mine):>6}  {counts[Severity.low]:>4}"
            f"{counts[Severity.medium]:>7}{counts[Severity.high]:>5}"
        )
    uncovered = [f.value for f in Family if not any(f in u.families for u in units)]
    if uncovered:
        print(f"  no unit for: {', '.join(uncovered)}")
    if args.list:
        for unit in units:
            print(f"\n{unit.id} [{unit.severity.value}] {unit.title}")
            print(f"  families: {', '.join(unit.families)}; objects: {', '.join(unit.objects)}")
            print(f"  source: {unit.reference.source}")
    return 0


def _descriptions(args: argparse.Namespace) -> list[str]:
    texts = list(args.descriptions)
    if args.file:
        try:
            lines = Path(args.file).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise CliError(f"{args.file}: cannot read: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise CliError(f"{args.file}: not UTF-8 text (byte {exc.start})") from None
        texts += [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    return texts


def cmd_scenes_author(args: argparse.Namespace) -> int:
    import json

    from reacthuman.authoring import offline
    from reacthuman.authoring.author import (
        AUTHORED_FIRST_SEED,
        Authoring,
        Rejected,
        author_all,
        first_candidate,
        manifest_for,
        merged,
        scenario_authorings,
    )
    from reacthuman.authoring.retrieval import RetrievalError, RiskIndex
    from reacthuman.authoring.risk_memory import BankError, default_bank, load_bank
    from reacthuman.authoring.selection import SelectionError
    from reacthuman.scenes.sets import SetError, check_set_folder, read_set, write_set

    texts = _descriptions(args)
    if args.scenario is None and not texts:
        raise CliError("give descriptions (or --file), or --scenario with --count")
    if args.scenario is not None and texts:
        raise CliError("give descriptions or --scenario, not both")
    if args.count is not None and args.scenario is None:
        raise CliError("--count goes with --scenario")
    try:
        check_set_folder(args.out, "scenes author")  # before any work
    except SetError as exc:
        raise CliError(str(exc)) from None
    try:
        bank = load_bank(args.bank) if args.bank else default_bank()
        index = RiskIndex.build(bank, Path(args.index_cache) if args.index_cache else None)
    except (BankError, RetrievalError) as exc:
        raise CliError(str(exc)) from None
    outcome: list[Authoring | Rejected] = []
    if args.scenario is not None:
        try:
            planned = scenario_authorings(args.scenario, args.count or 20, index)
        except SelectionError as exc:
            raise CliError(str(exc)) from None
        if args.model:  # the model plans each of the scenario's documented hazards
            texts = [f"{args.scenario}: {authoring.description}" for authoring in planned]
        else:
            outcome = list(planned)
    if args.model:
        outcome += _plan_with_model(args, texts, index)
    for text in [] if args.model else texts:
        try:
            selection, _hits = offline.plan(text, index)
        except (SelectionError, RetrievalError) as exc:
            outcome.append(Rejected(text[:200], str(exc)))
            continue
        outcome.append(Authoring(text.strip(), offline.PLANNER, selection))
    first = AUTHORED_FIRST_SEED if args.first_seed is None else args.first_seed
    check = None
    if args.simulate:
        observer = make_observer(args.cache)
        # Each selection's first candidate simulated in parallel up front; the check then
        # reads it from the cache, and only a rejected candidate's successor runs alone.
        firsts = [
            first_candidate(item, slot, first)
            for slot, item in enumerate(outcome)
            if isinstance(item, Authoring)
        ]
        prefill(observer, [spec for spec in firsts if spec is not None], args.jobs, args.quiet)
        check = simulation_check(observer)
    scenes, record = author_all(outcome, first, check)
    rejected = len(record) - len(scenes)
    for entry in record:
        if "scene" in entry:
            scene = next(s for s in scenes if s.spec.scene_id == entry["scene"])
            meta = scene.metadata
            assert meta.authored is not None
            print(
                f"{meta.scene_id:<24} {meta.object:<22} {scene.spec.room.type.value:<12} "
                f"{meta.authored.severity:<7} {meta.label.value:<16} {entry['description'][:60]}"
            )
        else:
            print(f"rejected: {entry['description'][:70]!r}: {entry['rejected']}")
    if not scenes:
        raise CliError("no scene could be authored (reasons above); nothing was written")
    try:
        manifest, written = manifest_for(scenes), scenes
        if args.into:
            base = read_set(args.into)
            before = Path(args.into) / "authored.json"
            if before.is_file():
                earlier = json.loads(before.read_text(encoding="utf-8"))
                if not isinstance(earlier, list):
                    raise CliError(f"{before}: not a list of authoring records")
                record = earlier + record
            manifest, written = merged(base, scenes)
        write_set(
            args.out,
            manifest,
            written,
            extra={"authored.json": json.dumps(record, indent=2, ensure_ascii=False) + "\n"},
            verb="scenes author",
        )
    except (SetError, SelectionError, ValueError) as exc:
        raise CliError(str(exc)) from None
    print(
        f"\nwrote {len(scenes)} authored scene(s) to {args.out}"
        + (f" ({rejected} rejected)" if rejected else "")
    )
    return 0


def _plan_with_model(args: argparse.Namespace, texts: list[str], index: Any) -> list[Any]:
    """Each description planned by ``--model``, concurrently, through the brain's client and
    a response store; an unusable answer is the description's rejection."""
    import asyncio

    from reacthuman.authoring.author import Authoring, Rejected
    from reacthuman.authoring.planner import plan_with_model
    from reacthuman.authoring.selection import SelectionError
    from reacthuman.brain.client import ModelClient
    from reacthuman.brain.store import ResponseStore
    from reacthuman.sqlite_store import StoreError

    client = ModelClient(args.model, args.base_url, endpoint_key(args))
    path = Path(args.store) if args.store else default_store()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        store = ResponseStore(path)
    except (OSError, StoreError) as exc:
        raise CliError(f"{path}: cannot open the response store: {exc}") from None

    async def one(text: str) -> Any:
        try:
            selection, record, _hits = await plan_with_model(client, text, index, store)
        except SelectionError as exc:
            return Rejected(text[:200], str(exc))
        if selection is None:
            return Rejected(text[:200], f"{args.model}: {record.r1_reason}")
        return Authoring(text.strip(), args.model, selection)

    async def all_of() -> list[Any]:
        limit = asyncio.Semaphore(8)

        async def bounded(text: str) -> Any:
            async with limit:
                return await one(text)

        return await asyncio.gather(*(bounded(text) for text in texts))

    try:
        return asyncio.run(all_of())
    finally:
        store.close()
