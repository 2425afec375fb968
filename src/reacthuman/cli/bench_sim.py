"""``reacthuman bench-sim``: simulation and rendering speed and memory."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from reacthuman.cli.common import positive_int, render_settings


def add_parser(commands: Any) -> None:
    bsim = commands.add_parser(
        "bench-sim",
        help="measure simulation and rendering speed and memory",
        description="Simulate scenes of the balanced set into a throw-away cache and report "
        "seconds per scene cold and warm, the physics/rendering split and peak memory.",
    )
    bsim.add_argument(
        "--per-family",
        type=positive_int,
        default=1,
        metavar="N",
        help="scenes per family (default 1; 18 for the 306-scene set)",
    )
    bsim.add_argument("--limit", type=positive_int, metavar="K", help="only the first K scenes")
    bsim.add_argument("--resolution", default="640x360", metavar="WxH")
    bsim.add_argument("--json", metavar="FILE", help="also write the full report as JSON")
    bsim.add_argument("--quiet", action="store_true", help="no progress bar")
    bsim.set_defaults(func=cmd_bench_sim)


def cmd_bench_sim(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from reacthuman.scenes.sets import generate_set
    from reacthuman.sim.bench import bench, format_report

    settings = render_settings(args.resolution)
    _manifest, scenes = generate_set(args.per_family)
    specs = [s.spec for s in scenes]
    if args.limit:
        specs = specs[: args.limit]
    with tqdm(
        total=len(specs), desc="bench-sim", unit="scene", disable=args.quiet, file=sys.stderr
    ) as bar:
        report = bench(specs, settings, lambda _i, _row: bar.update(1))
    print(format_report(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0
