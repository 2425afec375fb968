"""Shared fixtures: one generated default set per test session (it takes about 2 s)."""

from __future__ import annotations

import subprocess
import sys
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from loopback import Script, make_handler

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


@pytest.fixture()
def server():
    """A scripted OpenAI-compatible endpoint on 127.0.0.1 (see loopback.py)."""
    script = Script()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(script))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    script.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    yield script
    httpd.shutdown()
