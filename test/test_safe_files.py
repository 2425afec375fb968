"""Files that data names are read without being led elsewhere (issue 53): a frame linked out of
its scene, linked to /dev/zero or made a FIFO is that scene's error and never reaches an
endpoint; one bad scene of a set is its own error; a linked brain folder is named; replay
takes a bag's .mcap file; a validation error is one line."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys

import pytest
from helpers import run_cli
from loopback import GOOD

from reacthuman.brain.baselines import dodge_plan
from reacthuman.brain.client import Decision
from reacthuman.layout import brain_folder, find_scenes
from reacthuman.ros import contract
from reacthuman.ros.bag import EpisodeBag
from reacthuman.runner import read_bench_set
from reacthuman.safe_files import FRAME_LIMIT, UnsafeFile, read_inside
from reacthuman.scenes.set_files import write_set
from reacthuman.scenes.sets import generate_set
from reacthuman.scenes.truth import ground_truth
from reacthuman.scoring.run import score_row

SECRET = b"PRIVATE-NOT-FOR-ANY-ENDPOINT " * 8


def decide(*args: str) -> subprocess.CompletedProcess[str]:
    """``reacthuman decide`` in a fresh process; a hang is a failure, not a stuck suite."""
    return subprocess.run(
        [sys.executable, "-m", "reacthuman", "decide", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def spoil(frame, how: str, tmp_path) -> None:
    """Replace a frame file with a link out of the scene, a link to /dev/zero or a FIFO."""
    frame.unlink()
    if how == "link-out":
        secret = tmp_path / "private.txt"
        secret.write_bytes(SECRET)
        frame.symlink_to(secret)
    elif how == "dev-zero":
        frame.symlink_to("/dev/zero")
    else:
        os.mkfifo(frame)


@pytest.mark.parametrize(
    ("how", "why"),
    [("link-out", "a link out of"), ("dev-zero", "a link out of"), ("fifo", "not a regular file")],
)
def test_a_frame_that_leads_elsewhere_is_that_scenes_error_and_never_sent(
    observed, tmp_path, server, how, why
):
    root = tmp_path / "observed"
    shutil.copytree(observed, root)
    scenes = find_scenes(root)[:3]
    for extra in find_scenes(root)[3:]:
        shutil.rmtree(extra)
    bad = scenes[0]
    frame = sorted((brain_folder(bad) / "frames").iterdir())[0]
    spoil(frame, how, tmp_path)
    server.default = ("reply", json.dumps(GOOD))
    result = decide(
        str(root), "--model", "fake/model", "--base-url", server.url,
        "--store", str(tmp_path / "s.sqlite"), "--out", str(tmp_path / "out"), "--quiet",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert len(server.requests) == 2  # the two good scenes, nothing for the bad one
    sent = json.dumps([r["body"] for r in server.requests])
    assert base64.b64encode(SECRET).decode()[:40] not in sent
    plan = json.loads((tmp_path / "out" / bad.relative_to(root) / "plan.json").read_text())
    assert plan["plan"] is None
    assert frame.name in plan["r1_reason"] and why in plan["r1_reason"], plan["r1_reason"]
    assert "1 scenes could not be decided" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_probes_of_a_scene_with_a_frame_linked_out_are_unusable_and_never_sent(
    observed, tmp_path, server
):
    root = tmp_path / "observed"
    shutil.copytree(observed, root)
    keep = find_scenes(root)[:2]
    for extra in find_scenes(root)[2:]:
        shutil.rmtree(extra)
    probes_file = tmp_path / "probes.jsonl"
    made = run_cli("probes", "generate", str(root), "--out", str(probes_file))
    assert made.returncode == 0, made.stderr
    bad = keep[0]
    frame, *others = sorted((brain_folder(bad) / "frames").iterdir())
    spoil(frame, "link-out", tmp_path)
    untouched = base64.b64encode(others[0].read_bytes()).decode()
    server.default = ("reply", '{"answer": "A"}')
    answers = tmp_path / "answers.jsonl"
    done = run_cli(
        "probes", "decide", str(probes_file), str(root), "--model", "fake-vlm",
        "--base-url", server.url, "--store", str(tmp_path / "s.sqlite"), "--out", str(answers),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in answers.read_text().splitlines()]
    refused = [r for r in rows if r["scene_id"] == bad.name]
    assert refused and all(frame.name in r["unusable"] for r in refused)
    assert all("a link out of" in r["unusable"] for r in refused)
    assert server.requests and len(rows) > len(refused)  # the other scene was asked
    sent = json.dumps([r["body"] for r in server.requests])
    assert base64.b64encode(SECRET).decode()[:40] not in sent
    assert untouched not in sent  # nothing of the refused scene was sent


def test_a_linked_brain_folder_is_named_not_passed_over(observed, tmp_path):
    root = tmp_path / "observed"
    shutil.copytree(observed, root)
    scenes = find_scenes(root)[:2]
    for extra in find_scenes(root)[2:]:
        shutil.rmtree(extra)
    elsewhere = tmp_path / "elsewhere"
    shutil.move(brain_folder(scenes[0]), elsewhere)
    brain_folder(scenes[0]).symlink_to(elsewhere)
    out = tmp_path / "out"
    result = decide(str(root), "--brain", "always-dodge", "--out", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    plan = json.loads((out / scenes[0].relative_to(root) / "plan.json").read_text())
    assert "observation: a link out of" in plan["r1_reason"], plan
    assert "1 scenes could not be decided" in result.stderr


def test_read_inside_refuses_what_a_scene_must_not_hold(tmp_path):
    scene = tmp_path / "scene"
    scene.mkdir()
    (scene / "big.png").write_bytes(b"\0")
    os.truncate(scene / "big.png", FRAME_LIMIT + 1)  # sparse: no disk used
    with pytest.raises(UnsafeFile, match=r"big.png: is 32.0 MB, over the 32 MB limit"):
        read_inside(scene / "big.png", scene, FRAME_LIMIT)
    (scene / "inside.png").symlink_to(scene / "big.png")  # a link that stays is followed
    with pytest.raises(UnsafeFile, match="over the 32 MB limit"):
        read_inside(scene / "inside.png", scene, FRAME_LIMIT)
    (scene / "small.png").write_bytes(b"png")
    assert read_inside(scene / "small.png", scene, FRAME_LIMIT) == b"png"
    with pytest.raises(UnsafeFile, match="not a regular file \\(a folder\\)"):
        read_inside(scene, tmp_path, FRAME_LIMIT)


@pytest.fixture(scope="module")
def broken_set(tmp_path_factory):
    """Four scenes of a set; the third's spec.json is corrupt."""
    manifest, scenes = generate_set(per_family=1)
    root = tmp_path_factory.mktemp("set") / "set"
    chosen = scenes[:4]
    write_set(root, manifest.model_copy(update={"scenes": manifest.scenes[:4]}), chosen)
    bad = root / manifest.scenes[2] / "spec.json"
    bad.write_text('{"schema_version": "2.1", "seed": "not a number"')
    return root, bad


def test_bench_chooses_its_limit_of_scenes_before_reading_any(broken_set):
    root, bad = broken_set
    scenes, problems = read_bench_set(root, 2)
    assert len(scenes) == 2 and problems == []  # the bad third is never read
    scenes, problems = read_bench_set(root, None)
    assert len(scenes) == 3
    assert len(problems) == 1 and str(bad) in problems[0] and "\n" not in problems[0]


def test_bench_names_a_bad_scene_and_runs_past_it(broken_set, tmp_path):
    # --controller nonsense stops the run after the scenes are chosen and before any is
    # simulated: what is said about the scenes is all there is to see.
    root, bad = broken_set
    base = ["bench", "--scenes", str(root), "--direct", "--controller", "nonsense"]
    limited = run_cli(*base, "--limit", "2", "--out", str(tmp_path / "a"))
    assert limited.returncode == 1
    assert "--controller nonsense" in limited.stderr and str(bad) not in limited.stderr
    whole = run_cli(*base, "--out", str(tmp_path / "b"))
    assert whole.returncode == 1
    assert f"unreadable: {bad}: invalid spec: " in whole.stderr
    assert "--controller nonsense" in whole.stderr  # the set itself was not refused
    assert "Traceback" not in whole.stderr


@pytest.mark.slow
def test_observe_runs_the_readable_scenes_of_a_set_and_names_the_bad_one(broken_set, tmp_path):
    root, bad = broken_set
    small = tmp_path / "set"
    shutil.copytree(root, small)
    manifest = json.loads((small / "set.json").read_text())
    manifest["scenes"] = manifest["scenes"][1:3]  # one good scene, then the bad one
    (small / "set.json").write_text(json.dumps(manifest))
    for entry in json.loads((root / "set.json").read_text())["scenes"]:
        if entry not in manifest["scenes"]:
            shutil.rmtree(small / entry)
    result = run_cli("observe", str(small), "--out", str(tmp_path / "obs"), "--quiet",
                     "--resolution", "320x180", "--cache", str(tmp_path / "cache"))  # fmt: skip
    assert result.returncode == 1, result.stderr
    assert "1 observed" in result.stdout and "1 unreadable" in result.stdout
    assert f"{small / bad.relative_to(root)}: invalid spec: " in result.stderr
    assert "Traceback" not in result.stderr


def test_replay_takes_a_bags_mcap_file(tmp_path):
    _manifest, scenes = generate_set(per_family=1)
    spec = scenes[0].spec
    path = spec.intended.path
    samples = [
        (a.t, a.pos, tuple((b.pos[i] - a.pos[i]) / (b.t - a.t) for i in range(3)))
        for a, b in zip(path, path[1:], strict=False)
    ]
    truth = ground_truth(spec, samples, spec.intended.floor_time, 0.1)
    decision = Decision(scene_id=spec.scene_id, brain="always-dodge", plan=dodge_plan())
    envelope = {"run_id": "r", "episode": 0}
    messages = [
        (contract.SCENE, contract.SceneMessage(
            **envelope, brain="always-dodge", start_ns=0, end_ns=10, spec=spec)),
        (contract.GROUND_TRUTH, contract.TruthMessage(**envelope, truth=truth)),
        (contract.EXECUTE, contract.ExecuteMessage(
            **envelope, start_ns=5, ticks=1, controller="kinematic-stand-in",
            robot_pos=spec.observer.pos, robot_yaw=spec.observer.yaw, decision=decision)),
        (contract.SCORE, contract.ScoreMessage(
            **envelope, row=score_row(decision, truth, spec))),
    ]  # fmt: skip
    from rosbags.typesys import Stores, get_typestore

    store = get_typestore(Stores.ROS2_KILTED)
    bag = EpisodeBag(tmp_path / "bags" / "always-dodge" / spec.scene_id)
    for ns, (topic, message) in enumerate(messages):
        raw = store.serialize_cdr(
            store.types["std_msgs/msg/String"](data=message.model_dump_json()),
            "std_msgs/msg/String",
        )
        bag.write(topic, raw, ns + 1)
    folder = bag.close(finished=True)
    assert folder is not None
    (mcap,) = folder.glob("*.mcap")
    alone = tmp_path / "alone.mcap"  # copied out of its bag folder
    shutil.copy(mcap, alone)
    for target in (mcap, alone):
        replay = run_cli("replay", str(target))
        assert replay.returncode == 0, replay.stdout + replay.stderr
        assert "same as the live score" in replay.stdout
    other = tmp_path / "notes.txt"
    other.write_text("not a bag")
    replay = run_cli("replay", str(folder), str(other))
    assert replay.returncode == 1
    assert f"{other}: not an .mcap file or a bag folder" in replay.stderr
    assert "same as the live score" in replay.stdout


def test_a_validation_error_is_one_line_naming_the_field(observed, tmp_path):
    bad = tmp_path / "classifier.yaml"
    bad.write_text("move: -1\n")
    result = run_cli(
        "score", "--observations", str(observed), "--decisions", str(tmp_path),
        "--classifier", str(bad), "--out", str(tmp_path / "run"),
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"reacthuman: error: --classifier {bad}: move: Input should be greater than 0"
    ]
