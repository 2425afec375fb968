"""``reacthuman scenes author | risks``: scenes from words, and the risk-memory bank they
rest on (``reacthuman.authoring``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from reacthuman.cli.common import (
    CliError,
    add_endpoint_options,
    add_simulation_options,
    default_store,
    endpoint_key,
    make_observer,
    non_negative_int,
    positive_int,
    prefill,
    simulation_check,
)


def add_authoring_parsers(scene_commands: Any) -> None:
    """The `scenes author` and `scenes risks` actions, under `reacthuman scenes`."""
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


def cmd_scenes_risks(args: argparse.Namespace) -> int:
    from reacthuman.authoring.risk_memory import BankError, format_bank, load_bank

    try:
        bank = load_bank(args.bank)
    except BankError as exc:
        raise CliError(str(exc)) from None
    print(format_bank(bank, every_unit=args.list))
    return 0


def _descriptions(args: argparse.Namespace) -> list[str]:
    from reacthuman.authoring.batch import read_descriptions

    texts = list(args.descriptions)
    if args.file:
        try:
            texts += read_descriptions(args.file)
        except ValueError as exc:
            raise CliError(str(exc)) from None
    return texts


def cmd_scenes_author(args: argparse.Namespace) -> int:
    from reacthuman.authoring.author import (
        AUTHORED_FIRST_SEED,
        Authoring,
        Rejected,
        author_all,
        scenario_authorings,
    )
    from reacthuman.authoring.batch import authored_set, first_candidates, plan_offline
    from reacthuman.authoring.retrieval import RetrievalError, RiskIndex
    from reacthuman.authoring.risk_memory import BankError, default_bank, load_bank
    from reacthuman.authoring.selection import SelectionError
    from reacthuman.scenes.set_files import check_set_folder, write_set
    from reacthuman.scenes.set_models import SetError

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
    outcome += _plan_with_model(args, texts, index) if args.model else plan_offline(texts, index)
    first = AUTHORED_FIRST_SEED if args.first_seed is None else args.first_seed
    check = None
    if args.simulate:
        observer = make_observer(args.cache)
        prefill(observer, first_candidates(outcome, first), args.jobs, args.quiet)
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
        manifest, written, extra = authored_set(scenes, record, args.into or None)
        write_set(args.out, manifest, written, extra=extra, verb="scenes author")
    except (SetError, SelectionError, ValueError) as exc:
        raise CliError(str(exc)) from None
    print(
        f"\nwrote {len(scenes)} authored scene(s) to {args.out}"
        + (f" ({rejected} rejected)" if rejected else "")
    )
    return 0


def _plan_with_model(args: argparse.Namespace, texts: list[str], index: Any) -> list[Any]:
    """Each description planned by ``--model`` (``authoring.batch.plan_by_model``), its
    exchanges kept in the response store."""
    from reacthuman.authoring.batch import plan_by_model
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
    try:
        return plan_by_model(client, texts, index, store)
    finally:
        store.close()
