#!/usr/bin/env bash
# Sets up .venv if needed, then generates the benchmark scenes (18 per event family).
# Usage: scripts/run-benchmark.sh [OUT_DIR]   (default runs/default/scenes, under the repo root)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
.venv/bin/reacthuman scenes generate --per-family 18 --out "${1:-runs/default/scenes}"
