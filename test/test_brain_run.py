"""Deciding many scenes: baselines like models, the response store, resume after kill -9."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from conftest import run_cli
from loopback import GOOD


def plans(out):
    return {p.parent.name: json.loads(p.read_text()) for p in out.glob("*/*/plan.json")}


@pytest.mark.parametrize(
    "brain", ["always-dodge", "always-catch", "no-action", "random", "heuristic", "oracle"]
)
def test_every_baseline_decides_every_scene_and_reruns_from_the_store(observed, tmp_path, brain):
    store = tmp_path / "store.sqlite"
    first = run_cli(
        "decide",
        str(observed),
        "--brain",
        brain,
        "--out",
        str(tmp_path / "a"),
        "--store",
        str(store),
        "--quiet",
    )
    assert first.returncode == 0, first.stderr
    decided = plans(tmp_path / "a")
    assert len(decided) == 12 and all(d["plan"] for d in decided.values())
    again = run_cli(
        "decide",
        str(observed),
        "--brain",
        brain,
        "--out",
        str(tmp_path / "b"),
        "--store",
        str(store),
        "--quiet",
    )
    assert "12 from the store" in again.stdout
    assert plans(tmp_path / "b") == decided


def test_model_decisions_are_cached_so_a_rerun_asks_nothing(observed, tmp_path, server):
    server.default = ("reply", json.dumps(GOOD))
    args = (
        "decide",
        str(observed),
        "--model",
        "fake/model",
        "--base-url",
        server.url,
        "--store",
        str(tmp_path / "s.sqlite"),
        "--quiet",
    )
    assert run_cli(*args, "--out", str(tmp_path / "a")).returncode == 0
    assert len(server.requests) == 12
    assert run_cli(*args, "--out", str(tmp_path / "b")).returncode == 0
    assert len(server.requests) == 12
    assert plans(tmp_path / "a") == plans(tmp_path / "b")


def test_a_crashing_brain_and_garbage_replies_are_recorded_as_r1(observed, tmp_path, server):
    server.default = ("reply", "I refuse to answer in JSON.")
    result = run_cli(
        "decide",
        str(observed),
        "--model",
        "fake/model",
        "--base-url",
        server.url,
        "--store",
        str(tmp_path / "s.sqlite"),
        "--out",
        str(tmp_path / "o"),
        "--quiet",
    )
    assert result.returncode == 0 and "12 R1" in result.stdout
    assert all(d["plan"] is None and d["r1_reason"] for d in plans(tmp_path / "o").values())
    broken = tmp_path / "broken"
    import shutil

    shutil.copytree(observed, broken)
    for truth in broken.glob("*/*/ground_truth.json"):
        truth.write_text("{corrupt")
    result = run_cli(
        "decide",
        str(broken),
        "--brain",
        "oracle",
        "--out",
        str(tmp_path / "x"),
        "--store",
        str(tmp_path / "x.sqlite"),
        "--quiet",
    )
    assert result.returncode == 0
    assert all("the brain failed" in d["r1_reason"] for d in plans(tmp_path / "x").values())


def _scene_of(request) -> str:
    images = [
        p["image_url"]["url"]
        for p in request["body"]["messages"][1]["content"]
        if p["type"] == "image_url"
    ]
    return hashlib.sha256(images[0].encode()).hexdigest()


def test_a_run_killed_with_sigkill_resumes_without_repeating_finished_decisions(
    observed, tmp_path, server
):
    server.default = ("reply", json.dumps(GOOD))
    server.delay = 0.4
    store = tmp_path / "s.sqlite"
    command = [
        sys.executable,
        "-m",
        "reacthuman",
        "decide",
        str(observed),
        "--model",
        "m",
        "--base-url",
        server.url,
        "--store",
        str(store),
        "--concurrency",
        "2",
        "--out",
        str(tmp_path / "o"),
        "--quiet",
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    stored = 0
    while time.time() < deadline and stored < 4:
        time.sleep(0.1)
        if store.exists():
            try:
                with sqlite3.connect(store) as db:
                    stored = db.execute("SELECT COUNT(*) FROM decisions").fetchone()[0]
            except sqlite3.OperationalError:
                stored = 0
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert 4 <= stored < 12
    with sqlite3.connect(store) as db:
        before = {row[0] for row in db.execute("SELECT scene_id FROM decisions")}
    requests_before = len(server.requests)
    rerun = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    with sqlite3.connect(store) as db:
        rows = [row[0] for row in db.execute("SELECT scene_id FROM decisions")]
    assert sorted(rows) == sorted(set(rows)) and len(rows) == 12  # one decision per scene
    assert len(plans(tmp_path / "o")) == 12
    asked_again = len(server.requests) - requests_before
    assert asked_again == 12 - len(before)  # nothing finished is asked twice
    per_scene: dict[str, int] = {}
    for request in server.requests:
        per_scene[_scene_of(request)] = per_scene.get(_scene_of(request), 0) + 1
    assert len(per_scene) == 12 and max(per_scene.values()) <= 2  # only in-flight ones twice
