"""What a fresh process pays before its first scene: Genesis imported and initialised, the
hand tracker's kinematic G1, the first scene built and played (kernels from the cache).

    .venv/bin/python benchmarks/bench_startup.py [--repeat 3] [--resolution 640x360]

Every Genesis worker of a bench (one per 20 scenes by default), every spine node and every
test process pays this once. Each repeat is a new interpreter (``python -c``), so nothing is
shared but the kernel cache on disk; the figures are medians over the repeats.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

PROBE = """
import json, sys, time
marks = {}
started = time.perf_counter()
from reacthuman.genesis_runtime import genesis
genesis()
marks["import and init Genesis"] = time.perf_counter() - started
t = time.perf_counter()
from reacthuman.spine.hands import HandTracker
HandTracker()
marks["hand tracker's kinematic G1"] = time.perf_counter() - t
from reacthuman.episode_host import SceneHost
from reacthuman.runner import bench_scenes
from reacthuman.sim.settings import RenderSettings
width, height = (int(v) for v in sys.argv[1].split("x"))
host = SceneHost("g1")
for n, spec in enumerate(bench_scenes(limit=2)):
    t = time.perf_counter()
    host.play(spec, RenderSettings(width=width, height=height))
    host.finish()
    marks["first scene played" if n == 0 else "second scene played"] = time.perf_counter() - t
marks["total"] = time.perf_counter() - started
print(json.dumps(marks))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--resolution", default="640x360")
    args = parser.parse_args()
    runs: list[dict[str, float]] = []
    for n in range(args.repeat):
        done = subprocess.run(
            [sys.executable, "-c", PROBE, args.resolution],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"the probe failed ({done.returncode}):\n{done.stderr[-3000:]}")
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
        print(f"run {n + 1}: " + ", ".join(f"{k} {v:.2f} s" for k, v in runs[-1].items()))
    print(f"median of {len(runs)} fresh processes:")
    for key in runs[0]:
        print(f"  {key:<30} {statistics.median(r[key] for r in runs):6.2f} s")


if __name__ == "__main__":
    main()
