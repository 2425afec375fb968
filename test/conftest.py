"""Shared fixtures: one generated default set per test session (it takes about 2 s)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from reacthuman.scenes.sets import Scene, SetManifest, generate_set

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def default_set() -> tuple[SetManifest, list[Scene]]:
    return generate_set()


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``reacthuman`` in a fresh process, as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "reacthuman", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )
