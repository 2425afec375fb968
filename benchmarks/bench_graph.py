"""Node graph vs direct path: wall seconds per episode on the same scenes and plans.

    .venv/bin/python benchmarks/bench_graph.py [--limit 17] [--resolution 640x360]

The direct path runs each episode in process (play, decide, execute, score); the graph runs
the same scenes through `reacthuman bench`'s nodes composed in one process, and as five
processes like `ros2 launch` (bags recorded in both); the simulator node times each episode
from the start of its play to its score (run_dir/timings.jsonl). The first
episode of each path (Genesis warm-up) is left out. Also prints the lock-step's cost per
control tick: (graph execution - direct execution) / ticks.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path


def direct(specs, settings, run: Path) -> list[dict[str, float]]:  # noqa: ANN001
    from reacthuman.brain.run import OracleBrain
    from reacthuman.runner import (
        BrainRunner,
        episode_folder,
        execute_decision,
        play,
        write_observation,
    )
    from reacthuman.scoring.run import score_row
    from reacthuman.sim.episode import Simulator
    from reacthuman.spine.standin import KinematicStandIn

    simulator, brain, runner = Simulator(), OracleBrain(), BrainRunner(None)
    out = []
    for spec in specs:
        started = time.perf_counter()
        played = play(simulator, spec, settings)
        folder = episode_folder(run, brain.name, spec.scene_id)
        write_observation(folder, played.observation, played.frames)
        (folder / "ground_truth.json").write_text(played.truth.to_json())
        decision = runner.decide(brain, played.observation, folder, 60.0)
        executing = time.perf_counter()
        outcome = execute_decision(played, decision, KinematicStandIn())
        executed = time.perf_counter()
        score_row(decision, played.truth, spec, outcome)
        simulator.destroy(played.episode)
        out.append({"total": time.perf_counter() - started, "execute": executed - executing})
    runner.close()
    return out


def processes(run: Path, limit: int, width: int, height: int) -> list[dict[str, float]]:
    """The graph as five processes (what `ros2 launch` starts); the simulator's timings.jsonl."""
    import json
    import os
    import signal
    import subprocess
    import sys

    from reacthuman.ros.graph import isolate

    env = dict(os.environ)
    isolate(env)
    env.setdefault("AMENT_PREFIX_PATH", sys.prefix)
    common = ["-p", f"run_dir:={run}", "-p", "brain:=oracle"]
    helpers = [
        subprocess.Popen(
            [sys.executable, "-m", f"reacthuman.ros.{node}", "--ros-args", *common],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for node in ("brain_node", "spine_node", "scorer_node", "recorder_node")
    ]
    sim = [sys.executable, "-m", "reacthuman.ros.sim_node", "--ros-args", *common]
    sim += ["-p", f"limit:={limit}", "-p", f"width:={width}", "-p", f"height:={height}"]
    subprocess.run(sim, env=env, check=True, capture_output=True, timeout=3600)
    for helper in helpers:
        helper.send_signal(signal.SIGINT)
        helper.wait(timeout=60)
    return [json.loads(line) for line in (run / "timings.jsonl").read_text().splitlines()]


def report(name: str, episodes: list[dict[str, float]], base: list[dict[str, float]]) -> None:
    total = statistics.median(e["total"] for e in episodes)
    execution = statistics.median(e["execute"] for e in episodes)
    line = f"{name:<22} {total:.3f} s per episode, execution {execution:.3f} s"
    if "command_wait" in episodes[0]:
        waits = statistics.median(e["command_wait"] for e in episodes)
        line += f" (waiting for commands {waits:.3f} s)"
    if episodes is not base:
        b_total = statistics.median(e["total"] for e in base)
        b_exec = statistics.median(e["execute"] for e in base)
        ticks = episodes[0]["ticks"]
        line += (
            f"; overhead {100 * (total / b_total - 1):+.1f} % per episode, lock-step "
            f"{1000 * (execution - b_exec) / ticks:.2f} ms per control tick"
        )
    print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=17)
    parser.add_argument("--resolution", default="640x360")
    args = parser.parse_args()

    from reacthuman.ros.graph import compose
    from reacthuman.runner import bench_scenes
    from reacthuman.sim.settings import RenderSettings, parse_resolution

    width, height = parse_resolution(args.resolution)
    settings = RenderSettings(width=width, height=height)
    specs = bench_scenes(limit=args.limit)
    with tempfile.TemporaryDirectory() as tmp:
        plain = direct(specs, settings, Path(tmp) / "direct")[1:]
        composed = compose(
            {"run_dir": str(Path(tmp) / "graph"), "brain": "oracle", "limit": args.limit,
             "width": width, "height": height},
        ).timings[1:]  # fmt: skip
        separate = processes(Path(tmp) / "processes", args.limit, width, height)[1:]
    print(f"{len(plain)} episodes per path at {width}x{height} (medians, first left out)")
    report("direct (in process)", plain, plain)
    report("graph, composed", composed, plain)
    report("graph, 5 processes", separate, plain)


if __name__ == "__main__":
    main()
