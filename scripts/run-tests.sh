#!/usr/bin/env bash
# Sets up .venv if needed, lints, and runs the test suite (options come from pyproject.toml).
# Usage: scripts/run-tests.sh [PYTEST_ARGS...]   e.g. scripts/run-tests.sh -m "not slow"
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
.venv/bin/ruff check src test benchmarks launch
.venv/bin/ruff format --check src test benchmarks launch
# Two processes (pytest-xdist; test/conftest.py keeps each module in one and starts the costliest
# first); `-n 0` after it runs everything in this one.
.venv/bin/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder "$@"
