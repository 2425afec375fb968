"""Memory of a long bench: resident memory of `reacthuman bench` and its processes over a run.

    .venv/bin/python benchmarks/bench_memory.py [--brains 6] [--scenes DIR] [--limit 17]
        [--out DIR] [--resolution 640x360] [--interval 0.5]

Runs `reacthuman bench` on the embedded default (17 scenes; ``--scenes``: a set folder) with
the first ``--brains`` of the baseline brains (6 brains: 102 episodes, 1 brain: 17; one brain
on 102 scenes of `scenes generate --per-family 6`: 102 different scenes) in a fresh run
folder, samples the
resident set of the bench process and of every process it started (the Genesis worker) every
``--interval`` s, and prints the peak of their sum, the sum after each scored episode and the
bench process's own growth per episode (a least-squares slope; the worker's memory is reset
each time it is replaced).
The issue's acceptance compares the peak of 102 episodes with the peak of 17.
"""

from __future__ import annotations

import argparse
import os
import selectors
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

BRAINS = ("oracle", "heuristic", "always-dodge", "always-catch", "no-action", "random")
MB = 1024 * 1024


def tree_rss(process: psutil.Process) -> tuple[int, int]:
    """Bytes resident in ``process`` and in all its descendants together."""
    own = children = 0
    for member in [process, *process.children(recursive=True)]:
        try:
            rss = member.memory_info().rss
        except psutil.Error:  # gone between listing and reading
            continue
        if member.pid == process.pid:
            own = rss
        else:
            children += rss
    return own, children


def slope(points: list[tuple[int, float]]) -> float:
    """Least-squares MB per episode of (episode, MB) points."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--brains", type=int, default=6, choices=range(1, len(BRAINS) + 1))
    parser.add_argument("--scenes", help="scene-set folder (default: the embedded 17)")
    parser.add_argument("--limit", type=int, default=17)
    parser.add_argument("--resolution", default="640x360")
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--out", type=Path, help="run folder (default: a temporary one)")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="bench-memory-")) / "run"
    command = [sys.executable, "-m", "reacthuman", "bench", "--out", str(out)]
    command += ["--limit", str(args.limit), "--resolution", args.resolution]
    if args.scenes:
        command += ["--scenes", args.scenes]
    for brain in BRAINS[: args.brains]:
        command += ["--brain", brain]
    print("running:", " ".join(command), flush=True)
    started = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    process = psutil.Process(child.pid)
    peak = 0
    per_episode: list[tuple[int, float]] = []  # (episodes done, MB of bench and worker)
    bench_alone: list[tuple[int, float]] = []  # (episodes done, MB of the bench process)
    timings = out / "timings.jsonl"
    assert child.stdout is not None
    os.set_blocking(child.stdout.fileno(), False)
    selector = selectors.DefaultSelector()
    selector.register(child.stdout, selectors.EVENT_READ)
    log: list[str] = []
    while child.poll() is None:
        for _key, _events in selector.select(timeout=args.interval):
            chunk = child.stdout.read()
            if chunk:
                log.append(chunk)
        own, children = tree_rss(process)
        rss = own + children
        peak = max(peak, rss)
        done = sum(1 for _ in timings.open()) if timings.exists() else 0
        if done > len(per_episode):
            per_episode.append((done, rss / MB))
            bench_alone.append((done, own / MB))
            print(
                f"  episode {done:3d}: {rss / MB:7.0f} MB = bench {own / MB:5.0f} + worker "
                f"{children / MB:5.0f} (peak {peak / MB:.0f} MB)",
                flush=True,
            )
    rest = child.stdout.read()
    if rest:
        log.append(rest)
    wall = time.monotonic() - started
    if child.returncode != 0:
        print("".join(log)[-4000:])
        raise SystemExit(f"bench exited with {child.returncode}")
    print(
        f"{len(per_episode)} episodes in {wall:.0f} s: peak RSS {peak / MB:.0f} MB (bench and "
        f"its processes); {per_episode[0][1]:.0f} MB after the first episode, "
        f"{per_episode[-1][1]:.0f} MB after the last; the bench process alone "
        f"{bench_alone[0][1]:.0f} -> {bench_alone[-1][1]:.0f} MB, "
        f"{slope(bench_alone):+.1f} MB per episode"
    )
    if args.out is None:
        shutil.rmtree(out.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
