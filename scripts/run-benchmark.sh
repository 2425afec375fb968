#!/usr/bin/env bash
# Sets up .venv if needed, then runs the main job: `reacthuman bench` through the ROS 2 node
# graph on the embedded default (one scene per event family; oracle, heuristic and
# always-dodge brains), printing the results table and writing the report and the bags.
# Usage: scripts/run-benchmark.sh [RUN_DIR] [more reacthuman bench options]
#        (default RUN_DIR runs/default, under the repo root; a rerun resumes it)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
export AMENT_PREFIX_PATH="${AMENT_PREFIX_PATH:-$PWD/.venv}"
.venv/bin/reacthuman bench --out "${1:-runs/default}" "${@:2}"
