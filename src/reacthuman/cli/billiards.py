"""``reacthuman billiards``: the BilliardPhys suite (tables, answers, judgments, report)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from reacthuman.cli.common import (
    CliError,
    add_endpoint_options,
    default_store,
    endpoint_key,
    positive_int,
)


def _add_table_options(parser: argparse.ArgumentParser, tables: int) -> None:
    """Which tables: ``--tables`` per horizon from ``--first-seed``, at ``--horizons``."""
    parser.add_argument(
        "--tables", type=positive_int, default=tables, help=f"tables per horizon (default {tables})"
    )
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first table")
    parser.add_argument(
        "--horizons",
        type=positive_int,
        nargs="+",
        default=[1, 2, 3, 4, 5],
        metavar="S",
        help="horizons in seconds (default: 1 2 3 4 5)",
    )


def add_parser(commands: Any) -> None:
    billiards = commands.add_parser(
        "billiards",
        help="BilliardPhys: predict collisions and final positions on a billiard table",
        description="BilliardPhys-Bench in this harness: procedural billiard tables asked at "
        "1-5 s horizons, graded as the paper grades them.",
    )
    verbs = billiards.add_subparsers(dest="billiards_command", required=True, metavar="VERB")
    bench = verbs.add_parser(
        "bench",
        help="draw tables, answer them with the reference answerers, grade, report",
        description="Draw --tables tables per horizon, answer every one with each --brain "
        "(oracle: the exact simulation; no-collision: stasis; straight-line: the cue ball's "
        "arrow with friction, through the other balls) and with --model if given (three "
        "calls a table, one per task, cached in the response store), grade them and write "
        "the run folder (tables/*.png, tables.jsonl, results.jsonl, summary.json, report.md).",
    )
    bench.add_argument("--out", required=True, help="the run folder to write")
    _add_table_options(bench, tables=20)
    bench.add_argument(
        "--brain",
        action="append",
        help="a reference answerer (repeatable; default: all three)",
    )
    bench.add_argument("--model", metavar="ID", help="a model id at an OpenAI-compatible endpoint")
    add_endpoint_options(bench, "")
    bench.add_argument(
        "--concurrency",
        type=positive_int,
        default=8,
        metavar="K",
        help="tables in flight at once (default 8)",
    )
    bench.add_argument("--max-tokens", type=positive_int, default=4096, metavar="N")
    bench.add_argument(
        "--videos",
        action="store_true",
        help="also write every table's roll-out to tables/<table>.mp4 (about 1 s a table)",
    )
    bench.set_defaults(func=cmd_bench)

    check = verbs.add_parser(
        "cross-check",
        help="play tables again in Genesis and compare with the exact answers",
        description="Play --tables tables per horizon in Genesis's rigid solver (balls on "
        "slide joints, cushions as joint limits, elastic soft contacts, 50-microsecond steps) "
        "and compare what the cue ball touched and where every ball stops with the exact "
        "event-driven simulation; print the agreement by horizon, by the number of events on "
        "the table and for steady and sensitive tables (whose exact answers change when the "
        "shot is nudged by 3 mm or half a degree). Genesis compiles its kernels first "
        "(about a minute the first time).",
    )
    _add_table_options(check, tables=8)
    check.add_argument(
        "--envs", type=positive_int, default=8, help="tables played side by side (default 8)"
    )
    check.add_argument(
        "--out", metavar="FILE", help="write every table's comparison here (JSON lines)"
    )
    check.set_defaults(func=cmd_cross_check)


def legacy_billiards(folder: Path) -> str | None:
    """A billiards run an older ``billiards bench`` wrote: its files and tables/ only."""
    from reacthuman.out_folder import only_entries, only_files_below

    files = {"tables.jsonl", "results.jsonl", "summary.json", "report.md", "accuracy.png"}
    if not (folder / "results.jsonl").is_file():
        return "no results.jsonl"
    return only_entries(folder, files, {"tables"}) or only_files_below(
        folder / "tables", (), suffixes=(".png", ".mp4")
    )


def cmd_bench(args: argparse.Namespace) -> int:
    import asyncio

    from reacthuman.billiards.bench import run_baselines, tables, write_run
    from reacthuman.billiards.scoring import BASELINES
    from reacthuman.out_folder import claim, mark

    out = Path(args.out)
    claim(out, "billiards bench", "billiards run", legacy=legacy_billiards)  # before any work
    brains = args.brain or ([] if args.model else list(BASELINES))
    try:
        drawn = tables(args.tables, args.horizons, first_seed=args.first_seed)
        results = run_baselines(brains, drawn)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.model:
        from reacthuman.billiards.ask import run_model
        from reacthuman.brain.client import ModelClient
        from reacthuman.brain.store import ResponseStore

        client = ModelClient(
            args.model, args.base_url, endpoint_key(args), max_tokens=args.max_tokens
        )
        try:
            store = ResponseStore(args.store or default_store())
        except OSError as exc:
            raise CliError(f"cannot open the response store: {exc}") from None
        try:
            results += asyncio.run(run_model(client, store, drawn, args.concurrency))
        finally:
            store.close()
        brains.append(args.model)
    mark(out, "billiards bench")
    report = write_run(out, drawn, results, videos=args.videos)
    unusable = sum(bool(r.unusable) for r in results)
    print(
        f"{len(drawn)} tables x {len(brains)} answerer(s), {unusable} with an unusable reply. "
        f"Report: {report}"
    )
    return 0


def cmd_cross_check(args: argparse.Namespace) -> int:
    import sys

    from tqdm import tqdm

    from reacthuman.billiards.bench import tables
    from reacthuman.billiards.genesis_check import DT, agreement_table, cross_check

    out = Path(args.out) if args.out else None
    if out is not None and out.is_dir():
        raise CliError(f"--out {out}: is a folder; give a file for the JSON lines")
    try:
        drawn = [s for s, _ in tables(args.tables, args.horizons, first_seed=args.first_seed)]
    except ValueError as exc:
        raise CliError(str(exc)) from None
    steps = sum(round(t.horizon / DT) for t in drawn)
    with tqdm(total=steps, desc="genesis", unit="step", file=sys.stderr) as bar:
        agreements = cross_check(drawn, envs=args.envs, progress=bar.update)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("".join(a.model_dump_json() + "\n" for a in agreements))
    print(agreement_table(agreements))
    return 0
