"""The ROS 2 node graph: separate processes over real DDS on loopback, bags, faults."""

from __future__ import annotations

import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import csv_rows, graph_env, node_command, run_cli

pytestmark = [pytest.mark.genesis, pytest.mark.slow]

SCENES = 3
# Two brains on each scene played once: the oracle closes a hand on object_drop's object, and
# always-catch's plan then runs from the same freeze (the hand opened again).
BRAINS = ("oracle", "always-catch")
NODE_PROCESSES = ("brain_node", "spine_node", "scorer_node", "recorder_node")


def start(node: str, run: Path, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        node_command(node, run_dir=run, brain=",".join(BRAINS)),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def rows(path: Path) -> dict[tuple[str, str], str]:
    with sqlite3.connect(path) as db:
        found = db.execute("SELECT brain, scene_id, row FROM scores").fetchall()
    return {(brain, scene): row for brain, scene, row in found}


def all_bags_sealed(run: Path) -> bool:
    bags = list((run / "bags").glob("*/*/*/metadata.yaml"))
    return len(bags) == SCENES * len(BRAINS) and not list((run / "bags").glob("**/*.partial"))


@pytest.fixture(scope="module")
def graph_run(tmp_path_factory):
    """Three scenes with two brains through five processes (the simulator's scenes in two
    worker processes one after the other); the direct path's run is the session's
    ``reference``."""
    root = tmp_path_factory.mktemp("graph")
    env = {**graph_env(), "PYTHONFAULTHANDLER": "1"}  # SIGABRT: every thread's traceback
    helpers = [start(node, root / "graph", env) for node in NODE_PROCESSES]
    try:
        sim = subprocess.run(
            node_command(
                "sim_node",
                run_dir=root / "graph",
                brain=",".join(BRAINS),
                limit=SCENES,
                width=320,
                height=180,
                discovery_timeout=60.0,
                episodes_per_process=2,  # the third scene in a fresh worker process
            ),
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        # The simulator ends once the recorder holds a bag of each scored episode; the nodes
        # stop once every bag is sealed (the tests name what is missing, should one be).
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all_bags_sealed(root / "graph"):
            time.sleep(0.1)
        for process in helpers:
            process.send_signal(signal.SIGINT)
        logs = {}
        for node, process in zip(NODE_PROCESSES, helpers, strict=True):
            try:
                logs[node] = process.communicate(timeout=30)[0]
            except subprocess.TimeoutExpired:  # where it hangs, in its log
                process.send_signal(signal.SIGABRT)
                try:
                    logs[node] = process.communicate(timeout=10)[0]
                except subprocess.TimeoutExpired:
                    process.kill()
                    logs[node] = process.communicate()[0]
    return root, sim, helpers, logs


def test_four_nodes_as_processes_score_like_the_direct_path(graph_run, reference):
    root, sim, helpers, logs = graph_run
    assert sim.returncode == 0, sim.stderr[-3000:] + sim.stdout[-3000:]
    codes = {node: p.returncode for node, p in zip(NODE_PROCESSES, helpers, strict=True)}
    failed = {node: code for node, code in codes.items() if code != 0}
    assert not failed, "\n".join(
        f"{node} ({code}): {logs[node][-6000:]}" for node, code in failed.items()
    )
    live, offline = rows(root / "graph" / "results.sqlite"), reference.rows(BRAINS)
    assert len(live) == SCENES * len(BRAINS)
    assert live == offline  # byte-equal score rows, execution outcome included
    assert '"outcome":' in next(iter(live.values()))


def test_every_execution_is_the_direct_paths_contact_by_contact(graph_run, reference):
    """The whole outcome (first contact, its time, speed and impulse), not only the score
    row: a command answered for the wrong tick changes these first."""
    root = graph_run[0]
    outcomes = reference.outcomes(BRAINS)
    assert len(outcomes) == SCENES * len(BRAINS)
    for direct in outcomes:
        graph = root / "graph" / direct.relative_to(reference.out)
        assert graph.read_text() == direct.read_text(), direct.parent.name


def test_two_worker_processes_write_what_one_does(reference, tmp_path):
    """`reacthuman bench --workers 2`: two node graphs, each on every other scene and on a
    DDS domain of its own, into one run folder: the scores, outcomes and bags of one run."""
    out = tmp_path / "two"
    command = [sys.executable, "-m", "reacthuman", "bench", "--workers", "2", "--out", str(out)]
    command += [arg for brain in BRAINS for arg in ("--brain", brain)]
    command += ["--limit", str(SCENES), "--resolution", "320x180"]
    two = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert two.returncode == 0, two.stderr[-3000:]
    assert "2 worker processes" in two.stderr
    assert two.stderr.count("ROS_DOMAIN_ID") == 2  # each worker's graph on its own domain
    assert rows(out / "results.sqlite") == reference.rows(BRAINS)
    assert csv_rows(out / "scores.csv", BRAINS) == reference.csv_rows(BRAINS)  # in its order
    for direct in reference.outcomes(BRAINS):
        mine = out / direct.relative_to(reference.out)
        assert mine.read_text() == direct.read_text(), direct.parent.name
    assert len(list((out / "bags").glob("*/*/*/metadata.yaml"))) == SCENES * len(BRAINS)
    assert "SAA" in two.stdout  # one results table, from the whole run folder


def test_the_main_jobs_console_shows_results_and_the_simulators_warnings_go_to_a_file(reference):
    console = reference.process.stdout + reference.process.stderr
    assert "oracle" in console and "SAA" in console  # the progress and the results table
    assert "[Genesis]" not in console
    log = reference.out / "libraries.log"
    assert str(log.resolve()) in console  # the console says where they went
    assert "[Genesis]" in log.read_text() and "\x1b[" not in log.read_text()


def test_bags_replay_to_the_live_scores(graph_run):
    root, sim, _helpers, logs = graph_run
    bags = sorted((root / "graph" / "bags").glob("*/*/*/metadata.yaml"))
    # Where one is missing, the recorder's log names it and what it never received.
    assert len(bags) == SCENES * len(BRAINS), logs["recorder_node"][-4000:] + sim.stderr[-2000:]
    assert not list((root / "graph" / "bags").glob("**/*.partial"))
    for bag in bags:  # named after its episode, inside and out
        assert [f.name for f in bag.parent.glob("*.mcap")] == [f"{bag.parent.name}.mcap"]
    replay = run_cli("replay", "--topics", *(str(b.parent) for b in bags))
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert replay.stdout.count("same as the live score") == SCENES * len(BRAINS)

    from reacthuman.ros.bag import read_episode
    from reacthuman.sim.episode import standing_ticks
    from reacthuman.sim.settings import RenderSettings

    oracle_bag = next(b for b in bags if b.parts[-4] == "oracle")
    episode = read_episode(oracle_bag.parent)
    for topic in (
        "/clock",
        "/tf",
        "/joint_states",
        "/reacthuman/markers",
        "/reacthuman/camera/egocentric/image_raw",
        "/reacthuman/camera/overhead/camera_info",
        "/reacthuman/spine/joint_command",
        "/reacthuman/plan",
        "/reacthuman/outcome",
        "/reacthuman/score",
    ):
        assert episode.topics.get(topic, 0) > 0, topic
    assert episode.topics["/reacthuman/camera/egocentric/image_raw"] == 5
    # The G1 stands under the spine's policy from the scene's start to the freeze, then
    # executes: the spine answered every tick of both phases, each phase with its gains.
    stand = standing_ticks(episode.scene.spec, RenderSettings())
    assert episode.topics["/reacthuman/stand"] == 1
    assert episode.topics["/reacthuman/spine/joint_command"] == stand + episode.execute.ticks
    assert episode.topics["/reacthuman/spine/gains"] == 2
    # The scene's second brain ran from the same freeze: its bag holds the window and the
    # execution, and no stand of its own.
    family, scene = oracle_bag.parent.parts[-2:]
    second = read_episode(root / "graph" / "bags" / BRAINS[1] / family / scene)
    assert "/reacthuman/stand" not in second.topics
    assert second.topics["/reacthuman/camera/egocentric/image_raw"] == 5
    assert second.topics["/reacthuman/spine/joint_command"] == second.execute.ticks
    assert second.topics["/reacthuman/spine/gains"] == 1


def test_one_damaged_bag_is_its_own_error_and_the_others_replay(graph_run, tmp_path):
    root = graph_run[0]
    shutil.copytree(root / "graph" / "bags", tmp_path / "bags")
    bags = sorted(p.parent for p in (tmp_path / "bags").glob("oracle/*/*/metadata.yaml"))
    (storage,) = bags[0].glob("*.mcap")
    data = bytearray(storage.read_bytes())
    for at in range(4096, 4096 + 200):  # 200 flipped bytes inside the first chunk's messages
        data[at] ^= 0xFF
    storage.write_bytes(bytes(data))
    replay = run_cli("replay", str(tmp_path / "bags"))
    assert replay.returncode == 1
    assert f"{storage}: damaged: the chunk at byte" in replay.stderr
    assert "Traceback" not in replay.stderr
    assert replay.stdout.count("same as the live score") == SCENES - 1 + SCENES


def test_markers_and_transforms_read_back_from_a_bag(graph_run):
    from rosbags.rosbag2 import Reader
    from rosbags.typesys import Stores, get_typestore

    root = graph_run[0]
    bag = sorted((root / "graph" / "bags").glob("oracle/*/*/metadata.yaml"))[0].parent
    store = get_typestore(Stores.ROS2_KILTED)
    frames, namespaces = set(), set()
    with Reader(bag) as reader:
        topics = {c.topic for c in reader.connections}
        for connection, _ns, raw in reader.messages():
            if connection.topic == "/tf":
                msg = store.deserialize_cdr(raw, connection.msgtype)
                frames |= {(t.header.frame_id, t.child_frame_id) for t in msg.transforms}
            if connection.topic == "/reacthuman/markers":
                msg = store.deserialize_cdr(raw, connection.msgtype)
                namespaces |= {m.ns for m in msg.markers if m.ns}
    assert ("world", "base_link") in frames
    assert ("base_link", "left_hand") in frames
    assert ("world", "egocentric_camera_optical") in frames
    assert {"trajectory", "left_hand_plan", "right_hand_plan", "robot"} <= namespaces
    assert {"/imu", "/joint_states"} <= topics  # the G1's state as the spine received it


def test_a_missing_node_is_named_within_seconds(tmp_path):
    env = graph_env()
    sim = subprocess.run(
        node_command("sim_node", run_dir=tmp_path, discovery_timeout=2.0),
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert sim.returncode == 1
    assert "brain_node, spine_node, scorer_node not found after 2 s" in sim.stderr + sim.stdout


CRASHING_BRAIN = """
from reacthuman.ros.graph import compose

class Crashes:
    name, endpoint = "crashes", None

    def decoding(self):
        return {}

    async def decide(self, observation, folder):
        raise RuntimeError("the vision tower fell over")

params = {"run_dir": RUN, "brain": "crashes", "limit": 2, "width": 320, "height": 180}
result = compose(params, record=False, brain=Crashes())
print("STATE", result.status.state, result.status.episodes)
"""


def test_a_crashing_brain_is_a_recorded_r1_and_the_run_goes_on(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", f"RUN = {str(tmp_path)!r}\n" + CRASHING_BRAIN],
        env=graph_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert "STATE done 2" in done.stdout, done.stderr[-3000:]
    scored = rows(tmp_path / "results.sqlite")
    assert len(scored) == 2
    for row in scored.values():
        assert '"action":null' in row and "the vision tower fell over" in row
        assert '"primary_rule":"R1"' in row


def test_ctrl_c_keeps_finished_episodes_and_the_rerun_resumes(tmp_path):
    command = [sys.executable, "-m", "reacthuman", "bench", "--brain", "oracle", "--limit", "2"]
    command += ["--resolution", "320x180", "--workers", "1", "--out", str(tmp_path)]
    bench = subprocess.Popen(
        command, env=graph_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    timings = tmp_path / "timings.jsonl"
    deadline = time.monotonic() + 300
    while not (timings.exists() and timings.read_text().count("\n") >= 1):
        assert bench.poll() is None and time.monotonic() < deadline, bench.communicate()[0]
        time.sleep(0.2)
    bench.send_signal(signal.SIGINT)
    output = bench.communicate(timeout=120)[0]
    assert bench.returncode == 130, output[-3000:]
    finished = rows(tmp_path / "results.sqlite")
    assert len(finished) == 1  # interrupted during the second scene
    bags = list((tmp_path / "bags").glob("oracle/*/*/metadata.yaml"))
    assert len(bags) == len(finished)
    assert not list((tmp_path / "bags").glob("**/*.partial"))

    # A scored episode whose bag was lost (kill -9 while the recorder wrote it) is played
    # again to record it; the other finished ones are not.
    lost = bags[0].parent
    shutil.rmtree(lost)
    again = run_cli(*command[3:])
    assert again.returncode == 0, again.stderr[-3000:]
    assert "1 scored episode(s) have no bag" in again.stderr and lost.name in again.stderr
    assert len(rows(tmp_path / "results.sqlite")) == 2
    played = [line for line in timings.read_text().splitlines() if line]
    assert len(played) == 3  # 2, and the one whose bag was lost once more
    assert len(list((tmp_path / "bags").glob("oracle/*/*/metadata.yaml"))) == 2


def test_a_model_behind_a_loopback_endpoint_decides_through_the_graph(tmp_path, server):
    """A model at an OpenAI-compatible endpoint decides through the node graph, shown the
    frames ``--frames`` asks for, and its key reaches no file."""
    import json

    from loopback import GOOD

    key = "fake-test-credential-graph-0123456789"  # not a real key
    server.default = ("reply", json.dumps(GOOD))
    env = {**graph_env(), "OPENROUTER_API_KEY": key}
    done = subprocess.run(
        [sys.executable, "-m", "reacthuman", "bench", "--model", "fake/model", "--base-url",
         server.url, "--limit", "2", "--resolution", "320x180", "--frames", "3",
         "--out", str(tmp_path)],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(server.requests) == 2
    for request in server.requests:  # --frames reaches the simulator node: 3 views x 3 frames
        content = request["body"]["messages"][1]["content"]
        assert sum(part["type"] == "image_url" for part in content) == 9
    scored = rows(tmp_path / "results.sqlite")
    assert len(scored) == 2 and all('"brain":"fake/model"' in r for r in scored.values())
    assert len(list((tmp_path / "bags").glob("fake_model/*/*/metadata.yaml"))) == 2
    for path in tmp_path.rglob("*"):  # the key reaches no bag, store, log or report
        if path.is_file():
            assert key.encode() not in path.read_bytes(), path
    assert key not in done.stdout + done.stderr


def test_only_the_oracle_brain_node_subscribes_to_ground_truth(tmp_path):
    import rclpy

    from reacthuman.ros import contract
    from reacthuman.ros.brain_node import BrainNode

    context = rclpy.Context()
    rclpy.init(context=context)
    try:
        for brain, expected in (("heuristic", False), ("always-dodge", False), ("oracle", True)):
            node = BrainNode({"brain": brain, "run_dir": str(tmp_path)}, context=context)
            topics = {s.topic_name for s in node.subscriptions}
            assert (contract.GROUND_TRUTH in topics) is expected, brain
            assert contract.image_topic(contract.CameraName.egocentric) in topics
            node.destroy_node()
    finally:
        rclpy.shutdown(context=context)
