"""How much does a text legend leak the answer? Baselines decided on a scene set, scored.

Observes a set (through the observation cache: a validated set was simulated when it was
generated), lets the no-model baselines decide on the default, frames-only observations
(`always-dodge`, `always-catch`, `legend-only`, `heuristic`, `oracle`) and `legend-only` once
more under the legend ablation (`observe --legend`), scores them against the measured ground
truth and prints SAA and safety per brain. With frames only, `legend-only` has nothing to read
and must score exactly like always-dodge; with a legend it shows what the text gives away.

    .venv/bin/python benchmarks/legend_leak.py SET_DIR [--out DIR] [--cache DIR]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from reacthuman.scoring.results import ResultsStore

BRAINS = ("always-dodge", "always-catch", "legend-only", "heuristic", "oracle")


def run(*args: str) -> None:
    command = [sys.executable, "-m", "reacthuman", *args]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args[:2])} failed:\n{done.stderr[-2000:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", help="a scene set folder")
    parser.add_argument("--out", default="/tmp/legend-leak", help="work folder")
    parser.add_argument("--cache", help="observation cache (default: the user's)")
    args = parser.parse_args()
    out = Path(args.out)
    cache = ["--cache", args.cache] if args.cache else []
    run("observe", args.set, "--out", str(out / "obs"), "--quiet", *cache)
    run("observe", args.set, "--out", str(out / "obs-legend"), "--legend", "--quiet", *cache)
    store = ["--store", str(out / "responses.sqlite")]
    runs = {}
    for brain in BRAINS:
        decided = out / "decisions" / brain
        run("decide", str(out / "obs"), "--brain", brain, "--out", str(decided), "--quiet", *store)
        runs[brain] = decided
    decided = out / "decisions" / "legend-only+legend"
    run(
        "decide",
        str(out / "obs-legend"),
        "--brain",
        "legend-only",
        "--out",
        str(decided),
        "--quiet",
        *store,
    )
    run(
        "score",
        "--observations",
        str(out / "obs"),
        "--decisions",
        *map(str, runs.values()),
        "--out",
        str(out / "run"),
    )
    run(
        "score",
        "--observations",
        str(out / "obs-legend"),
        "--decisions",
        str(decided),
        "--out",
        str(out / "run-legend"),
    )
    print(f"{'brain':<28}{'scenes':>7}{'SAA %':>8}{'safe %':>8}")
    for folder, suffix in ((out / "run", ""), (out / "run-legend", " (legend ablation)")):
        results = ResultsStore(folder / "results.sqlite")
        rows = results.rows()
        results.close()
        for brain in sorted({r.brain for r in rows}):
            mine = [r for r in rows if r.brain == brain]
            saa = 100.0 * sum(r.saa for r in mine) / len(mine)
            safe = 100.0 * sum(r.safe for r in mine) / len(mine)
            print(f"{brain + suffix:<28}{len(mine):>7}{saa:>8.1f}{safe:>8.1f}")


if __name__ == "__main__":
    main()
