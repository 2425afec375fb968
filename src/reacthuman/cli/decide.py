"""``reacthuman decide``: a brain decides every observed scene."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from reacthuman.cli.common import (
    CliError,
    add_endpoint_options,
    default_store,
    endpoint_key,
    positive_int,
)


def add_parser(commands: Any) -> None:
    dec = commands.add_parser(
        "decide",
        help="let a brain (a model or a baseline) decide every observed scene",
        description="Show each observation to a brain and write, per scene, plan.json (the "
        "parsed plan, or the R1 record when the reply never parses) and reply.txt (the raw "
        "replies). Decisions are cached in a SQLite store: reruns ask nothing twice.",
    )
    dec.add_argument("obs_dir", help="output of `reacthuman observe` (or one of its scene folders)")
    who = dec.add_mutually_exclusive_group(required=True)
    who.add_argument(
        "--brain",
        metavar="NAME",
        help="a baseline: always-dodge, always-catch, no-action, random, "
        "legend-only, heuristic, oracle (is handed ground truth)",
    )
    who.add_argument("--model", metavar="ID", help="a model id at an OpenAI-compatible endpoint")
    add_endpoint_options(dec, "")
    dec.add_argument(
        "--concurrency",
        type=positive_int,
        default=8,
        metavar="K",
        help="decisions in flight at once (default 8)",
    )
    dec.add_argument("--rate-limit", type=float, metavar="R", help="requests per second at most")
    dec.add_argument("--max-tokens", type=positive_int, default=1024, metavar="N")
    dec.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        metavar="S",
        help="seconds per request before it is retried",
    )
    dec.add_argument("--out", required=True, help="output folder")
    dec.add_argument("--quiet", action="store_true", help="no progress bar")
    dec.set_defaults(func=cmd_decide)


DECISIONS_FILE = "decisions.jsonl"


def legacy_decisions(folder: Path) -> str | None:
    """A decisions folder an older ``decide`` wrote: its decisions.jsonl, and below it only
    plan.json and reply.txt files (``out_folder.claim``)."""
    from reacthuman.out_folder import only_files_below

    if not (folder / DECISIONS_FILE).is_file():
        return f"no {DECISIONS_FILE}"
    return only_files_below(folder, {DECISIONS_FILE, "plan.json", "reply.txt"})


def cmd_decide(args: argparse.Namespace) -> int:
    import asyncio

    from tqdm import tqdm

    from reacthuman.brain.run import Brain, ModelBrain, baseline, decide_all, write_outcome
    from reacthuman.brain.store import ResponseStore
    from reacthuman.layout import LayoutError, find_scenes, linked_folders
    from reacthuman.out_folder import claim, mark, write_text

    out = Path(args.out)
    claim(out, "decide", "decisions folder", legacy=legacy_decisions)  # before any work
    root = Path(args.obs_dir)
    try:
        folders = find_scenes(root) if root.is_dir() else []
    except LayoutError as exc:
        raise CliError(str(exc)) from None
    for link in linked_folders(root) if root.is_dir() else []:
        print(f"not decided: {link}: a link to a folder (links are not followed)", file=sys.stderr)
    if not folders:
        raise CliError(
            f"{root}: no observation/observation.json found (run `reacthuman observe` first)"
        )
    if args.model:
        from reacthuman.brain.client import ModelClient

        brain: Brain = ModelBrain(
            ModelClient(
                args.model,
                args.base_url,
                endpoint_key(args),
                max_tokens=args.max_tokens,
                timeout=args.timeout,
                rate_limit=args.rate_limit,
            )
        )
    else:
        try:
            brain = baseline(args.brain)
        except ValueError as exc:
            raise CliError(str(exc)) from None
    try:
        mark(out, "decide")
        store = ResponseStore(args.store or default_store())
    except OSError as exc:
        raise CliError(f"cannot write: {exc}") from None
    counts = {"done": 0, "R1": 0, "cached": 0}
    lines = []
    failed: list[str] = []  # not stored: the next run asks them again
    with tqdm(
        total=len(folders),
        desc=f"deciding ({brain.name})",
        unit="scene",
        disable=args.quiet,
        file=sys.stderr,
    ) as bar:

        def tick(outcome) -> None:
            counts["done"] += 1
            counts["R1"] += outcome.decision.plan is None
            counts["cached"] += outcome.cached
            if outcome.decision.api_failure:
                failed.append(f"{outcome.decision.scene_id}: {outcome.decision.r1_reason}")
            write_outcome(outcome, out, root)
            lines.append(
                json.dumps(
                    {
                        "scene_id": outcome.decision.scene_id,
                        "brain": outcome.decision.brain,
                        "r1_reason": outcome.decision.r1_reason,
                        "cached": outcome.cached,
                        "requests": 0 if outcome.cached else outcome.decision.requests,
                    }
                )
            )
            bar.set_postfix(counts, refresh=False)
            bar.update(1)

        try:
            asyncio.run(decide_all(folders, brain, store, args.concurrency, tick))
        finally:
            write_text(out, out / DECISIONS_FILE, "".join(line + "\n" for line in lines))
            store.close()
    print(
        f"{counts['done']} decisions by {brain.name} ({counts['cached']} from the store, "
        f"{counts['R1']} R1) -> {out}"
    )
    if failed:
        print(
            f"{len(failed)} scenes could not be decided (recorded as R1, not stored: a rerun "
            "asks them again):\n  " + "\n  ".join(sorted(failed)),
            file=sys.stderr,
        )
    return 0
