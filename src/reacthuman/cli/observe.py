"""``reacthuman observe``: simulate scenes to their frozen observation window."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from reacthuman.cli.common import (
    CliError,
    add_simulation_options,
    load_specs,
    positive_int,
    render_settings,
)


def add_parser(commands: Any) -> None:
    obs = commands.add_parser(
        "observe",
        help="simulate scenes to their frozen observation window",
        description="Simulate each scene in Genesis to the freeze and write, per scene, "
        "under OUT/<family>/<scene_id>/: the brain's folder observation/ (observation.json "
        "and the frames, PNG named by view and time: all a brain is shown) and beside it "
        "ground_truth.json and spec.json. Each scene is simulated once per spec and settings "
        "(observation cache); scenes whose simulation contradicts their spec are rejected "
        "with the reason.",
    )
    obs.add_argument("path", help="a scene set folder, a scene folder or a spec.json")
    obs.add_argument("--out", required=True, help="output folder")
    obs.add_argument(
        "--resolution",
        default="640x360",
        metavar="WxH",
        help="frame size, 16:9 (default 640x360; 1280x720 on request)",
    )
    obs.add_argument(
        "--frames",
        type=positive_int,
        default=5,
        metavar="N",
        help="frames per view, evenly spaced over the window (default 5)",
    )
    obs.add_argument(
        "--window",
        type=float,
        default=None,
        metavar="S",
        help="observation window in seconds for every scene (default: each scene's own, "
        "0.6 s or shorter for a fast hazard; see docs/scenes.md, 'The decision moment')",
    )
    obs.add_argument(
        "--legend",
        action="store_true",
        help="ablation: observation.json also lists the objects by how they look, under "
        "neutral ids (object_1, ...); by default brains get frames only, as in the paper",
    )
    add_simulation_options(obs)
    obs.add_argument("--quiet", action="store_true", help="no progress bar")
    obs.set_defaults(func=cmd_observe)


SUMMARY_FILE = "observe_summary.json"


def legacy_observations(folder: Path) -> str | None:
    """An observation folder an older ``observe`` wrote: its observe_summary.json, and below
    it only the files of observed scenes (``out_folder.claim``)."""
    from reacthuman.layout import GROUND_TRUTH_FILE, OBSERVATION_FILE, SPEC_FILE
    from reacthuman.out_folder import only_files_below

    if not (folder / SUMMARY_FILE).is_file():
        return f"no {SUMMARY_FILE}"
    names = {SUMMARY_FILE, OBSERVATION_FILE, GROUND_TRUTH_FILE, SPEC_FILE}
    return only_files_below(folder, names, suffixes=(".png",))


def cmd_observe(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from reacthuman.out_folder import claim, mark, write_text
    from reacthuman.sim.cache import ObservationCache
    from reacthuman.sim.observe import Observer, observe_all

    out = Path(args.out)
    claim(out, "observe", "observation folder", legacy=legacy_observations)  # before any work
    target = Path(args.path)
    if not target.exists():
        raise CliError(f"{target}: no such file or folder")
    settings = render_settings(args.resolution, args.frames, args.window)
    specs, unreadable = load_specs(target)  # a scene that cannot be read is its own error
    for problem in unreadable:
        print(f"unreadable: {problem}", file=sys.stderr)
    if not specs:
        raise CliError(f"{target}: none of its {len(unreadable)} scenes could be read")
    try:
        mark(out, "observe")
    except OSError as exc:
        raise CliError(f"{out}: cannot write here: {exc.strerror}") from None
    observer = Observer(settings, ObservationCache(args.cache) if args.cache else None)
    counts = {"ok": 0, "rejected": 0, "failed": 0, "cached": 0}
    with tqdm(
        total=len(specs), desc="observing", unit="scene", disable=args.quiet, file=sys.stderr
    ) as bar:

        def tick(result) -> None:
            counts[result.status] += 1
            counts["cached"] += result.cached
            bar.set_postfix(counts, refresh=False)
            bar.update(1)
            if result.status != "ok":
                bar.write(f"{result.status} {result.scene_id}: {'; '.join(result.reasons)}")

        results = observe_all(specs, observer, out, tick, jobs=args.jobs, legend=args.legend)
    summary = {
        "settings": settings.model_dump(),
        "legend": args.legend,
        "unreadable": unreadable,
        "scenes": [
            {
                "scene_id": r.scene_id,
                "status": r.status,
                "reasons": list(r.reasons),
                "cached": r.cached,
                "seconds": round(r.seconds, 3),
            }
            for r in results
        ],
    }
    write_text(out, out / SUMMARY_FILE, json.dumps(summary, indent=2) + "\n")
    print(
        f"{counts['ok']} observed, {counts['rejected']} rejected, {counts['failed']} failed, "
        f"{len(unreadable)} unreadable ({counts['cached']} from the cache) -> {out}"
    )
    if unreadable:
        print(
            f"{len(unreadable)} scene(s) could not be read:\n  " + "\n  ".join(unreadable),
            file=sys.stderr,
        )
    return 1 if counts["failed"] or unreadable else 0
