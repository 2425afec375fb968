"""``reacthuman billiards``: the BilliardPhys suite (tables, answers, judgments, report)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from reacthuman.cli.common import CliError, positive_int


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
        "arrow with friction, through the other balls), grade them and write the run folder "
        "(tables/*.png, tables.jsonl, results.jsonl, summary.json, report.md).",
    )
    bench.add_argument("--out", required=True, help="the run folder to write")
    bench.add_argument("--tables", type=positive_int, default=20, help="tables per horizon")
    bench.add_argument("--first-seed", type=int, default=0, help="seed of the first table")
    bench.add_argument(
        "--brain",
        action="append",
        help="a reference answerer (repeatable; default: all three)",
    )
    bench.set_defaults(func=cmd_bench)


def cmd_bench(args: argparse.Namespace) -> int:
    from reacthuman.billiards.bench import run_baselines, tables, write_run
    from reacthuman.billiards.scoring import BASELINES

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {out}: exists and is not a folder")
    brains = args.brain or list(BASELINES)
    try:
        drawn = tables(args.tables, first_seed=args.first_seed)
        results = run_baselines(brains, drawn)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    report = write_run(out, drawn, results)
    print(f"{len(drawn)} tables x {len(brains)} answerer(s). Report: {report}")
    return 0
