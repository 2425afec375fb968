#!/usr/bin/env bash
# The sweeps alone (tests marked `sweep`: thousands of seeds or replies, each beside a small
# version that runs on every push). Run them before a release or when a family's sampler, the
# scene schedule or the reply parser changes; they take about ten minutes here.
# Usage: scripts/run-sweeps.sh [PYTEST_ARGS...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
.venv/bin/python -m pytest --sweeps -m sweep -n 2 "$@"
