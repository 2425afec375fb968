"""``reacthuman bench``: the main job, through the ROS 2 node graph (or --direct)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from reacthuman.cli.common import CliError, render_settings
from reacthuman.cli.ray_pool import DEFAULT_GROUP_SIZE

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
    bench.add_argument("--shard", help=argparse.SUPPRESS)  # "I/N": one worker's share
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
    from reacthuman.run_folder import LIBRARY_LOG_FILE
    from reacthuman.runner import bench_skipped, read_bench_set

    run = Path(args.out)
    if args.direct and args.spine_link != "ros":
        raise CliError("--spine-link unitree runs through the node graph: drop --direct")
    check_run_folder(run)
    shard = parse_shard(args.shard)
    if not args.direct and shard is None:  # a DDS domain no other run holds, before any work
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
    if shard is None:
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
    if args.ray is not None and shard is not None:
        raise CliError("--ray runs the whole set: drop --shard")
    if args.ray_group_size < 1:
        raise CliError(f"--ray-group-size must be at least 1, got {args.ray_group_size}")
    from reacthuman.spine.controller import make_controller

    try:
        make_controller(args.controller, args.policy_path)  # a bad body fails before any work
    except (ValueError, RuntimeError) as exc:
        raise CliError(f"--controller {args.controller}: {exc}") from None
    # Every check passed: the run folder is made. The simulator's warnings go there, not
    # between the results (every worker process inherits the variable); a user's own wins.
    mark(run, "bench")
    library_log = os.environ.setdefault(LIBRARY_LOG, str((run / LIBRARY_LOG_FILE).resolve()))
    if shard is not None:  # a worker of a --workers run: its share, no report
        index, count = shard
        return run_episodes(args, chosen_scenes[index::count], brains, settings, shard)
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
    if args.ray is not None:
        from reacthuman.cli.ray_pool import run_ray

        status = run_ray(args, chosen_scenes, brains, _progress)
    elif workers > 1:
        status = run_workers(args, workers)
    else:
        status = run_episodes(args, chosen_scenes, brains, settings)
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


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """A worker's share, "I/N": every N-th scene from the I-th (0-based)."""
    if text is None:
        return None
    try:
        index, count = (int(part) for part in text.split("/"))
    except ValueError:
        raise CliError(f"--shard {text!r}: expected I/N, e.g. 0/2") from None
    if not 0 <= index < count:
        raise CliError(f"--shard {text!r}: I must be in 0..N-1")
    return index, count


def run_episodes(
    args: argparse.Namespace,
    scenes: list,
    brains: list[str],
    settings: Any,
    shard: tuple[int, int] | None = None,
) -> int:
    """Every scene with every brain in this process, on the direct path or through the node
    graph composed here (``shard``: this worker's share of the --scenes set); 0 when all
    were scored, 1 when the run failed."""
    run = Path(args.out)
    if args.direct:
        from reacthuman.brain.run import make_brain
        from reacthuman.direct import run_direct
        from reacthuman.episode_host import EPISODES_PER_PROCESS

        chosen = [
            make_brain(name, args.base_url or "", args.api_key_env or "", 0.0, 120.0)
            for name in brains
        ]
        run_direct(
            [scene.spec for scene in scenes],
            chosen,
            run,
            settings,
            args.controller,
            args.policy_path,
            args.brain_timeout,
            on_row=_progress,
            videos=args.videos,
            legend=args.legend,
            episodes_per_process=EPISODES_PER_PROCESS
            if args.episodes_per_process is None
            else args.episodes_per_process,
        )
        return 0
    from reacthuman.ros.graph import compose

    overrides = {
        "run_dir": str(run),
        "brain": ",".join(brains),
        "base_url": args.base_url or "",
        "scenes": str(args.scenes or "default"),
        "limit": args.limit or 0,
        "shard": shard[0] if shard else 0,
        "shards": shard[1] if shard else 1,
        "width": settings.width,
        "height": settings.height,
        "frames": settings.frames,
        "brain_timeout": float(args.brain_timeout),
        "controller": args.controller,
        "policy_path": args.policy_path or "",
        "videos": bool(args.videos),
        "legend": bool(args.legend),
    }
    if args.api_key_env:
        overrides["api_key_env"] = args.api_key_env
    if args.episodes_per_process is not None:
        overrides["episodes_per_process"] = args.episodes_per_process
    if args.spine_link == "unitree":
        overrides.update(unitree_overrides())
    result = compose(
        overrides,
        record=not args.no_bags,
        parameters=Path(args.params) if args.params else None,
        on_row=_progress,
    )
    print(
        f"{'worker ' + args.shard + ': ' if shard else ''}{result.status.state}, "
        f"{result.status.episodes} episode(s), {len(result.bags)} bag(s), "
        f"ROS_DOMAIN_ID {result.domain_id}",
        file=sys.stderr,
    )
    if result.status.state == "stopped":
        raise KeyboardInterrupt
    if result.status.state == "failed":
        print(f"reacthuman: error: {result.status.reason}", file=sys.stderr)
        return 1
    return 0


def run_workers(args: argparse.Namespace, workers: int) -> int:
    """The run in ``workers`` processes (``reacthuman bench --shard I/N``), each on every N-th
    scene, writing into the same run folder (its SQLite stores take concurrent writers; every
    episode has folders and a bag of its own); through the graph, each worker's nodes on a
    DDS domain this process holds for it. 0 when every worker finished, 1 otherwise."""
    import subprocess

    from reacthuman.cli.ray_pool import without_options

    argv = without_options(args.argv, {"--workers": "value"})
    env_for: list[dict[str, str]] = []
    for _ in range(workers):
        env = dict(os.environ)
        if not args.direct:
            from reacthuman.ros.graph import DomainInUse, free_domain

            try:  # held by this process, lent to the worker (``graph.isolate``)
                env["ROS_DOMAIN_ID"] = str(free_domain())
            except DomainInUse as exc:
                raise CliError(str(exc)) from None
        env_for.append(env)
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "reacthuman", *argv, "--shard", f"{i}/{workers}"],
            env=env_for[i],
        )
        for i in range(workers)
    ]
    codes: list[int | None] = [None] * workers
    try:
        for i, process in enumerate(processes):
            codes[i] = process.wait()
    except KeyboardInterrupt:  # Ctrl-C reached the workers too: they finish their episode
        for process in processes:
            process.wait()
        raise
    failed = [f"worker {i}/{workers} exited ({code})" for i, code in enumerate(codes) if code]
    for problem in failed:
        print(f"reacthuman: error: {problem}; a rerun into the same --out resumes", file=sys.stderr)
    if any(code == 130 for code in codes):
        raise KeyboardInterrupt
    return 1 if failed else 0


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


def unitree_overrides() -> dict[str, object]:
    """Node parameters for a graph whose executions go over Unitree's interface on loopback:
    a DDS domain of its own (held like ROS_DOMAIN_ID), the spine on the G1 backend started by
    the simulator's execute messages without a soft start (the simulated G1 is standing at
    every freeze), the guard armed as soon as both ends are there.

    The guard's two watchdogs get the lock-step's patience (``LOCK_STEP_TIMEOUT``, the time
    the simulator itself waits for a tick's command): their 100 ms defaults are wall clock
    for a robot that keeps moving, but this robot stands frozen until each tick is answered,
    and a busy host stalls its heartbeat or the spine for longer (CI, two loaded cores: the
    heartbeat stalled 464 ms, and the trip latched damping into later executions). A tick
    answered by damping ends the run with the guard's reason (``unitree.link.GuardDamped``),
    never a score.
    """
    from reacthuman.ros.graph import free_domain
    from reacthuman.unitree.link import LOCK_STEP_TIMEOUT

    domain = free_domain()
    return {
        "state_timeout": LOCK_STEP_TIMEOUT,
        "command_timeout": LOCK_STEP_TIMEOUT,  # the simulator's own, the guard's the same
        "spine_link": "unitree",
        "backend": "g1",
        "start_on": "execute",
        "soft_start": 0.0,
        "arm": True,
        "network_interface": "lo",
        "dds_domain": domain,
    }
