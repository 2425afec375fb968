"""``reacthuman probes``: perception probes on an observation set (HumanPhys-style questions
with exact labels), answered and scored."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from reacthuman.cli.common import CliError


def add_parser(commands: Any) -> None:
    probes = commands.add_parser(
        "probes",
        help="perception probes: quantitative questions about the frames a brain saw",
        description="HumanPhys-style perception probes on ReactHuman scenes: the hazard's "
        "distance, speed, direction, displacement, time to reach the robot, chest-height "
        "crossing and height, and the main light's side, labelled exactly from the "
        "simulator's record, scored by mean relative accuracy.",
    )
    verbs = probes.add_subparsers(dest="probes_command", required=True, metavar="VERB")
    generate = verbs.add_parser(
        "generate",
        help="write the probes of an observation set",
        description="Read every scene of OBS (`reacthuman observe` output: spec, ground truth, "
        "observation) and write its probes, numeric and multiple-choice, to --out as JSON "
        "lines.",
    )
    generate.add_argument("obs_dir", help="output of `reacthuman observe`, or one scene folder")
    generate.add_argument("--out", required=True, metavar="FILE", help="the probe file to write")
    generate.set_defaults(func=cmd_generate)

    score = verbs.add_parser(
        "score",
        help="answer probes with the reference answerers and score them",
        description="Answer every probe of PROBES with each --brain (oracle: the labels; "
        "prior: one constant answer per kind and form, what a model scores without looking), "
        "score them (MRA for numbers, accuracy for choices) and write results.jsonl and "
        "report.md to --out.",
    )
    score.add_argument("probes_file", metavar="PROBES", help="a file from `probes generate`")
    score.add_argument("--out", required=True, help="the folder to write")
    score.add_argument(
        "--brain", action="append", help="a reference answerer (repeatable; default: both)"
    )
    score.set_defaults(func=cmd_score)


def cmd_generate(args: argparse.Namespace) -> int:
    from reacthuman.probes.sets import ProbeSetError, counts, probes_of_set, write_jsonl

    out = Path(args.out)
    if out.is_dir():
        raise CliError(f"--out {out}: is a folder; give a file for the JSON lines")
    try:
        probes = probes_of_set(Path(args.obs_dir))
    except ProbeSetError as exc:
        raise CliError(str(exc)) from None
    write_jsonl(out, probes)
    scenes = len({p.scene_id for p in probes})
    kinds = ", ".join(f"{k} {n}" for k, n in counts(probes).items())
    print(f"{len(probes)} probes of {scenes} scene(s) to {out} ({kinds})")
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    from reacthuman.probes.report import report_markdown
    from reacthuman.probes.scoring import BASELINES, run_baselines
    from reacthuman.probes.sets import ProbeSetError, read_probes, write_jsonl

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {out}: exists and is not a folder")
    try:
        probes = read_probes(Path(args.probes_file))
        results = run_baselines(args.brain or list(BASELINES), probes)
    except (ProbeSetError, ValueError) as exc:
        raise CliError(str(exc)) from None
    out.mkdir(parents=True, exist_ok=True)
    write_jsonl(out / "results.jsonl", results)
    report = report_markdown(results)
    (out / "report.md").write_text(report)
    print(report.split("## By family")[0].rstrip())
    print(f"\nReport: {out / 'report.md'}")
    return 0
