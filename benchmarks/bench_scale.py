"""Paper scale: scenes x 7 brains, every plan executed on the G1, report written.

    .venv/bin/python benchmarks/bench_scale.py [--scenes SET] [--limit N] [--brains 7]
        [--paths direct graph] [--workers 1 2] [--ray] [--resolution 640x360] [--out DIR]
        [--no-bags]

Runs `reacthuman bench` once per path (direct, node graph) and worker count, each into a
fresh run folder, the seven baselines standing in for models (no API latency). Every scene is
played once and each brain's plan executed from its freeze. Prints, per run: wall time, time
per scene and per decision, the phases summed from timings.jsonl (build, physics to the
freeze, rendering, ground-truth roll-out, decisions, executions, scoring and, through the
graph, the lock-step's waiting), peak RSS of the largest process and of all together, peak
RSS and CPU seconds by role (bench, worker, Genesis worker, node; a process's CPU as last
sampled, so up to half a second of each may be missed) and RSS at each tenth of the run (flat or
growing; sampled every 30 s into ``--json``), the
extrapolation to 306 scenes, the graph's overhead against the direct path and the speed-up of
N workers over one; with ``--ray``, also each path on a Ray started on this machine (a task
per core) and Ray's overhead against the local pool of as many workers; and whether every run
wrote the same score rows.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

BRAINS = (
    "oracle",
    "heuristic",
    "always-dodge",
    "always-catch",
    "no-action",
    "random",
    "legend-only",
)
PHASES = ("build", "to_freeze", "render", "truth", "decide", "execute", "score", "command_wait")
PAPER_SCENES = 306
TRACE_EVERY = 30.0  # s between memory samples kept in the figures


def run_bench(
    out: Path, path: str, workers: int | None, args: argparse.Namespace
) -> dict[str, float | int | str]:
    """One `reacthuman bench` run (``workers`` None: on a Ray started for it), its wall time
    and the peak memory of its processes."""
    command = [sys.executable, "-m", "reacthuman", "bench", "--out", str(out)]
    command += ["--workers", str(workers)] if workers else ["--ray"]
    command += ["--resolution", args.resolution]
    command += [arg for brain in BRAINS[: args.brains] for arg in ("--brain", brain)]
    if args.scenes:
        command += ["--scenes", args.scenes]
    if args.limit:
        command += ["--limit", str(args.limit)]
    if path == "direct":
        command.append("--direct")
    elif args.no_bags:
        command.append("--no-bags")
    started = time.perf_counter()
    log = (out.parent / f"{out.name}.log").open("w")
    bench = psutil.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    peak_one = peak_all = 0
    peaks: dict[int, dict[str, float | str]] = {}  # pid -> its role, peak RSS, first/last seen
    trace: list[dict[str, float | int]] = []  # every TRACE_EVERY s: scored episodes, RSS
    while bench.poll() is None:
        now = time.perf_counter() - started
        try:
            tree = [bench, *bench.children(recursive=True)]
            sizes = {p.pid: (p.memory_info().rss, p.cpu_times(), p) for p in tree if p.is_running()}
        except psutil.Error:
            continue
        for pid, (rss, cpu, process) in sizes.items():
            seen = peaks.setdefault(pid, {"role": role(process), "peak_gb": 0.0, "from_s": now})
            seen["peak_gb"] = max(float(seen["peak_gb"]), rss / 2**30)
            seen["cpu_s"] = cpu.user + cpu.system  # as last seen: a poll's worth may be missed
            seen["to_s"] = now
        rss_all = [rss for rss, _, _ in sizes.values()]
        peak_one, peak_all = max(peak_one, *rss_all), max(peak_all, sum(rss_all))
        if not trace or now - float(trace[-1]["s"]) >= TRACE_EVERY:
            trace.append(
                {
                    "s": round(now, 1),
                    "episodes": scored(out),
                    "largest_gb": max(rss_all) / 2**30,
                    "total_gb": sum(rss_all) / 2**30,
                }
            )
        time.sleep(0.5)
    wall = time.perf_counter() - started
    log.close()
    if bench.returncode != 0:
        raise SystemExit(f"{out.name} failed ({bench.returncode}): see {log.name}")
    return {
        "wall": wall,
        "peak_process_gb": peak_one / 2**30,
        "peak_total_gb": peak_all / 2**30,
        "processes": sorted(peaks.values(), key=lambda p: float(p["from_s"])),
        "memory_trace": trace,
    }


def role(process: psutil.Process) -> str:
    """What a process of the run is, from its command line (bench, a worker, a node...)."""
    try:
        words = process.cmdline()
    except psutil.Error:
        return "?"
    text = " ".join(words)
    for needle, name in (
        ("--shard", "bench worker"),
        ("episode_host", "Genesis worker"),
        ("multiprocessing", "pool worker"),
        ("ray::", "Ray task"),
        ("_node", "node"),
        (" bench ", "bench"),
    ):
        if needle in text:
            return name
    return words[0].rsplit("/", 1)[-1] if words else "?"


def scored(run: Path) -> int:
    """Score rows written so far (0 before results.sqlite exists or while it is locked)."""
    try:
        with sqlite3.connect(f"file:{run / 'results.sqlite'}?mode=ro", uri=True) as db:
            return int(db.execute("SELECT count(*) FROM scores").fetchone()[0])
    except sqlite3.Error:
        return 0


def memory_table(figure: dict) -> list[str]:
    """RSS at every tenth of the run (to see whether it stays flat) and peak RSS by role."""
    trace = figure["memory_trace"]
    lines = []
    for tenth in range(1, 11):
        at = trace[min(len(trace) - 1, round(tenth / 10 * (len(trace) - 1)))] if trace else None
        if at:
            lines.append(
                f"  {at['s']:7.0f} s  {at['episodes']:5d} scored  largest "
                f"{at['largest_gb']:.2f} GB  all {at['total_gb']:.2f} GB"
            )
    by_role: dict[str, list[float]] = {}
    cpu: dict[str, float] = {}
    for process in figure["processes"]:
        name = str(process["role"])
        by_role.setdefault(name, []).append(float(process["peak_gb"]))
        cpu[name] = cpu.get(name, 0.0) + float(process.get("cpu_s", 0.0))
    for name, peaks in sorted(by_role.items()):
        lines.append(
            f"  {name}: {len(peaks)} process(es), peak RSS max {max(peaks):.2f} GB, "
            f"CPU {cpu[name]:.0f} s"
        )
    return lines


def phases(run: Path) -> dict[str, float]:
    """Seconds summed over the run's episodes, by phase (timings.jsonl)."""
    sums = dict.fromkeys(PHASES, 0.0)
    episodes = scenes = 0
    for line in (run / "timings.jsonl").read_text().splitlines():
        timing = json.loads(line)
        episodes += 1
        scenes += "build" in timing
        for phase in PHASES:
            key = "publish_and_decide" if phase == "decide" and "decide" not in timing else phase
            key = "score_wait" if phase == "score" and "score" not in timing else key
            sums[phase] += float(timing.get(key, 0.0))
    return {**sums, "episodes": episodes, "scenes": scenes}


def score_rows(run: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(run / "results.sqlite") as db:
        return db.execute("SELECT brain, scene_id, row FROM scores ORDER BY 1, 2").fetchall()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", help="scene-set folder (default: the embedded 17 scenes)")
    parser.add_argument("--limit", type=int, help="only the first N scenes")
    parser.add_argument("--brains", type=int, default=len(BRAINS), help="how many baselines")
    parser.add_argument("--paths", nargs="+", default=["direct", "graph"])
    parser.add_argument("--workers", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--ray", action="store_true", help="each path on Ray too")
    parser.add_argument("--resolution", default="640x360")
    parser.add_argument(
        "--out", help="where the run folders go (default: a temporary folder, removed at the end)"
    )
    parser.add_argument("--json", help="write the figures here as JSON")
    parser.add_argument(
        "--no-bags",
        action="store_true",
        help="the graph records no bags (the direct path never does)",
    )
    args = parser.parse_args()
    root = Path(args.out or tempfile.mkdtemp(prefix="bench-scale-"))
    root.mkdir(parents=True, exist_ok=True)
    if args.out is None:  # a temporary folder goes when the run ends (a 306 x 7 run's bags: 22 GB)
        atexit.register(shutil.rmtree, root, True)
    bags = "no bags" if args.no_bags else "the graph records bags"
    print(f"cores {os.cpu_count()}, {args.brains} brains, {args.resolution}, {bags} -> {root}")
    figures: dict[str, dict] = {}
    runs: list[tuple[str, int | None]] = [(p, w) for p in args.paths for w in args.workers]
    runs += [(p, None) for p in args.paths] if args.ray else []
    for path, workers in runs:
        name = f"{path}-x{workers}" if workers else f"{path}-ray"
        run = root / name
        figure = run_bench(run, path, workers, args)
        figure.update(phases(run))
        figures[name] = figure
        scenes, episodes, wall = figure["scenes"], figure["episodes"], figure["wall"]
        parts = ", ".join(f"{p} {figure[p] / scenes:.2f}" for p in PHASES if figure[p])
        print(
            f"{name:<10} {wall:7.0f} s for {scenes} scenes x {args.brains} brains "
            f"({episodes} decisions): {wall / scenes:.2f} s per scene, "
            f"{wall / episodes:.2f} s per decision; 306 scenes: "
            f"{wall / scenes * PAPER_SCENES / 60:.1f} min; peak RSS "
            f"{figure['peak_process_gb']:.2f} GB (largest process), "
            f"{figure['peak_total_gb']:.2f} GB (all)"
        )
        print(f"{'':<10} seconds per scene, summed over workers: {parts}")
        print("\n".join(memory_table(figure)), flush=True)
    for workers in args.workers:
        direct, graph = figures.get(f"direct-x{workers}"), figures.get(f"graph-x{workers}")
        if direct and graph:
            overhead = 100 * (graph["wall"] / direct["wall"] - 1)
            print(f"graph vs direct, {workers} worker(s): {overhead:+.1f} % wall")
    for path in args.paths:
        one, most = figures.get(f"{path}-x1"), figures.get(f"{path}-x{max(args.workers)}")
        if one and most and one is not most:
            print(f"{path}: x{max(args.workers)} workers {one['wall'] / most['wall']:.2f}x one")
    cores = os.cpu_count() or 1
    for path in args.paths:
        local, ray = figures.get(f"{path}-x{cores}"), figures.get(f"{path}-ray")
        if local and ray:
            overhead = 100 * (ray["wall"] / local["wall"] - 1)
            print(
                f"{path}: Ray ({cores} tasks at once) vs {cores} local workers: {overhead:+.1f} %",
                flush=True,
            )
    rows = {name: score_rows(root / name) for name in figures}
    first = next(iter(rows.values()))
    print(f"every run the same score rows: {all(r == first for r in rows.values())}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
