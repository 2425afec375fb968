"""The brain's path on a robot: how long from a camera's newest frame to the plan, beyond the
model's own time. Three processes as on a robot: a 30 Hz camera driver (test/fake_camera.py,
640x480 rgb8 like the G1 head camera's colour stream), the window recorder and the brain node
(the heuristic baseline, or a loopback model that answers after ``--latency`` s); this
process asks for N decisions in a row through ``/window_recorder/decide``.

    .venv/bin/python benchmarks/bench_live_window.py [--decisions 20] [--latency 0]

Prints each decision and the median / 95th percentile of: the window's age when cut, the
latency from its newest frame to the plan (what the robot waited), the model call, and the
harness's share (the difference). Results go in BENCHMARKS.md ("The brain on a robot").
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import rclpy
from rclpy.executors import SingleThreadedExecutor
from std_srvs.srv import Trigger

TEST = Path(__file__).resolve().parents[1] / "test"
sys.path.insert(0, str(TEST))
from conftest import graph_env, node_command  # noqa: E402
from loopback import GOOD, Script, serve  # noqa: E402

from reacthuman.assets import config_file  # noqa: E402
from reacthuman.live_window import DECISIONS_FILE, LiveDecision  # noqa: E402
from reacthuman.ros.graph import FASTDDS_PROFILE  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--latency", type=float, default=0.0, help="s; 0: the heuristic brain")
    parser.add_argument("--resolution", default="640x480")
    parser.add_argument(
        "--udp", action="store_true", help="Fast DDS's defaults (frames as fragmented UDP)"
    )
    args = parser.parse_args()

    run = Path(tempfile.mkdtemp(prefix="live-window-"))
    env = graph_env()
    if not args.udp:  # the graph's profile: frames through a shared-memory segment of 32 MB
        env["FASTDDS_DEFAULT_PROFILES_FILE"] = str(config_file(FASTDDS_PROFILE))
    brain = {"brain": "heuristic"}
    httpd = None
    if args.latency > 0:
        script = Script()
        script.default = ("reply", json.dumps(GOOD))
        script.delay = args.latency
        httpd = serve(script)
        url = script.url
        brain = {"brain": "loopback/model", "base_url": url, "api_key_env": "BENCH_KEY"}
        env["BENCH_KEY"] = "sk-bench-loopback"
    wall = {"run_dir": str(run), "use_sim_time": "false"}
    commands = {
        "camera": [
            sys.executable,
            str(TEST / "fake_camera.py"),
            str(run / "camera.log"),
            "--size",
            args.resolution,
        ],
        "recorder": node_command("window_recorder", **wall),
        "brain": node_command("brain_node", **wall, **brain),
    }
    logs = {name: (run / f"{name}.out").open("w") for name in commands}
    procs = {
        name: subprocess.Popen(cmd, env=env, stdout=logs[name], stderr=subprocess.STDOUT)
        for name, cmd in commands.items()
    }
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=int(env["ROS_DOMAIN_ID"]))
    node = rclpy.create_node("bench_live_window", context=context)
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(node)
    client = node.create_client(Trigger, "/window_recorder/decide")
    records: list[LiveDecision] = []
    try:
        if not client.wait_for_service(timeout_sec=60):
            raise SystemExit(f"the window recorder never came up (logs in {run})")
        decisions = run / DECISIONS_FILE
        n, refused = 0, []
        while n < args.decisions:
            future = client.call_async(Trigger.Request())
            executor.spin_until_future_complete(future, timeout_sec=10)
            if not future.result().success:
                refused.append(future.result().message)
                if len(refused) > 20:
                    raise SystemExit(f"refused 20 times, last: {refused[-1]}")
                time.sleep(0.5)  # a window after the recorder has a second of frames
                continue
            deadline = time.monotonic() + 60 + args.latency
            while time.monotonic() < deadline:
                lines = decisions.read_text().splitlines() if decisions.exists() else []
                if len(lines) > n:
                    records.append(LiveDecision.model_validate_json(lines[n]))
                    break
                time.sleep(0.005)
            else:
                raise SystemExit(f"decision {n}: no plan within {60 + args.latency:g} s ({run})")
            r = records[-1]
            print(
                f"decision {n:2d}: window {r.window_age_s * 1000:5.1f} ms old, plan "
                f"{r.latency_s:.3f} s after its newest frame (model {r.brain_latency_s:.3f} s)"
                + (f", R1: {r.r1_reason}" if r.r1_reason else ""),
                flush=True,
            )
            n += 1
            time.sleep(0.2)
    finally:
        node.destroy_node()
        rclpy.shutdown(context=context)
        for proc in procs.values():
            proc.terminate()
        for proc in procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        if httpd is not None:
            httpd.shutdown()

    def summary(name: str, values: list[float]) -> None:
        values = sorted(values)
        p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
        print(f"{name:<32} median {statistics.median(values):.3f} s, p95 {p95:.3f} s")

    print(
        f"\n{len(records)} decisions, {args.resolution} at 30 Hz, {os.cpu_count()} cores; "
        f"refused first (warming up): {len(refused)}; run folder {run}"
    )
    summary("window age when cut", [r.window_age_s for r in records])
    summary("newest frame -> plan", [r.latency_s for r in records])
    summary("model call", [r.brain_latency_s for r in records])
    summary("harness (plan - model call)", [r.latency_s - r.brain_latency_s for r in records])


if __name__ == "__main__":
    main()
