"""``reacthuman score``: decisions against ground truth into a run's results store."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_parser(commands: Any) -> None:
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


def cmd_score(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from reacthuman.brain.classify import ClassifierConfig
    from reacthuman.cli.common import CliError
    from reacthuman.documents import first_problem
    from reacthuman.out_folder import claim, mark
    from reacthuman.run_folder import RUN_VERBS, legacy_run
    from reacthuman.scoring.results import ResultsStore
    from reacthuman.scoring.run import score_folders

    out = Path(args.out)
    claim(out, "score", "run folder", accepts=RUN_VERBS, legacy=legacy_run)  # before any work
    try:
        config = ClassifierConfig.load(args.classifier) if args.classifier else ClassifierConfig()
    except ValidationError as exc:
        raise CliError(f"--classifier {args.classifier}: {first_problem(exc)}") from None
    rows, problems = score_folders(
        Path(args.observations), [Path(d) for d in args.decisions], config
    )
    for problem in problems:
        print(f"could not read: {problem}", file=sys.stderr)
    mark(out, "score")
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
