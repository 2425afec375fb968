"""``reacthuman bench``: the main job, through the ROS 2 node graph (or --direct)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reacthuman.cli.common import CliError, render_settings
from reacthuman.pool import DEFAULT_GROUP_SIZE

if TYPE_CHECKING:
    from reacthuman.pool.config import RunConfig

DEFAULT_BRAINS = ("oracle", "heuristic", "always-dodge")


def add_parser(commands: Any) -> None:
    bench = commands.add_parser(
        "bench",
        help="run the benchmark through the ROS 2 node graph (the main job)",
        description="Play scenes through the sim, brain, spine and scorer nodes (composed in "
        "this process; `ros2 launch reacthuman bench.launch.py` runs the same nodes as "
        "separate processes), record one rosbag2 MCAP bag per episode, print a results "
        "table and write the report. Default: one scene per family with the oracle, "
        "heuristic and always-dodge brains. A rerun into the same --out resumes.",
    )
    bench.add_argument("--out", default="runs/latest", help="run folder (default runs/latest)")
    bench.add_argument(
        "--scenes", help="scene-set folder (reacthuman scenes generate); default: embedded"
    )
    bench.add_argument(
        "--brain",
        action="append",
        help="baseline brain, repeatable (default, without --model: oracle, heuristic, "
        "always-dodge)",
    )
    bench.add_argument(
        "--model", action="append", help="model id at --base-url, repeatable (with any --brain)"
    )
    bench.add_argument("--base-url", help="OpenAI-compatible endpoint, e.g. OpenRouter's")
    bench.add_argument(
        "--api-key-env", help="environment variable holding the key (default: OPENROUTER_API_KEY)"
    )
    bench.add_argument("--limit", type=int, help="only the first N scenes")
    bench.add_argument("--resolution", default="640x360", help="camera resolution (16:9)")
    bench.add_argument(
        "--frames",
        type=int,
        default=5,
        metavar="N",
        help="frames per view, evenly spaced over the window (default 5; 37 over a 0.6 s "
        "window is the paper's 60 fps)",
    )
    bench.add_argument("--brain-timeout", type=float, default=120.0, help="s per decision")
    bench.add_argument("--no-bags", action="store_true", help="do not record rosbag2 bags")
    bench.add_argument(
        "--controller",
        default="g1",
        help="the robot and its controller: g1 (= g1-holosoma-fastsac, default), g1-holosoma-ppo, "
        "g1-unitree-motion (with --policy-path), or kinematic-stand-in",
    )
    bench.add_argument("--policy-path", help="Unitree's motion.pt, for g1-unitree-motion")
    bench.add_argument(
        "--videos",
        action="store_true",
        help="render each execution's close-up view to episodes/<brain>/<scene>/execution.mp4",
    )
    bench.add_argument(
        "--legend",
        action="store_true",
        help="ablation: observations also list the objects by how they look, under neutral "
        "ids (the paper's models get frames only; use its own --out)",
    )
    bench.add_argument(
        "--episodes-per-process",
        type=int,
        help="scenes played in one Genesis worker process before a fresh one replaces it, "
        "keeping memory flat (default 40, from the parameter file; 0: in this process)",
    )
    bench.add_argument(
        "--workers",
        type=int,
        help="run the scenes in this many processes at once, each its own node graph (or "
        "direct loop) on every N-th scene; results, bags and report as from one (default: "
        "the CPU cores, at most one per scene)",
    )
    bench.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="run the scenes as Ray tasks on a cluster (its head's ADDRESS, e.g. 10.0.0.5:6379; "
        "without one: RAY_ADDRESS, or a Ray started on this machine): every node needs this "
        "ReactHuman; results, bags and report as from a local run",
    )
    bench.add_argument(
        "--ray-group-size",
        type=int,
        default=DEFAULT_GROUP_SIZE,
        help=f"at most this many scenes per Ray task (default {DEFAULT_GROUP_SIZE}; at least "
        "one task per CPU of the cluster)",
    )
    bench.add_argument(
        "--spine-link",
        choices=("ros", "unitree"),
        default="ros",
        help="how executions reach the spine: ros (default) or unitree: the simulated G1 on "
        "Unitree's DDS interface (rt/lowstate, rt/lowcmd) with the spine on backend:=g1 and "
        "the guard, as against a physical G1",
    )
    bench.add_argument("--params", help="parameter file (default config/bench.yaml)")
    bench.add_argument(
        "--direct",
        action="store_true",
        help="run the same episodes in process without ROS 2 (for comparison and benchmarks)",
    )
    bench.set_defaults(func=cmd_bench)


def check_run_folder(run: Path) -> None:
    """``--out`` is new, empty, or a run a bench made (its marker; a rerun resumes it), or
    one an older bench made (``run_folder.legacy_run``), with no symbolic link in it.
    Anything else is refused before any work: a bench writes scores.csv and report/ there
    and would replace a user's files (``reacthuman.out_folder``)."""
    from reacthuman.out_folder import OutFolderError, claim
    from reacthuman.run_folder import legacy_run

    try:
        claim(run, "bench", "bench run", legacy=legacy_run)
    except OutFolderError as exc:
        raise CliError(str(exc)) from None
    # A damaged or read-only store is refused before any work, not at the first score.
    from reacthuman.brain.store import ResponseStore
    from reacthuman.scoring.results import ResultsStore
    from reacthuman.sqlite_store import StoreError

    for name, kind in (("results.sqlite", ResultsStore), ("responses.sqlite", ResponseStore)):
        if (run / name).exists():
            try:
                store = kind(run / name)
                store.check_writable()
                store.close()
            except StoreError as exc:
                raise CliError(f"--out {run}: {exc}") from None


def results_table(rows: list) -> str:
    from reacthuman.scoring.aggregate import by, summarise_brain
    from reacthuman.scoring.report_tables import pct

    header = f"{'brain':<22}{'n':>4}  {'SAA % [95% CI]':<22}{'safety % [95% CI]':<22}"
    header += f"{'R1':>4}  outcomes (caught/struck/clear/fell)"
    lines = [header, "-" * len(header)]
    for brain, group in sorted(by(rows, lambda r: r.brain).items()):
        summary = summarise_brain(group)
        outcomes = Counter(r.outcome.value for r in group if r.outcome is not None)
        spread = "/".join(str(outcomes[k]) for k in ("caught", "struck", "clear", "fell"))
        lines.append(
            f"{brain:<22}{summary.decisions:>4}  {pct(summary.saa):<22}{pct(summary.safety):<22}"
            f"{summary.r1:>4}  {spread}"
        )
    return "\n".join(lines)


def cmd_bench(args: argparse.Namespace) -> int:
    from reacthuman.genesis_runtime import LIBRARY_LOG
    from reacthuman.out_folder import mark
    from reacthuman.pool.config import PoolError
    from reacthuman.pool.episodes import run_episodes
    from reacthuman.run_folder import LIBRARY_LOG_FILE
    from reacthuman.runner import bench_skipped, read_bench_set

    run = Path(args.out)
    if args.direct and args.spine_link != "ros":
        raise CliError("--spine-link unitree runs through the node graph: drop --direct")
    check_run_folder(run)
    if not args.direct:  # a DDS domain no other run holds, before any work
        from reacthuman.ros.graph import DomainInUse, isolate

        try:
            isolate()
        except DomainInUse as exc:
            raise CliError(str(exc)) from None
    settings = render_settings(args.resolution, args.frames)  # bad ones fail before any work
    brains = chosen_brains(args)
    scenes = args.scenes or "default"
    if args.limit is not None and args.limit < 1:
        raise CliError(f"--limit must be at least 1, got {args.limit}")
    try:  # the first --limit scenes are chosen, then read: one that cannot be is its error
        chosen_scenes, unreadable = read_bench_set(scenes, args.limit)
    except (OSError, ValueError) as exc:
        raise CliError(f"--scenes {scenes}: {exc}") from None
    for problem in unreadable:
        print(f"unreadable: {problem}", file=sys.stderr)
    if not chosen_scenes:
        raise CliError(
            f"--scenes {scenes}: none of its {len(unreadable)} chosen scenes can be read"
        )
    if args.episodes_per_process is not None and args.episodes_per_process < 0:
        raise CliError(
            f"--episodes-per-process must be 0 (in this process) or more, "
            f"got {args.episodes_per_process}"
        )
    if args.workers is not None and args.workers < 1:
        raise CliError(f"--workers must be at least 1, got {args.workers}")
    workers = min(args.workers or os.cpu_count() or 1, len(chosen_scenes))
    if args.ray is not None and args.workers is not None:
        raise CliError("--ray and --workers: choose one (Ray runs a task per CPU of its cluster)")
    if args.ray_group_size < 1:
        raise CliError(f"--ray-group-size must be at least 1, got {args.ray_group_size}")
    from reacthuman.spine.controller import make_controller

    try:
        make_controller(args.controller, args.policy_path)  # a bad body fails before any work
    except (ValueError, RuntimeError) as exc:
        raise CliError(f"--controller {args.controller}: {exc}") from None
    config = run_config(args, brains, settings)
    # Every check passed: the run folder is made. The simulator's warnings go there, not
    # between the results (every worker process inherits the variable); a user's own wins.
    mark(run, "bench")
    library_log = os.environ.setdefault(LIBRARY_LOG, str((run / LIBRARY_LOG_FILE).resolve()))
    mode = "direct (in process)" if args.direct else "ROS 2 node graph (composed)"
    print(
        f"ReactHuman bench: {len(chosen_scenes)} scene(s) from {scenes}, brain(s) "
        f"{', '.join(brains)}, {settings.width}x{settings.height}, {settings.frames} frames a "
        f"view, {mode}"
        + (", on Ray" if args.ray is not None else "")
        + (f", {workers} worker processes" if workers > 1 and args.ray is None else "")
        + f" -> {run}",
        file=sys.stderr,
    )
    print(f"  the simulator's warnings: {library_log}", file=sys.stderr)
    started = time.perf_counter()
    try:
        if args.ray is not None:
            from reacthuman.pool.ray_driver import run_ray

            status = run_ray(
                config, chosen_scenes, args.ray or None, args.ray_group_size, _progress
            )
        elif workers > 1:
            from reacthuman.pool.local import run_local

            status = run_local(config, workers, _progress)
        else:
            status = run_episodes(config, chosen_scenes, _progress)
    except PoolError as exc:
        raise CliError(str(exc)) from None
    skipped = bench_skipped(scenes) if args.limit is None else None
    write_results(run, chosen_scenes, started, skipped)
    if unreadable:  # named again where the run ends, and the run is not a success
        print(
            f"{len(unreadable)} scene(s) could not be read and were not run:\n  "
            + "\n  ".join(unreadable),
            file=sys.stderr,
        )
        return status or 1
    return status


def run_config(args: argparse.Namespace, brains: list[str], settings: Any) -> RunConfig:
    """The run's typed configuration from its checked options: what every worker and Ray
    task runs (``pool.config.RunConfig``)."""
    from reacthuman.pool.config import RunConfig

    return RunConfig(
        out=Path(args.out),
        scenes=str(args.scenes or "default"),
        limit=args.limit,
        brains=tuple(brains),
        base_url=args.base_url,
        api_key_env=args.api_key_env,
        settings=settings,
        brain_timeout=args.brain_timeout,
        controller=args.controller,
        policy_path=args.policy_path,
        videos=bool(args.videos),
        legend=bool(args.legend),
        episodes_per_process=args.episodes_per_process,
        record=not args.no_bags,
        spine_link=args.spine_link,
        params=args.params,
        direct=bool(args.direct),
    )


def chosen_brains(args: argparse.Namespace) -> list[str]:
    """The run's brains: every --brain (baselines), then every --model (at --base-url)."""
    from reacthuman.brain.run import baseline

    models = args.model or []
    if models and not args.base_url:
        raise CliError("--model needs --base-url (an OpenAI-compatible endpoint)")
    brains = list(args.brain or ([] if models else DEFAULT_BRAINS))
    for name in brains:
        try:
            baseline(name)
        except ValueError as exc:
            raise CliError(f"--brain: {exc}") from None
    named = brains + models
    repeated = sorted({n for n in named if named.count(n) > 1})
    if repeated:
        raise CliError(f"--brain/--model: {', '.join(repeated)} named more than once")
    if any("," in name for name in named):
        raise CliError(f"--model: a model id with a comma ({', '.join(named)})")
    return named


def write_results(
    run: Path, chosen_scenes: list, started: float, skipped: list | None = None
) -> None:
    """scores.csv / .jsonl, the scene checks and the report from the run folder, and the
    results table on the console; ``skipped``: the groups the scene set skipped (its yield)."""
    from reacthuman.out_folder import write_text
    from reacthuman.scenes.validity import VALIDITY_FILE, validity
    from reacthuman.scoring.aggregate import execution_validity, execution_validity_text
    from reacthuman.scoring.report import write_report
    from reacthuman.scoring.results import ResultsStore

    store = ResultsStore(run / "results.sqlite")
    rows = store.rows()
    csv_path, _jsonl = store.export(run)
    store.close()
    scene_checks = validity(chosen_scenes, skipped)
    write_text(run, run / VALIDITY_FILE, scene_checks.model_dump_json(indent=2) + "\n")
    md, page = write_report(
        rows, run / "report", f"ReactHuman bench: {run.name}", validity=scene_checks, root=run
    )
    print(results_table(rows))
    print("\nExecution validity: " + execution_validity_text(execution_validity(rows)))
    bags = sorted((run / "bags").glob("*/*/*/metadata.yaml")) if (run / "bags").exists() else []
    print(
        f"\n{len(rows)} decisions in {time.perf_counter() - started:.0f} s. "
        f"Scores: {csv_path}\nReport: {md} (and {page.name})\n"
        f"Bags: {len(bags)} episode(s) under {run / 'bags'}; re-score one with "
        "`reacthuman replay BAG`.\n"
        "The full 306-scene set: `reacthuman scenes generate --out scenes --simulate` then "
        "`reacthuman bench --scenes scenes --out runs/full`.\n"
        "A real model: `reacthuman bench --model MODEL_ID --base-url https://openrouter.ai/api/v1` "
        "with the key in OPENROUTER_API_KEY (or --api-key-env NAME)."
    )


def _progress(row) -> None:
    print(f"  {row.summary()}", file=sys.stderr, flush=True)
