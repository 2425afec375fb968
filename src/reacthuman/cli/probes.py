"""``reacthuman probes``: perception probes on an observation set (HumanPhys-style questions
with exact labels), answered and scored."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reacthuman.cli.common import (
    CliError,
    add_endpoint_options,
    default_store,
    endpoint_key,
    positive_int,
)
from reacthuman.out_folder import claim, inside, mark, write_text

if TYPE_CHECKING:
    from reacthuman.probes.labels import Probe
    from reacthuman.probes.scoring import ProbeResult
    from reacthuman.scoring.results import ScoreRow


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

    decide = verbs.add_parser(
        "decide",
        help="ask a model every probe, shown the frames it decides on",
        description="Ask --model every probe of PROBES, one call a probe, shown the scene's "
        "frames from OBS as a brain is shown them (answers cached in the response store; an "
        "unusable reply is asked again with the reason, then recorded), and write the "
        "answers with their scores to --out as JSON lines (give it to `probes score "
        "--answers`).",
    )
    decide.add_argument("probes_file", metavar="PROBES", help="a file from `probes generate`")
    decide.add_argument("obs_dir", metavar="OBS", help="the observation set the probes are of")
    decide.add_argument("--model", required=True, metavar="ID", help="a model id")
    add_endpoint_options(decide, "")
    decide.add_argument("--out", required=True, metavar="FILE", help="the answers file to write")
    decide.add_argument(
        "--concurrency", type=positive_int, default=8, metavar="K", help="calls in flight at once"
    )
    decide.add_argument("--max-tokens", type=positive_int, default=1024, metavar="N")
    decide.set_defaults(func=cmd_decide)

    score = verbs.add_parser(
        "score",
        help="answer probes with the reference answerers and score them",
        description="Answer every probe of PROBES with each --brain (oracle: the labels; "
        "prior: one constant answer per kind and form, what a model scores without looking; "
        "monocular: the egocentric frames' moving pixels placed 3 m out, needs --obs), "
        "score them (MRA for numbers, accuracy for choices) and write results.jsonl and "
        "report.md to --out.",
    )
    score.add_argument("probes_file", metavar="PROBES", help="a file from `probes generate`")
    score.add_argument("--out", required=True, help="the folder to write")
    score.add_argument(
        "--brain",
        action="append",
        help="a reference answerer (repeatable; default: oracle and prior, or none with --answers)",
    )
    score.add_argument(
        "--answers",
        action="append",
        default=[],
        metavar="FILE",
        help="a model's answers from `probes decide` (repeatable), scored beside the "
        "reference answerers",
    )
    score.add_argument(
        "--obs", metavar="OBS", help="the observation set (for --brain monocular, which reads it)"
    )
    score.add_argument(
        "--decisions",
        metavar="SCORES",
        help="scored decisions (scores.jsonl of `reacthuman score` or `bench`, or its run "
        "folder): the report puts each answerer's probe accuracy beside its decisions",
    )
    score.set_defaults(func=cmd_score)

    report = verbs.add_parser(
        "report",
        help="write a probe run's report again",
        description="Read RUN/results.jsonl (from `probes score`), judge every answer again "
        "against PROBES and write RUN/report.md, with --decisions beside them.",
    )
    report.add_argument("probes_file", metavar="PROBES", help="a file from `probes generate`")
    report.add_argument("run", metavar="RUN", help="a folder `probes score` wrote")
    report.add_argument(
        "--decisions", metavar="SCORES", help="scored decisions (scores.jsonl or its run folder)"
    )
    report.set_defaults(func=cmd_report)


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


def legacy_probe_run(folder: Path) -> str | None:
    """A probe run an older ``probes score`` wrote: results.jsonl and report.md only."""
    from reacthuman.out_folder import only_entries

    if not (folder / "results.jsonl").is_file():
        return "no results.jsonl"
    return only_entries(folder, {"results.jsonl", "report.md"})


def cmd_score(args: argparse.Namespace) -> int:
    from reacthuman.probes.monocular import monocular_answers
    from reacthuman.probes.scoring import rescore, run_baselines
    from reacthuman.probes.sets import (
        ProbeSetError,
        read_decisions,
        read_probes,
        read_results,
        scene_folders,
        write_jsonl,
    )

    out = Path(args.out)
    claim(out, "probes score", "probe run", legacy=legacy_probe_run)  # before any work
    try:
        probes = read_probes(Path(args.probes_file))
        brains = args.brain or ([] if args.answers else ["oracle", "prior"])
        monocular = None
        if "monocular" in brains:
            if not args.obs:
                raise CliError("--brain monocular reads the frames: give --obs OBS")
            monocular = monocular_answers(probes, scene_folders(Path(args.obs)))
        results = run_baselines(brains, probes, monocular)
        for answers in args.answers:
            results += rescore(probes, read_results(Path(answers)))
        decisions = read_decisions(Path(args.decisions)) if args.decisions else []
    except (ProbeSetError, ValueError) as exc:
        raise CliError(str(exc)) from None
    mark(out, "probes score")
    write_jsonl(inside(out, out / "results.jsonl"), results)
    _write_report(out, results, probes, decisions)
    return 0


def _write_report(
    out: Path,
    results: Sequence[ProbeResult],
    probes: Sequence[Probe],
    decisions: Sequence[ScoreRow],
) -> None:
    """report.md in ``out``; its first table printed for the person at the terminal."""
    import sys

    from reacthuman.probes.report import decisions_markdown, report_markdown

    report = report_markdown(results)
    if decisions:
        linked = decisions_markdown(results, probes, decisions)
        if not linked:
            print("note: no answerer has both probe answers and scored decisions", file=sys.stderr)
        report += "\n" + linked
    write_text(out, out / "report.md", report)
    print(report.split("## By family")[0].rstrip())
    print(f"\nReport: {out / 'report.md'}")


def cmd_report(args: argparse.Namespace) -> int:
    from reacthuman.probes.scoring import rescore
    from reacthuman.probes.sets import ProbeSetError, read_decisions, read_probes, read_results

    out = Path(args.run)
    try:
        probes = read_probes(Path(args.probes_file))
        results = rescore(probes, read_results(out / "results.jsonl"))
        decisions = read_decisions(Path(args.decisions)) if args.decisions else []
    except (ProbeSetError, ValueError) as exc:
        raise CliError(str(exc)) from None
    _write_report(out, results, probes, decisions)
    return 0


def cmd_decide(args: argparse.Namespace) -> int:
    import asyncio
    import sys

    from tqdm import tqdm

    from reacthuman.brain.client import ModelClient
    from reacthuman.brain.store import ResponseStore
    from reacthuman.probes.ask import run_model
    from reacthuman.probes.sets import ProbeSetError, read_probes, scene_folders, write_jsonl

    out = Path(args.out)
    if out.is_dir():
        raise CliError(f"--out {out}: is a folder; give a file for the JSON lines")
    try:
        probes = read_probes(Path(args.probes_file))
        scenes = scene_folders(Path(args.obs_dir))
    except ProbeSetError as exc:
        raise CliError(str(exc)) from None
    client = ModelClient(args.model, args.base_url, endpoint_key(args), max_tokens=args.max_tokens)
    try:
        store = ResponseStore(args.store or default_store())
    except OSError as exc:
        raise CliError(f"cannot open the response store: {exc}") from None
    try:
        with tqdm(total=len(probes), desc="probes", unit="probe", file=sys.stderr) as bar:
            results = asyncio.run(
                run_model(client, store, probes, scenes, args.concurrency, lambda _r: bar.update())
            )
    except (ValueError, OSError) as exc:  # a scene missing from OBS, a frame file gone
        raise CliError(str(exc)) from None
    finally:
        store.close()
    write_jsonl(out, results)
    unusable = sum(r.unusable is not None for r in results)
    mean = sum(r.score for r in results) / len(results)
    print(
        f"{len(results)} probes answered by {args.model}, {unusable} unusable; "
        f"mean score {mean:.3f}. Answers: {out}"
    )
    return 0
