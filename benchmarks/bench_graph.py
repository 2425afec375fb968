"""Node graph vs direct path: wall seconds per episode on the same scenes and plans.

    .venv/bin/python benchmarks/bench_graph.py [--limit 17] [--resolution 640x360]
        [--controller g1] [--repeats 1]

The direct path runs each episode in process (play, decide, execute, score); the graph runs
the same scenes through `reacthuman bench`'s nodes composed in one process, and as five
processes like `ros2 launch` (bags recorded in both); the simulator node times each episode
from the start of its play to its score (run_dir/timings.jsonl). Every path runs in a fresh
process, so that each pays the same Genesis warm-up (kernels loaded from the disk cache as
new scene structures come), and the first episode of each run is left out. Also prints the
lock-step's cost per control tick: (graph execution - direct execution) / ticks.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def direct(specs, settings, run: Path, controller: str) -> list[dict[str, float]]:
    from reacthuman.brain.run import OracleBrain
    from reacthuman.brain.runner import BrainRunner
    from reacthuman.run_folder import episode_folder, write_observation
    from reacthuman.runner import execute_decision, play
    from reacthuman.scoring.run import score_row
    from reacthuman.sim.simulator import Simulator
    from reacthuman.spine.controller import make_controller

    simulator, brain, runner = Simulator(), OracleBrain(), BrainRunner(None)
    body = make_controller(controller)
    prepare = getattr(body, "prepare", None)
    if prepare is not None:  # the graph's spine does this at start-up, outside the timings
        prepare()
    out = []
    for spec in specs:
        started = time.perf_counter()
        played = play(simulator, spec, settings, body)
        deciding = time.perf_counter()
        folder = episode_folder(run, brain.name, spec.scene_id)
        write_observation(folder, played.observation, played.frames)
        decision = runner.decide(brain, played.observation, folder, 60.0, played.truth)
        executing = time.perf_counter()
        outcome = execute_decision(played, decision, body)
        executed = time.perf_counter()
        score_row(decision, played.truth, spec, outcome)
        scored = time.perf_counter()
        simulator.destroy(played.episode)
        out.append(
            {
                "play": deciding - started,
                "publish_and_decide": executing - deciding,
                "execute": executed - executing,
                "score_wait": scored - executed,
                "total": time.perf_counter() - started,
            }
        )
    runner.close()
    return out


def processes(
    run: Path, limit: int, width: int, height: int, controller: str
) -> list[dict[str, float]]:
    """The graph as five processes (what `ros2 launch` starts); the simulator's timings.jsonl."""

    from reacthuman.ros.graph import isolate

    env = dict(os.environ)
    isolate(env)
    env.setdefault("AMENT_PREFIX_PATH", sys.prefix)
    common = ["-p", f"run_dir:={run}", "-p", "brain:=oracle", "-p", f"controller:={controller}"]
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


PHASES = ("play", "publish_and_decide", "execute", "score_wait")


def report(name: str, episodes: list[dict[str, float]], base: list[dict[str, float]]) -> None:
    total = statistics.median(e["total"] for e in episodes)
    phases = ", ".join(f"{p} {statistics.median(e[p] for e in episodes):.3f}" for p in PHASES)
    execution = statistics.median(e["execute"] for e in episodes)
    line = f"{name:<22} {total:.3f} s per episode, execution {execution:.3f} s"
    if "command_wait" in episodes[0]:
        waits = statistics.median(e["command_wait"] for e in episodes)
        line += f" (waiting for commands {waits:.3f} s)"
    if episodes is not base:
        b_total = statistics.median(e["total"] for e in base)
        b_exec = statistics.median(e["execute"] for e in base)
        ticks = episodes[0]["ticks"]
        mean = sum(e["total"] for e in episodes) / len(episodes)
        b_mean = sum(e["total"] for e in base) / len(base)
        line += (
            f"; overhead {100 * (total / b_total - 1):+.1f} % (medians), "
            f"{100 * (mean / b_mean - 1):+.1f} % (means) per episode; lock-step "
            f"{1000 * (execution - b_exec) / ticks:.2f} ms per control tick"
        )
    print(line)
    print(f"{'':<22} phases (s): {phases}")


def fresh_process(path: str, args: argparse.Namespace, run: Path) -> list[dict[str, float]]:
    """One run of the direct or the composed path, in a fresh Python process."""
    out = run / f"{path}.json"
    command = [sys.executable, __file__, "--path", path, "--out", str(out)]
    command += ["--limit", str(args.limit), "--resolution", args.resolution]
    command += ["--controller", args.controller]
    subprocess.run(command, check=True, capture_output=True, timeout=3600)
    return json.loads(out.read_text())


def run_path(args: argparse.Namespace) -> None:
    """``--path direct|composed``: run it here and write its timings to ``--out``."""
    from reacthuman.ros.graph import compose
    from reacthuman.runner import bench_scenes
    from reacthuman.sim.settings import RenderSettings, parse_resolution

    width, height = parse_resolution(args.resolution)
    run = Path(args.out).parent / args.path
    if args.path == "direct":
        settings = RenderSettings(width=width, height=height)
        timings = direct(bench_scenes(limit=args.limit), settings, run, args.controller)
    else:
        timings = compose(
            {"run_dir": str(run), "brain": "oracle", "limit": args.limit, "width": width,
             "height": height, "controller": args.controller},
        ).timings  # fmt: skip
    Path(args.out).write_text(json.dumps(timings))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=17)
    parser.add_argument("--resolution", default="640x360")
    parser.add_argument("--controller", default="g1", help="the body (spine.controller names)")
    parser.add_argument("--repeats", type=int, default=1, help="runs of each path, interleaved")
    parser.add_argument("--path", choices=("direct", "composed"), help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.path:
        return run_path(args)

    from reacthuman.sim.settings import parse_resolution

    width, height = parse_resolution(args.resolution)
    plain, composed, separate = [], [], []
    for repeat in range(args.repeats):  # interleaved, so that drift on the machine hits all
        with tempfile.TemporaryDirectory() as tmp:
            run = Path(tmp)
            plain += fresh_process("direct", args, run)[1:]
            composed += fresh_process("composed", args, run)[1:]
            separate += processes(run / "processes", args.limit, width, height, args.controller)[1:]
        print(f"repeat {repeat + 1}/{args.repeats} done", flush=True)
    print(
        f"{len(plain)} episodes per path at {width}x{height} with {args.controller} "
        "(medians; each run's first episode left out)"
    )
    report("direct (in process)", plain, plain)
    report("graph, composed", composed, plain)
    report("graph, 5 processes", separate, plain)
    return None


if __name__ == "__main__":
    main()
