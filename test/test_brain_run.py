"""Deciding many scenes: baselines like models, what a brain is shown, the response store,
resume after kill -9."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from helpers import run_cli
from loopback import GOOD
from spies import Spy, SpyOracle

from reacthuman.brain.baselines import catch_plan, dodge_plan, legend_only
from reacthuman.brain.run import OracleBrain, baseline, decide_all
from reacthuman.brain.store import ResponseStore
from reacthuman.layout import LayoutError, brain_folder, find_scenes
from reacthuman.observation import LegendEntry, Observation, RobotPose, legend_of
from reacthuman.scenes.catalogue import default_catalogue
from reacthuman.scenes.generate import generate_scene
from reacthuman.scenes.truth import GroundTruth


def plans(out):
    return {p.parent.name: json.loads(p.read_text()) for p in out.glob("*/*/plan.json")}


@pytest.mark.parametrize(
    "brain",
    ["always-dodge", "always-catch", "no-action", "random", "legend-only", "heuristic", "oracle"],
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
    reasons = [d["r1_reason"] for d in plans(tmp_path / "x").values()]
    assert len(reasons) == 12
    assert all("no ground truth for the oracle" in r and "ground_truth.json" in r for r in reasons)


def _scene_of(request) -> str:
    images = [
        p["image_url"]["url"]
        for p in request["body"]["messages"][1]["content"]
        if p["type"] == "image_url"
    ]
    return hashlib.sha256(images[0].encode()).hexdigest()


@pytest.mark.slow  # two runs of decide, one killed mid-way
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
    # Nothing finished is asked again: the rerun asks exactly the unfinished scenes. (A
    # request the killed run had in flight may reach the server's log after requests_before
    # was read; it is for an unfinished scene, so count scenes, not requests.)
    asked_again = {_scene_of(request) for request in server.requests[requests_before:]}
    assert len(asked_again) == 12 - len(before)
    per_scene: dict[str, int] = {}
    for request in server.requests:
        per_scene[_scene_of(request)] = per_scene.get(_scene_of(request), 0) + 1
    assert len(per_scene) == 12 and max(per_scene.values()) <= 2  # only in-flight ones twice


def test_a_brain_is_shown_observation_json_and_frames_and_nothing_else(observed, tmp_path):
    scenes = find_scenes(observed)
    assert len(scenes) == 12
    spy, oracle = Spy(), SpyOracle()
    store = ResponseStore(tmp_path / "s.sqlite")
    try:
        asyncio.run(decide_all(scenes, spy, store))
        outcomes = asyncio.run(decide_all(scenes, oracle, store))
    finally:
        store.close()
    assert len(spy.seen) == 12
    assert all(seen == {"observation.json", "frames"} for seen in spy.seen.values())
    assert all(seen == {"observation.json", "frames"} for seen in oracle.seen.values())
    for outcome in outcomes:  # the oracle gets the truth beside the folder, as an argument
        truth = GroundTruth.load(outcome.scene / "ground_truth.json")
        assert oracle.handed[outcome.decision.scene_id] == truth
        assert outcome.decision.plan is not None


def test_the_oracle_refuses_to_decide_without_being_handed_ground_truth(observed):
    scene = find_scenes(observed)[0]
    observation = Observation.load(scene / "observation" / "observation.json")
    with pytest.raises(ValueError, match="handed no ground truth"):
        asyncio.run(OracleBrain().decide(observation, scene / "observation"))


def test_decide_refuses_an_old_layout_folder_and_says_what_to_do(observed, tmp_path):
    old = tmp_path / "old"
    for scene in find_scenes(observed)[:2]:  # an older `reacthuman observe`: all in one folder
        flat = old / scene.relative_to(observed)
        shutil.copytree(scene / "observation", flat)
        for name in ("ground_truth.json", "spec.json"):
            shutil.copy(scene / name, flat / name)
    with pytest.raises(LayoutError, match="re-run `reacthuman observe"):
        find_scenes(old)
    for target in (old, next(old.glob("*/*"))):
        out = tmp_path / "o"
        result = run_cli("decide", str(target), "--brain", "heuristic", "--out", str(out))
        assert result.returncode == 1
        assert "ground_truth.json" in result.stderr
        assert "re-run `reacthuman observe" in result.stderr
        assert not list((tmp_path / "o").glob("**/plan.json"))


def test_one_scene_folder_or_its_brain_folder_can_be_decided(observed, tmp_path):
    scene = find_scenes(observed)[3]
    assert find_scenes(scene) == [scene]
    assert find_scenes(scene / "observation") == [scene]
    root = tmp_path / "obs"
    shutil.copytree(scene, root / "f" / "s")
    shutil.copytree(scene, root / "f" / ".s.partial")  # an interrupted export's staging
    assert find_scenes(root) == [root / "f" / "s"]


def test_legend_only_without_a_legend_decides_exactly_like_always_dodge(observed, tmp_path):
    decided = {}
    for brain in ("legend-only", "always-dodge"):
        result = run_cli(
            "decide", str(observed), "--brain", brain, "--out", str(tmp_path / brain),
            "--store", str(tmp_path / "s.sqlite"), "--quiet",
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        decided[brain] = {k: v["plan"] for k, v in plans(tmp_path / brain).items()}
    assert len(decided["legend-only"]) == 12
    assert decided["legend-only"] == decided["always-dodge"]


def _with_legend(*looks: str) -> Observation:
    return Observation(
        scene_id="s",
        window=0.6,
        frame_times=[],
        frames=[],
        cameras=[],
        robot=RobotPose(pos=(0.0, 0.0, 0.0), yaw=0.0),
        legend=[LegendEntry(id=f"object_{n}", looks_like=t) for n, t in enumerate(looks, 1)],
    )


def test_legend_only_takes_each_description_for_the_genuine_object_that_looks_so():
    catalogue = default_catalogue()
    look = {o.name: o.looks_like for o in catalogue.objects}
    safe = next(o for o in catalogue.objects if o.name == "tennis_ball")
    assert not safe.adversarial and safe.graspable and not safe.hazards.active()
    assert legend_only(_with_legend(look["tennis_ball"])) == catch_plan()
    assert legend_only(_with_legend(look["chef_knife"])) == dodge_plan()  # sharp
    assert legend_only(_with_legend(look["tennis_ball"], look["chef_knife"])) == dodge_plan()
    # A look-alike reads as what it imitates: the foam anvil is dodged, the steel apple caught.
    assert legend_only(_with_legend(look["foam_anvil"])) == dodge_plan()
    assert legend_only(_with_legend(look["steel_apple"])) == catch_plan()
    assert legend_only(_with_legend("a shimmering thing from another world")) == dodge_plan()
    assert legend_only(_with_legend()) == dodge_plan()


def test_legend_ids_are_neutral_and_ordered_by_description():
    spec = generate_scene("chain_reaction", 0)
    assert len(spec.objects) > 1
    legend = legend_of(spec)
    assert [e.id for e in legend] == [f"object_{n}" for n in range(1, len(spec.objects) + 1)]
    assert [e.looks_like for e in legend] == sorted(o.looks_like for o in spec.objects)
    roles = {o.id for o in spec.objects} | {o.role.value for o in spec.objects}
    assert not roles & {e.id for e in legend}


def test_a_stored_decision_that_no_longer_reads_back_is_asked_again(observed, tmp_path):
    # An older version stored a token count of 1.5 (an endpoint's); every later run on that
    # store (the default store is shared) crashed reading it back. Now it is asked again.
    scenes = find_scenes(observed)[:2]
    store = ResponseStore(tmp_path / "s.sqlite")
    try:
        first = asyncio.run(decide_all(scenes, baseline("heuristic"), store))
        with sqlite3.connect(tmp_path / "s.sqlite") as db:
            db.execute(
                "UPDATE decisions SET decision = json_set(decision, '$.usage.prompt_tokens', 1.5)"
            )
        again = asyncio.run(decide_all(scenes, baseline("heuristic"), store))
        assert [o.cached for o in again] == [False, False]
        assert [o.decision.plan for o in again] == [o.decision.plan for o in first]
        assert all(o.cached for o in asyncio.run(decide_all(scenes, baseline("heuristic"), store)))
    finally:
        store.close()


def test_a_bad_scene_is_that_scenes_error_and_no_file_outside_it_is_sent(
    observed, tmp_path, server
):
    # Three scenes broken three ways among twelve: a frame path that climbs out of its
    # folder to a private file, an observation.json that is not UTF-8, no frames at all.
    # Each is its own recorded error naming the file; the other nine are decided, and the
    # private file never reaches the endpoint.
    root = tmp_path / "observed"
    shutil.copytree(observed, root)
    secret = tmp_path / "private.txt"
    secret.write_text("PRIVATE-NOT-FOR-ANY-ENDPOINT")
    scenes = find_scenes(root)
    climbing, binary, frameless = (brain_folder(s) for s in scenes[:3])
    data = json.loads((climbing / "observation.json").read_text())
    data["frames"][0]["file"] = "../../../../private.txt"
    (climbing / "observation.json").write_text(json.dumps(data))
    (binary / "observation.json").write_bytes(b"\xff\xfe{not text")
    shutil.rmtree(frameless / "frames")
    server.default = ("reply", json.dumps(GOOD))
    result = run_cli(
        "decide", str(root), "--model", "fake/model", "--base-url", server.url,
        "--store", str(tmp_path / "s.sqlite"), "--out", str(tmp_path / "out"), "--quiet",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert len(server.requests) == 9
    sent = json.dumps([r["body"] for r in server.requests])
    assert base64.b64encode(secret.read_bytes()).decode()[:16] not in sent
    reasons = {
        s.name: json.loads((tmp_path / "out" / s.relative_to(root) / "plan.json").read_text())
        for s in scenes
    }
    assert sum(r["plan"] is not None for r in reasons.values()) == 9
    climbed, undecodable, missing = (reasons[s.name]["r1_reason"] for s in scenes[:3])
    assert "observation.json: frames.0.file" in climbed
    assert "observation.json: not UTF-8" in undecodable
    assert "cannot read its frames" in missing and "frames" in missing
    assert "3 scenes could not be decided" in result.stderr


def test_a_scenes_brains_each_get_its_frames_and_observation_and_no_leftovers(observed, tmp_path):
    """The frames are encoded once for all of a scene's brains (``write_observations``);
    each brain folder still holds exactly what one brain alone would have been given."""
    import cv2

    from reacthuman.run_folder import write_observation, write_observations

    source = brain_folder(find_scenes(observed)[0])
    observation = Observation.model_validate_json((source / "observation.json").read_text())
    frames = {
        (frame.view, frame.t): cv2.imread(str(source / frame.file))[:, :, ::-1]
        for frame in observation.frames
    }
    alone = write_observation(tmp_path / "alone", observation, frames)
    scenes = [tmp_path / name for name in ("a", "b", "c")]
    (brain_folder(scenes[1]) / "frames").mkdir(parents=True)
    (brain_folder(scenes[1]) / "frames" / "stale.png").write_bytes(b"from an earlier run")
    folders = write_observations(scenes, observation, frames)

    def files(folder):
        return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}

    assert folders == [brain_folder(scene) for scene in scenes]
    assert len(files(alone)) == len(frames) + 1
    assert all(files(folder) == files(alone) for folder in folders)
    for (view, t), image in frames.items():  # the pixels, not only the same bytes
        (frame,) = [f for f in observation.frames if (f.view, f.t) == (view, t)]
        assert (cv2.imread(str(folders[2] / frame.file))[:, :, ::-1] == image).all()
