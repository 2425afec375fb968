"""``reacthuman calibrate-gaits``: how the simulated G1 walks under each command."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from reacthuman.cli.common import CliError


def add_parser(commands: Any) -> None:
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
