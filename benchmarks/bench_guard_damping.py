"""How soon the guard damps, over DDS: the promise the guard's tests no longer time.

The guard node on a DDS domain of its own (test/test_guard.py's ``Wire``): a robot reporting
every 2 ms, armed, then its clock running on while the spine stays silent or repeats its last
answer, or the robot stops reporting. For each case and ``--trials`` it prints the latency
from the first LowState left unanswered (its writing here) to damping's arrival here, two DDS
hops, and the guard's own count in its reason. The guard's promise: the command timeout
(0.1 s) plus two 2 ms loop periods at the guard. Results go in BENCHMARKS.md (the guard).

    .venv/bin/python benchmarks/bench_guard_damping.py [--trials 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

TEST = Path(__file__).resolve().parents[1] / "test"
sys.path.insert(0, str(TEST))
from g1_messages import standing_state  # noqa: E402
from test_guard import Wire, stale_spine_damping  # noqa: E402

from reacthuman.unitree.guard import COMMAND_TIMEOUT, LOOP_PERIOD  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=5)
    args = parser.parse_args()
    wire = Wire()
    try:
        for case in ("silent spine", "repeating spine", "silent robot"):
            latencies, counts = [], []
            for _ in range(args.trials):
                tick = wire.arm()
                if case == "silent robot":
                    wire.report(None)
                    start = time.monotonic()
                    latencies.append(wire.wait_damping(start) - start)
                else:
                    damped = stale_spine_damping(wire, tick, case == "repeating spine")
                    due = min(t for k, t in wire.written.items() if k >= tick + 19)
                    latencies.append(damped - due)
                counts.append(wire.guard.reason)
                wire.report(standing_state(tick))
            ms = sorted(1000 * x for x in latencies)
            print(
                f"{case}: damping after {statistics.median(ms):.1f} ms median, "
                f"{ms[-1]:.1f} ms worst over {args.trials} (promise at the guard: "
                f"{1000 * (COMMAND_TIMEOUT + 2 * LOOP_PERIOD):.0f} ms); last reason: {counts[-1]}"
            )
    finally:
        wire.close()


if __name__ == "__main__":
    main()
