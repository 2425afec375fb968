"""``reacthuman report``: report.md and report.html of scored runs."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from reacthuman.cli.common import CliError


def add_parser(commands: Any) -> None:
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


def cmd_report(args: argparse.Namespace) -> int:

    from reacthuman.out_folder import claim, mark
    from reacthuman.run_folder import RUN_VERBS, legacy_report
    from reacthuman.scenes.validity import VALIDITY_FILE, Validity
    from reacthuman.scoring.report import write_report
    from reacthuman.scoring.results import ResultsStore

    rows = []
    runs = [Path(args.run_dir), *(Path(p) for p in args.compare or [])]
    out = Path(args.out) if args.out else runs[0]
    # Without --out the report goes into the run folder: that too must be a run's.
    claim(out, "report", "report folder", accepts=RUN_VERBS, legacy=legacy_report)
    for run in runs:
        if not (run / "results.sqlite").is_file():
            raise CliError(f"{run}: no results.sqlite (score the run first: reacthuman score)")
        store = ResultsStore(run / "results.sqlite")
        found = store.rows()
        store.close()
        if args.compare:  # name brains by run so that the same model in two runs stays apart
            found = [r.model_copy(update={"brain": f"{run.name}:{r.brain}"}) for r in found]
        rows += found
    checks = runs[0] / VALIDITY_FILE
    try:
        scene_checks = (
            Validity.model_validate_json(checks.read_bytes()) if checks.is_file() else None
        )
    except (OSError, ValidationError) as exc:
        raise CliError(f"{checks}: not a validity report ({exc})") from None
    mark(out, "report")
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
