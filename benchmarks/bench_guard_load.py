"""The guard's real-time watchdog on a loaded host: what a robot owner's computer must sustain.

A robot's LowState stream at 500 Hz (this process, a standing G1's state on Unitree's DDS
interface on loopback), the spine (``spine_node backend:=g1``: the walking policy answers
every 20 ms of the robot's clock) and the guard (``reacthuman g1-guard --arm``, its 0.1 s
watchdogs) run for ``--seconds`` after arming, with 0, 1 and 2 processes spinning on the
host's cores beside them. For each load it prints: the answer's latency (a LowState due an
answer written here -> the guard's forwarded answer read back here, two DDS hops and the
policy), the longest gap between LowStates the guard forwarded answers to, and whether and
why damping came. Results go in BENCHMARKS.md ("The guard under load").

    .venv/bin/python benchmarks/bench_guard_load.py [--seconds 30] [--loads 0,1,2]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

TEST = Path(__file__).resolve().parents[1] / "test"
sys.path.insert(0, str(TEST))
from g1_messages import standing_state  # noqa: E402
from helpers import graph_env, node_command  # noqa: E402

from reacthuman.ros.graph import free_domain  # noqa: E402
from reacthuman.unitree.channel import Channel  # noqa: E402
from reacthuman.unitree.guard_rules import is_damping  # noqa: E402
from reacthuman.unitree.messages import (  # noqa: E402
    LOWCMD_TOPIC,
    LOWSTATE_TOPIC,
    LowCmd_,
    LowState_,
    answered_tick,
)

STATE_PERIOD = 0.002  # s: a G1's 500 Hz


def run(seconds: float, busy: int, folder: Path) -> dict[str, object]:
    """One run under ``busy`` spinning processes; its figures."""
    domain = free_domain()
    env = graph_env()
    channel = Channel(domain, "lo")
    writer = channel.writer(LOWSTATE_TOPIC, LowState_)
    written: dict[int, float] = {}
    answers: list[tuple[float, int, bool]] = []
    lock = threading.Lock()

    def take(msg: LowCmd_) -> None:
        with lock:
            answers.append((time.monotonic(), answered_tick(msg), is_damping(msg)))

    reader = channel.reader(LOWCMD_TOPIC, LowCmd_, take)
    log = (folder / f"load{busy}.log").open("w")
    spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
    cli = [sys.executable, "-m", "reacthuman"]
    procs = [
        subprocess.Popen(
            [*cli, "g1-guard", "--domain", str(domain), "--interface", "lo", "--arm"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        ),
        subprocess.Popen(
            node_command("spine_node", backend="g1", dds_domain=domain, use_sim_time="false"),
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        ),
    ]
    stop = threading.Event()
    gaps: list[float] = []

    def report() -> None:
        tick, next_at, last = 0, time.monotonic(), None
        while not stop.is_set():
            now = time.monotonic()
            if last is not None:
                gaps.append(now - last)
            last = now
            written.setdefault(tick, now)
            writer.write(standing_state(tick))
            tick += 2
            next_at += STATE_PERIOD
            time.sleep(max(0.0, next_at - time.monotonic()))

    reporter = threading.Thread(target=report, daemon=True)
    reporter.start()
    try:
        deadline = time.monotonic() + 120
        while not any(not d for _t, _k, d in answers):  # armed: answers forwarded
            if time.monotonic() > deadline:
                raise SystemExit(f"the guard never armed ({folder / f'load{busy}.log'})")
            time.sleep(0.05)
        armed_at = time.monotonic()
        while time.monotonic() < armed_at + seconds and not any(d for _t, _k, d in answers):
            time.sleep(0.05)
    finally:
        stop.set()
        reporter.join(timeout=2)
        for proc in spinning:
            proc.kill()
        for proc in procs:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()
        del reader
    forwarded = [(t, k) for t, k, d in answers if not d]
    latencies = [t - written[k] for t, k in forwarded if k in written]
    ticks = sorted(k for _t, k in forwarded)
    damping = [t for t, _k, d in answers if d and t < (armed_at + seconds)]
    reason = next(
        (
            line.split("damping: ", 1)[1].strip()
            for line in (folder / f"load{busy}.log").open()
            if "g1 guard: damping: " in line and "guard stopped" not in line
        ),
        "",
    )
    return {
        "busy": busy,
        "answers": len(forwarded),
        "latency_ms": [
            1000 * statistics.median(latencies),
            1000 * quantile(latencies, 0.99),
            1000 * max(latencies),
        ],
        "tick_gap_ms": max(b - a for a, b in zip(ticks, ticks[1:], strict=False)),
        "state_gap_ms": 1000 * max(gaps),
        "damped_after_s": (damping[0] - armed_at) if damping else None,
        "reason": reason,
    }


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--loads", default="0,1,2", help="spinning processes, comma-separated")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for busy in (int(b) for b in args.loads.split(",")):
            r = run(args.seconds, busy, Path(folder))
            p50, p99, worst = r["latency_ms"]  # type: ignore[misc]
            damped = r["damped_after_s"]
            print(
                f"{busy} busy: {r['answers']} answers forwarded; answer latency median "
                f"{p50:.1f} ms, p99 {p99:.1f}, max {worst:.1f}; longest gap between answered "
                f"ticks {r['tick_gap_ms']} ms of the robot's clock; longest gap between "
                f"states written {r['state_gap_ms']:.1f} ms; "
                + (
                    f"damping after {damped:.1f} s: {r['reason']}"
                    if damped is not None
                    else f"no damping in {args.seconds:g} s"
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
