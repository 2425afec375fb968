"""The node graph's pieces without a simulator: conversions, parameters, isolation, launch."""

from __future__ import annotations

import ast
import asyncio
import contextlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import graph_env, node_command

from reacthuman.ros import contract, convert
from reacthuman.ros.graph import NODES, PARAMETERS_FILE, isolate, node_parameters
from reacthuman.spine.g1 import G1_JOINTS

ROOT = Path(__file__).resolve().parents[1]


def test_images_and_stamps_survive_conversion_bit_for_bit():
    from rclpy.serialization import serialize_message

    from reacthuman.ros.recorder_node import stamp_of

    pixels = np.random.default_rng(0).integers(0, 255, (36, 64, 3), dtype=np.uint8)
    msg = convert.image(pixels, 12_345_678_901, "egocentric_camera_optical")
    assert np.array_equal(convert.image_array(msg), pixels)
    assert convert.ns_of(msg.header.stamp) == 12_345_678_901
    assert stamp_of(serialize_message(msg)) == 12_345_678_901
    with pytest.raises(convert.MessageError, match="HxWx3 uint8"):
        convert.image(pixels.astype(np.float32), 0, "x")


def test_a_malformed_json_message_names_topic_and_field():
    from std_msgs.msg import String

    with pytest.raises(convert.MessageError, match=r"/reacthuman/plan: not a valid PlanMessage"):
        convert.from_string(contract.PlanMessage, String(data='{"run_id": "r"}'), contract.PLAN)


def test_optical_frames_look_along_the_camera():
    from reacthuman.observation import CameraInfo

    info = CameraInfo(
        name="overhead", width=64, height=36, fov_deg=60, fx=1, fy=1, cx=32, cy=18,
        pos=(0.0, 0.0, 3.0), lookat=(1.0, 0.0, 3.0), up=(0.0, 0.0, 1.0),
    )  # fmt: skip
    w, x, y, z = convert.optical_rotation(info)
    # optical z (forward) must map to world +x: rotate (0, 0, 1) by the quaternion
    v = np.array([0.0, 0.0, 1.0])
    q = np.array([x, y, z])
    forward = v + 2 * np.cross(q, np.cross(q, v) + w * v)
    assert forward == pytest.approx([1.0, 0.0, 0.0], abs=1e-9)


def test_every_node_reads_the_shared_section_then_its_own(tmp_path):
    params = node_parameters("sim_node")
    assert params["scenes"] == "default" and params["brain"] == "oracle"
    assert "api_key_env" in node_parameters("brain_node")
    bad = tmp_path / "bad.yaml"
    bad.write_text("sim_node: [1, 2]\n")
    with pytest.raises(ValueError, match="sim_node"):
        node_parameters("sim_node", bad)


def test_every_declared_parameter_has_a_default_in_the_parameter_file():
    from reacthuman.ros.base import COMMON_PARAMETERS

    for entry in NODES:
        declared = {**COMMON_PARAMETERS, **entry.load().PARAMETERS}
        in_file = node_parameters(entry.name)
        assert set(in_file) <= set(declared), entry.name
        for key, value in in_file.items():
            assert type(value) is type(declared[key]), (entry.name, key)


def test_isolation_keeps_what_the_user_set():
    env = {"ROS_DOMAIN_ID": "7"}
    chosen = isolate(env)
    assert env["ROS_DOMAIN_ID"] == "7" and "ROS_DOMAIN_ID" not in chosen
    assert env["ROS_AUTOMATIC_DISCOVERY_RANGE"] == "LOCALHOST"
    assert Path(env["FASTDDS_DEFAULT_PROFILES_FILE"]).is_file()
    other = {}
    isolate(other)
    assert 1 <= int(other["ROS_DOMAIN_ID"]) <= 101


def test_two_runs_never_share_a_domain(tmp_path):
    # A run holds its domain while it lives: another run never draws it, and one told to use
    # it (an exported ROS_DOMAIN_ID) refuses before any work instead of exchanging messages.
    from reacthuman.ros.graph import DomainInUse, choose_domain

    code = (
        "import sys, time\n"
        "from reacthuman.ros.graph import isolate\n"
        "env = {}\n"
        "isolate(env)\n"
        "print(env['ROS_DOMAIN_ID'], flush=True)\n"
        "time.sleep(60)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "ROS_DOMAIN_ID"}
    command = [sys.executable, "-c", code]
    other = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    try:
        held = int(other.stdout.readline())
        with pytest.raises(DomainInUse, match="every ROS_DOMAIN_ID in 1-101 is held"):
            choose_domain([held])
        assert choose_domain([held, *range(1, 102)]) != held
        env["ROS_DOMAIN_ID"] = str(held)
        done = subprocess.run(
            [sys.executable, "-m", "reacthuman", "bench", "--out", str(tmp_path / "run")],
            env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 1
        assert f"ROS_DOMAIN_ID {held} is in use by another ReactHuman run" in done.stderr
        assert f"pid {other.pid}" in done.stderr
        assert not (tmp_path / "run").exists()
    finally:
        other.kill()
        other.wait()


def test_the_launch_file_starts_the_graphs_node_list_with_its_parameter_file():
    source = (ROOT / "launch" / "bench.launch.py").read_text()
    tree = ast.parse(source)
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "reacthuman.ros.graph"
        for alias in node.names
    }
    assert {"NODES", "PARAMETERS_FILE"} <= imported
    assert (ROOT / "config" / PARAMETERS_FILE).is_file()
    setup = (ROOT / "setup.py").read_text()
    for entry in NODES:  # every node is an executable the launch file can start
        assert f'"{entry.name}"' in setup
    # every launch argument overrides a parameter that some node reads from the file, with
    # that parameter's type (the launch file converts the argument's text to it)
    in_file = {k: v for entry in NODES for k, v in node_parameters(entry.name).items()}
    arguments = launch_arguments(tree)
    for name, (param, kind) in arguments.items():
        assert param in in_file, name
        assert type(in_file[param]).__name__ == kind, name
    assert {"controller", "policy_path", "brain", "base_url", "scenes", "limit"} <= set(arguments)


def launch_arguments(tree: ast.Module) -> dict[str, tuple[str, str]]:
    """The launch file's ``ARGUMENTS = {"name": ("parameter", type), ...}``, types by name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "ARGUMENTS":
            return {
                ast.literal_eval(key): (ast.literal_eval(value.elts[0]), value.elts[1].id)
                for key, value in zip(node.value.keys, node.value.values, strict=True)
            }
    raise AssertionError("launch/bench.launch.py defines no ARGUMENTS")


def test_the_launch_file_builds_where_ros2_launch_is_installed():
    launch = pytest.importorskip("launch")
    if not hasattr(launch, "LaunchDescription"):  # the repo's launch/ folder, not ROS 2's
        pytest.skip("ROS 2 launch is not installed")
    pytest.importorskip("launch_ros")
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_launch", ROOT / "launch/bench.launch.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    description = module.generate_launch_description()
    assert len(description.entities) > len(NODES)

    # the nodes get the parameter file, then only the arguments given, typed
    context = launch.LaunchContext()
    for action in description.entities:
        if isinstance(action, launch.actions.DeclareLaunchArgument):
            context.launch_configurations[action.name] = action.default_value[0].text
    context.launch_configurations.update(limit="5", videos="True", controller="g1-holosoma-ppo")
    started = module.start_nodes(context)
    nodes = [a for a in started if type(a).__name__ == "Node"]
    assert len(nodes) == len([e for e in NODES if not e.unitree])  # the guard: hardware
    from launch_ros.utilities import evaluate_parameters

    # sim_node's values from the file, the arguments on top
    (values,) = evaluate_parameters(context, nodes[0]._Node__parameters)
    assert values == {
        **node_parameters("sim_node"),
        "limit": 5,
        "videos": True,
        "controller": "g1-holosoma-ppo",
    }
    context.launch_configurations["limit"] = "five"
    with pytest.raises(ValueError, match="limit:='five' must be an integer"):
        module.start_nodes(context)
    context.launch_configurations.update(limit="", params="/nonexistent.yaml")
    with pytest.raises(FileNotFoundError, match="params:=/nonexistent.yaml"):
        module.start_nodes(context)


def nodes(actions: list) -> list:
    return [a for a in actions if type(a).__name__ == "Node"]


def hardware_launch():
    """launch/hardware.launch.py as a module: its node table reads without ROS 2 launch."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "hardware_launch", ROOT / "launch/hardware.launch.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def defaults(module, **changes: str) -> dict:
    configurations = {name: default for name, (default, *_rest) in module.ARGUMENTS.items()}
    return module.typed_arguments({**configurations, **changes})


def test_the_hardware_launch_puts_ros_on_a_dds_domain_apart_from_unitrees(monkeypatch):
    """ROS 2 and Unitree's interface on one domain: every ROS participant's start printed
    62-222 lines of "ddsi_xt_type_add_typeobj with invalid type object"."""
    module = hardware_launch()
    monkeypatch.delenv("ROS_DOMAIN_ID", raising=False)
    specs = module.node_specs(defaults(module))
    assert {env["ROS_DOMAIN_ID"] for _exe, _params, env in specs} == {"1"}
    assert {params["dds_domain"] for exe, params, _env in specs if "dds_domain" in params} == {0}
    monkeypatch.setenv("ROS_DOMAIN_ID", "7")  # the user's own is kept
    assert module.node_specs(defaults(module))[0][2]["ROS_DOMAIN_ID"] == "7"
    monkeypatch.setenv("ROS_DOMAIN_ID", "0")  # but never Unitree's by default
    assert module.node_specs(defaults(module))[0][2]["ROS_DOMAIN_ID"] == "1"
    assert module.node_specs(defaults(module, ros_domain="4"))[1][2]["ROS_DOMAIN_ID"] == "4"
    with pytest.raises(ValueError, match="ros_domain:='x' is not an int"):
        module.node_specs(defaults(module, ros_domain="x"))


def test_the_hardware_launch_file_starts_the_guard_disarmed_the_spine_on_the_g1_and_the_brain():
    launch = pytest.importorskip("launch")
    if not hasattr(launch, "LaunchDescription"):
        pytest.skip("ROS 2 launch is not installed")
    pytest.importorskip("launch_ros")
    import importlib.util

    from launch_ros.utilities import evaluate_parameters

    path = ROOT / "launch/hardware.launch.py"
    spec = importlib.util.spec_from_file_location("hardware_launch", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    description = module.generate_launch_description()
    context = launch.LaunchContext()
    for action in description.entities:
        if isinstance(action, launch.actions.DeclareLaunchArgument):
            context.launch_configurations[action.name] = action.default_value[0].text
    context.launch_configurations["network_interface"] = "enp3s0"
    guard, spine, recorder, brain = nodes(module.start_nodes(context))
    (guard_values,) = evaluate_parameters(context, guard._Node__parameters)
    (spine_values,) = evaluate_parameters(context, spine._Node__parameters)
    (recorder_values,) = evaluate_parameters(context, recorder._Node__parameters)
    (brain_values,) = evaluate_parameters(context, brain._Node__parameters)
    assert guard_values["arm"] is False and guard_values["network_interface"] == "enp3s0"
    assert spine_values["backend"] == "g1" and spine_values["start_on"] == "plan"
    assert spine_values["dds_domain"] == 0 and spine_values["soft_start"] == 2.0
    assert recorder_values["cameras"] == "egocentric=/camera/color/image_raw"
    assert brain_values["brain"] == "heuristic" and brain_values["use_sim_time"] is False
    assert recorder_values["plan_timeout"] > brain_values["brain_timeout"]
    context.launch_configurations["brain"] = "none"
    assert len(nodes(module.start_nodes(context))) == 2
    context.launch_configurations["brain"] = "oracle"
    with pytest.raises(ValueError, match="brain:=oracle: .* ground truth"):
        module.start_nodes(context)
    context.launch_configurations["brain"] = "heuristic"
    context.launch_configurations["arm"] = "yes"
    with pytest.raises(ValueError, match="arm:='yes'"):
        module.start_nodes(context)


def test_a_batch_row_of_a_body_without_velocities_reads_back_without_them():
    """The kinematic stand-in reports no velocities: its batch of 10 joints was 32 values
    where a row holds 42, the spine refused every batch and bench failed after 120 s."""
    from reacthuman.spine.command import JointState

    names = tuple(f"j{i}" for i in range(10))
    state = JointState(0, 0.0, names, tuple(float(i) for i in range(10)), ())
    (row,) = convert.batch_rows(convert.batch_states_msg([state], [20_000_000]))
    assert row.positions == state.positions and row.velocities == ()
    assert row.imu_quat is None and row.ns == 20_000_000


def test_the_rviz_config_shows_the_contracts_topics():
    import yaml

    config = yaml.safe_load((ROOT / "config" / "reacthuman.rviz").read_text())
    displays = config["Visualization Manager"]["Displays"]
    topics = {d["Topic"]["Value"] for d in displays if isinstance(d.get("Topic"), dict)}
    assert topics <= set(contract.TOPIC)
    assert contract.MARKERS in topics
    assert {contract.image_topic(v) for v in contract.CameraName} <= topics
    assert config["Visualization Manager"]["Global Options"]["Fixed Frame"] == contract.WORLD_FRAME


class Hangs:
    name, endpoint = "hangs", None

    def decoding(self):
        return {}

    async def decide(self, observation, folder):
        await asyncio.sleep(30)


class Crashes(Hangs):
    name = "crashes"

    async def decide(self, observation, folder):
        raise RuntimeError("segfault in the vision tower")


@pytest.mark.parametrize(
    ("brain", "reason"),
    [(Hangs(), "did not answer within 0.2 s"), (Crashes(), "RuntimeError: segfault")],
)
def test_a_hanging_or_crashing_brain_is_a_recorded_r1(observed, brain, reason):
    from reacthuman.brain.runner import BrainRunner
    from reacthuman.layout import find_scenes
    from reacthuman.observation import Observation

    scene = find_scenes(observed)[0]
    runner = BrainRunner(None)
    try:
        decision = runner.decide(
            brain, Observation.load(scene / "observation" / "observation.json"), scene, timeout=0.2
        )
    finally:
        runner.close()
    assert decision.plan is None
    assert reason in decision.r1_reason


def test_the_brain_node_shows_its_brain_the_observation_folder_only(observed, tmp_path):
    """The graph path: the node writes the frames it received as the brain's folder, which
    holds nothing else, and hands ground truth to the oracle alone, as an argument."""
    import cv2
    import rclpy
    from spies import Spy, SpyOracle

    from reacthuman.layout import find_scenes
    from reacthuman.observation import Observation
    from reacthuman.ros.brain_node import BrainNode
    from reacthuman.scenes.truth import GroundTruth

    scene = find_scenes(observed)[0]
    observation = Observation.load(scene / "observation" / "observation.json")
    truth = GroundTruth.load(scene / "ground_truth.json")
    freeze = contract.FreezeMessage(
        run_id="r", episode=0, window_start_ns=5 * convert.NS, observation=observation
    )
    context = rclpy.Context()
    rclpy.init(context=context)
    spy, oracle = Spy(), SpyOracle()
    try:
        for brain in (spy, oracle):
            node = BrainNode({"run_dir": str(tmp_path)}, brain=brain, context=context)
            for frame in observation.frames:
                ns = freeze.window_start_ns + convert.seconds_to_ns(frame.t)
                pixels = cv2.imread(str(scene / "observation" / frame.file))[:, :, ::-1]
                node.frames.put((frame.view, ns), np.ascontiguousarray(pixels))
            node.truths.put(("r", 0), truth)  # what the ground-truth topic would deliver
            node._decide(freeze)
            node.destroy_node()
    finally:
        rclpy.shutdown(context=context)
    assert spy.seen == {observation.scene_id: {"observation.json", "frames"}}
    assert oracle.seen == spy.seen and oracle.handed == {observation.scene_id: truth}
    episode = tmp_path / "episodes" / "spy" / observation.scene_id
    assert {p.name for p in episode.iterdir()} == {"observation", "plan.json", "reply.txt"}


def test_the_ros_guide_tabulates_every_topic_as_the_contract_defines_it_and_the_service():
    guide = (ROOT / "docs" / "ros.md").read_text()
    assert contract.topic_table() in guide
    assert contract.STOP_SERVICE in guide


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("bench", "--brain", "nonsense"),
            "--brain: unknown brain 'nonsense' (known: always-dodge",
        ),
        (
            ("bench", "--resolution", "100x100"),
            "--resolution: Value error, resolution must be 16:9",
        ),
        (("bench", "--scenes", "/nonexistent"), "--scenes /nonexistent: /nonexistent: not a scene"),
        (("bench", "--model", "m"), "--model needs --base-url"),
        (("replay", "/nonexistent"), "/nonexistent: no such file or folder"),
    ],
)
def test_bench_and_replay_refuse_bad_input_before_any_work(args, message):
    from helpers import run_cli

    done = run_cli(*args)
    assert done.returncode == 1
    assert message in done.stderr


def test_bench_refuses_to_write_into_a_folder_that_is_not_a_run(tmp_path):
    # It would have replaced the user's scores.csv and report/report.md.
    from helpers import run_cli

    mine = tmp_path / "mine"
    (mine / "report").mkdir(parents=True)
    (mine / "scores.csv").write_text("my own scores\n")
    (mine / "report" / "report.md").write_text("my own report\n")
    done = run_cli("bench", "--out", str(mine))
    assert done.returncode == 1
    assert f"--out {mine}: not empty and not a bench run" in done.stderr
    assert (mine / "scores.csv").read_text() == "my own scores\n"
    assert (mine / "report" / "report.md").read_text() == "my own report\n"
    assert sorted(p.name for p in mine.iterdir()) == ["report", "scores.csv"]


@pytest.mark.parametrize("name", ["results.sqlite", "responses.sqlite"])
def test_bench_names_a_damaged_store_in_its_run_folder_before_any_work(tmp_path, name):
    # Was: a traceback ending "'ScorerNode' object has no attribute 'results'".
    from helpers import run_cli

    from reacthuman.out_folder import MARKER_FILE, mark

    run = mark(tmp_path / "run", "bench")  # a bench's own run (another's is refused as such)
    (run / name).write_bytes(b"\x00garbage" * 500)
    done = run_cli("bench", "--out", str(run))
    assert done.returncode == 1
    assert f"reacthuman: error: --out {run}: {run / name}: cannot be opened" in done.stderr
    assert "move it aside" in done.stderr and "Traceback" not in done.stderr
    assert sorted(p.name for p in run.iterdir()) == sorted([MARKER_FILE, name])  # nothing new


@pytest.mark.parametrize("frame", ["", "base_link", "odd"])
@pytest.mark.parametrize("names", [G1_JOINTS, ("a",), ("ab", "c" * 7, "xyz")])
def test_serialized_rows_are_the_messages_rclpy_serializes(names, frame):
    """``cdr`` writes a lone execution's messages without rclpy: the same length and the same
    message when read back as rclpy's own serialization (only alignment pads may differ:
    Fast CDR leaves them as the buffer held them)."""
    from geometry_msgs.msg import TransformStamped, Twist
    from rclpy.serialization import deserialize_message, serialize_message
    from rosgraph_msgs.msg import Clock
    from sensor_msgs.msg import Imu
    from sensor_msgs.msg import JointState as JointStateMsg

    from reacthuman.ros import cdr
    from reacthuman.spine.command import JointState

    rng = np.random.default_rng(len(names) + len(frame))
    ns = int(rng.integers(0, 10**12))
    positions, velocities = tuple(rng.normal(size=(2, len(names))))

    def same(ours: bytes, message, kind) -> None:
        theirs = bytes(serialize_message(message))
        assert len(ours) == len(theirs)
        assert deserialize_message(ours, kind) == deserialize_message(theirs, kind)

    for moving in (tuple(velocities), ()):
        message = convert.joint_state_msg(names, tuple(positions), ns, moving)
        message.header.frame_id = frame
        same(cdr.joint_state(names, ns, tuple(positions), moving, frame), message, JointStateMsg)
    quat, gyro = tuple(rng.normal(size=4)), tuple(rng.normal(size=3))
    state = JointState(0, 0.0, names, tuple(positions), tuple(velocities), quat, gyro)
    same(cdr.imu(ns, frame, quat, gyro), convert.imu_msg(state, ns, frame), Imu)
    walking = tuple(float(v) for v in rng.normal(size=3))
    same(cdr.twist(walking), convert.twist(walking), Twist)
    same(cdr.clock(ns), convert.clock(ns), Clock)
    for parent, child in ((frame, names[0]), ("world", "base_link"), (names[-1], "")):
        translation = tuple(float(v) for v in rng.normal(size=3))
        message = convert.transform(parent, child, ns, translation, quat)
        same(cdr.transform(parent, child, ns, translation, quat), message, TransformStamped)
    with pytest.raises(ValueError, match="2 positions"):
        cdr.joint_state(("a",), ns, (0.0, 1.0))


def envelope(episode: int):
    """A ``std_msgs/String`` envelope of run "r" (the recorder reads only the envelope)."""
    from std_msgs.msg import String

    return String(data=f'{{"run_id": "r", "episode": {episode}}}')


def test_the_recorder_writes_each_row_of_a_batch_into_its_executions_bag(tmp_path):
    """Executions side by side travel as one batch message a tick; each execution's bag holds
    its own rows as a lone execution's /imu, /joint_states, joint commands and /cmd_vel, and
    at the slow ticks its /clock and the transforms its row carried."""
    import rclpy
    from geometry_msgs.msg import Twist
    from rclpy.serialization import deserialize_message, serialize_message
    from rosbags.rosbag2 import Reader
    from rosbags.typesys import Stores, get_typestore
    from rosgraph_msgs.msg import Clock
    from sensor_msgs.msg import Imu
    from sensor_msgs.msg import JointState as JointStateMsg

    from reacthuman.ros.recorder_node import RecorderNode
    from reacthuman.scenes.generate import generate_scene
    from reacthuman.scenes.spec import Family
    from reacthuman.spine.command import JointCommand, JointState

    store = get_typestore(Stores.ROS2_KILTED)

    spec = generate_scene(Family.object_drop, 0)
    brains = ("oracle", "no-action")
    names = G1_JOINTS[:3]

    def body(tick: int) -> list:
        yaw = (0.9, 0.0, 0.0, 0.43589)
        return [
            ("world", "base_link", (1.0 + tick, -2.0, 0.0), yaw),
            ("base_link", "left_hand", (0.3, 0.2, 1.1 * tick), (1.0, 0.0, 0.0, 0.0)),
            ("base_link", "right_hand", (0.3, -0.2, 0.9), (1.0, 0.0, 0.0, 0.0)),
        ]

    context = rclpy.Context()
    rclpy.init(context=context)
    node = RecorderNode({"run_dir": str(tmp_path)}, context=context)
    sent: dict[str, list] = {brain: [] for brain in brains}
    try:
        starts = [10 * convert.NS, 20 * convert.NS]
        for episode, brain in enumerate(brains):
            scene = contract.SceneMessage(
                run_id="r", episode=episode, brain=brain, start_ns=starts[episode],
                end_ns=starts[episode] + 4 * convert.NS, spec=spec,
            )  # fmt: skip
            node._on_message(contract.SCENE, serialize_message(convert.to_string(scene)))
        for tick in range(3):
            stamps = [start + tick * 20_000_000 for start in starts]
            states = [
                JointState(
                    tick, 0.0, names, (tick, e, 1.0), (0.5, -tick, e), (1, 0, 0, 0), (e, 0, 0)
                )
                for e in range(2)
            ]
            commands = [
                JointCommand(tick, 0.0, names, (e, tick, 2.0), (0.1 * tick, 0.0, e), (), ())
                for e in range(2)
            ]
            # Ticks 0 and 2 are slow: the first execution has a body pose, the second none.
            frames = None if tick == 1 else [body(tick), []]
            batch = convert.batch_states_msg(states, stamps, frames)
            node._on_batch(contract.BATCH_STATES, batch)
            node._on_batch(contract.BATCH_COMMANDS, convert.batch_commands_msg(commands, stamps))
            for episode, brain in enumerate(brains):
                sent[brain].append((stamps[episode], states[episode], commands[episode]))
        for episode in range(2):
            for topic in (*contract.SCORED_FROM[1:], contract.SCORE):
                node._on_message(topic, serialize_message(envelope(episode)))
    finally:
        node.destroy_node()
        rclpy.shutdown(context=context)
    for brain in brains:
        (bag,) = tmp_path.glob(f"bags/{brain}/*/*/metadata.yaml")
        found: dict[str, list] = {}
        kinds = {"/imu": Imu, "/joint_states": JointStateMsg, contract.CMD_VEL: Twist}
        kinds[contract.JOINT_COMMAND] = JointStateMsg
        clocks, transforms = [], []
        with Reader(bag.parent) as reader:
            for connection, _ns, raw in reader.messages():
                if connection.topic in kinds:
                    message = deserialize_message(raw, kinds[connection.topic])
                    found.setdefault(connection.topic, []).append(message)
                if connection.topic == contract.CLOCK:
                    clocks.append(convert.ns_of(deserialize_message(raw, Clock).clock))
                if connection.topic == "/tf":
                    for t in store.deserialize_cdr(raw, connection.msgtype).transforms:
                        ns = t.header.stamp.sec * convert.NS + t.header.stamp.nanosec
                        r, v = t.transform.rotation, t.transform.translation
                        place = (v.x, v.y, v.z), (r.w, r.x, r.y, r.z)
                        transforms.append((ns, t.header.frame_id, t.child_frame_id, *place))
        stamps = [ns for ns, _state, _command in sent[brain]]
        assert clocks == [stamps[0], stamps[2]]  # the slow ticks
        expected = []
        if brain == brains[0]:
            for tick in (0, 2):
                expected += [(stamps[tick], *frame) for frame in body(tick)]
        assert transforms == expected  # the first has a body pose; the second none
        assert len(found["/joint_states"]) == len(found["/imu"]) == 3
        assert len(found[contract.JOINT_COMMAND]) == 3
        assert len(found[contract.CMD_VEL]) == 3  # the walking command changed at every tick
        for (ns, state, command), joints, imu, target in zip(
            sent[brain], found["/joint_states"], found["/imu"], found[contract.JOINT_COMMAND],
            strict=True,
        ):  # fmt: skip
            assert convert.ns_of(joints.header.stamp) == convert.ns_of(imu.header.stamp) == ns
            assert tuple(joints.name) == names and tuple(target.name) == names
            assert tuple(joints.position) == state.positions
            assert tuple(joints.velocity) == state.velocities
            assert (imu.orientation.w, imu.angular_velocity.x) == (1.0, state.imu_gyro[0])
            assert imu.header.frame_id == contract.BASE_FRAME
            assert tuple(target.position) == command.positions
            assert convert.ns_of(target.header.stamp) == ns


@contextlib.contextmanager
def recorder_in_process(run_dir: Path):
    """A recorder node whose callbacks a test calls itself, and ``send(topic, message)``
    serializing a message as the wire brings it; destroyed on exit (what it holds closed)."""
    import rclpy
    from rclpy.serialization import serialize_message

    from reacthuman.ros.recorder_node import RecorderNode

    context = rclpy.Context()
    rclpy.init(context=context)
    node = RecorderNode({"run_dir": str(run_dir)}, context=context)
    try:
        yield node, lambda topic, msg: node._on_message(topic, serialize_message(msg))
    finally:
        node.destroy_node()
        rclpy.shutdown(context=context)


def scene_message(episode: int, spec):
    """Episode ``episode`` of run "r", oracle's, on its own 10 s of the clock."""
    start = episode * 10 * convert.NS
    scene = contract.SceneMessage(
        run_id="r", episode=episode, brain="oracle", start_ns=start,
        end_ns=start + 4 * convert.NS, spec=spec,
    )  # fmt: skip
    return convert.to_string(scene)


def test_the_recorder_files_out_of_order_messages_under_their_episode(tmp_path):
    """Topics arrive in any order: a truth or an image before its scene still lands in the
    episode's bag, and only scored episodes keep a bag."""
    from rosbags.rosbag2 import Reader

    from reacthuman.scenes.generate import generate_scene
    from reacthuman.scenes.spec import Family

    specs = [generate_scene(Family.object_drop, s) for s in (0, 1)]
    with recorder_in_process(tmp_path) as (node, send):
        for episode, spec in enumerate(specs):
            send(contract.GROUND_TRUTH, envelope(episode))
            pixels = np.zeros((18, 32, 3), dtype=np.uint8)
            start = episode * 10 * convert.NS
            send(
                contract.image_topic(contract.CameraName.overhead),
                convert.image(pixels, start, "o"),
            )
            send(contract.SCENE, scene_message(episode, spec))
            if episode == 0:
                for topic in (contract.EXECUTE, contract.OUTCOME, contract.SCORE):
                    send(topic, envelope(episode))
        send(contract.CLOCK, convert.clock(11 * convert.NS))  # into episode 1: 0 closes
        assert list(node.bags) == [1]  # the last episode waits for the clock to leave it
    bags = sorted(tmp_path.glob("bags/oracle/*/*/metadata.yaml"))
    assert [b.parent.name for b in bags] == [specs[0].scene_id]  # episode 1 was never scored
    with Reader(bags[0].parent) as reader:
        topics = sorted(c.topic for c, _ns, _raw in reader.messages())
    assert topics.count(contract.GROUND_TRUTH) == 1
    assert topics.count(contract.image_topic(contract.CameraName.overhead)) == 1
    assert topics.count(contract.SCENE) == 1 and topics.count(contract.SCORE) == 1
    assert not list(tmp_path.glob("bags/**/*.partial"))


def test_a_bag_is_written_once_it_holds_what_its_score_was_computed_from(tmp_path, capfd):
    """Each message comes from its own publisher in no order: a ground truth can reach the
    recorder after the score and after the run's end (CI once closed two bags without it,
    which then could not be replayed). The bag waits for it; a scored episode whose truth
    never comes leaves no bag, named in the log, so a rerun records it again."""
    from rosbags.rosbag2 import Reader

    from reacthuman.scenes.generate import generate_scene
    from reacthuman.scenes.spec import Family

    specs = [generate_scene(Family.object_drop, s) for s in (0, 1)]
    with recorder_in_process(tmp_path) as (node, send):
        for episode, spec in enumerate(specs):
            send(contract.SCENE, scene_message(episode, spec))
            for topic in (contract.EXECUTE, contract.OUTCOME, contract.SCORE):
                send(topic, envelope(episode))
        send(contract.CLOCK, convert.clock(11 * convert.NS))  # into episode 1
        assert sorted(node.bags) == [0, 1]  # episode 0 lacks its truth: it waits
        status = contract.RunStatus(run_id="r", state="done", episodes=2)
        node._on_status(convert.to_string(status))
        assert sorted(node.bags) == [0, 1]  # the run's end does not close them either
        send(contract.GROUND_TRUTH, envelope(0))
        assert sorted(node.bags) == [1]  # written the moment its truth came
    bags = sorted(tmp_path.glob("bags/oracle/*/*/metadata.yaml"))
    assert [b.parent.name for b in bags] == [specs[0].scene_id]
    with Reader(bags[0].parent) as reader:
        topics = {c.topic for c, _ns, _raw in reader.messages()}
    assert topics == {*contract.SCORED_FROM, contract.SCORE}
    log = capfd.readouterr().err
    assert f"episode 1 (oracle {specs[1].scene_id}) was scored but its bag never received" in log
    assert contract.GROUND_TRUTH in log and "plays the episode again" in log
    assert not list(tmp_path.glob("bags/**/*.partial"))


def test_the_simulator_ends_its_run_once_the_recorder_holds_its_bags(tmp_path, capfd):
    """The simulator's publishers must outlive what the recorder still lacks from them, so
    a run ends when the recorder says it holds a bag of each episode the run scored; when it
    never does, the episodes are named after ``bag_timeout``."""

    import rclpy

    from reacthuman.ros.sim_node import SimNode

    context = rclpy.Context()
    rclpy.init(context=context)
    node = SimNode({"run_dir": str(tmp_path), "bag_timeout": 0.5}, context=context)
    try:
        held = contract.RunFolderEpisodes(run_dir=str(tmp_path.resolve()), episodes={})
        driver, params = node.driver, node.run_parameters()
        driver.recording, driver.recorded = True, held
        driver.scored_now = {"oracle": {"object_drop-000000"}}
        done = contract.RunStatus(run_id="r", state="done", episodes=1)
        recorded = held.model_copy(update={"episodes": {"oracle": ("object_drop-000000",)}})
        node.mail.put((contract.RECORDED,), recorded)  # the recorder wrote the last bag
        assert driver.bagged(done, params) is done
        assert "wrote no bag" not in capfd.readouterr().err
        driver.scored_now["always-catch"] = {"object_drop-000000"}  # that bag never comes
        assert driver.bagged(done, params) is done  # after bag_timeout, naming it (below)
    finally:
        node.destroy_node()
        rclpy.shutdown(context=context)
    log = capfd.readouterr().err
    assert (
        "wrote no bag for 1 scored episode(s) within 0.5 s: always-catch object_drop-000000" in log
    )
    assert "plays them again" in log


@pytest.mark.slow  # waits out the recorder's settling time
def test_a_stopped_recorder_keeps_the_bag_whose_score_arrives_after_the_signal(
    tmp_path, monkeypatch
):
    """A launch stops every node the moment the simulator exits; the last score can still be
    in flight to the recorder then. Its bag is kept; an episode never scored is dropped."""
    import signal
    import subprocess
    import time

    import rclpy
    from std_msgs.msg import String

    from reacthuman.scenes.generate import generate_scene
    from reacthuman.scenes.spec import Family

    env = {**graph_env(), "PYTHONFAULTHANDLER": "1"}  # SIGABRT: every thread's traceback
    for key in ("ROS_DOMAIN_ID", "ROS_AUTOMATIC_DISCOVERY_RANGE"):  # this process's too
        monkeypatch.setenv(key, env[key])
    specs = [generate_scene(Family.object_drop, s) for s in (0, 1)]
    recorder = subprocess.Popen(
        node_command("recorder_node", run_dir=tmp_path),
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    context = rclpy.Context()
    rclpy.init(context=context)
    try:
        node = rclpy.create_node("stand_in_for_sim_and_scorer", context=context)
        scene_pub = node.create_publisher(String, contract.SCENE, contract.EVENTS)
        score_pub = node.create_publisher(String, contract.SCORE, contract.EVENTS)
        parts = [node.create_publisher(String, t, contract.EVENTS) for t in contract.SCORED_FROM]
        deadline = time.monotonic() + 60
        while min(scene_pub.get_subscription_count(), score_pub.get_subscription_count()) < 1:
            assert time.monotonic() < deadline, "the recorder never subscribed"
            time.sleep(0.1)
        for episode, spec in enumerate(specs):
            scene = contract.SceneMessage(
                run_id="r", episode=episode, brain="oracle", start_ns=episode * 10 * convert.NS,
                end_ns=(episode * 10 + 4) * convert.NS, spec=spec,
            )  # fmt: skip
            scene_pub.publish(convert.to_string(scene))
            for publisher in parts[1:]:  # what the score is computed from
                publisher.publish(envelope(episode))
        time.sleep(1.0)
        recorder.send_signal(signal.SIGINT)
        time.sleep(0.5)  # the scorer's last score, after the launch's stop
        score_pub.publish(envelope(0))
        try:
            log = recorder.communicate(timeout=30)[0]
        except subprocess.TimeoutExpired:  # where it hangs: every thread's traceback
            recorder.send_signal(signal.SIGABRT)
            pytest.fail(f"the recorder hung after SIGINT: {recorder.communicate()[0][-6000:]}")
    finally:
        recorder.kill()
        rclpy.shutdown(context=context)
    assert recorder.returncode == 0, log
    bags = sorted(tmp_path.glob("bags/oracle/*/*/metadata.yaml"))
    assert [b.parent.name for b in bags] == [specs[0].scene_id], log
    assert not list(tmp_path.glob("bags/**/*.partial"))


def test_gains_travel_once_per_execution_in_the_order_a_command_names_its_joints():
    gains = contract.GainsMessage(
        run_id="r",
        episode=3,
        start_ns=0,
        names=("a", "b", "c"),
        kp=(1.0, 2.0, 3.0),
        kd=(0.1, 0.2, 0.3),
    )
    assert gains.for_joints(("c", "a")) == ((3.0, 1.0), (0.3, 0.1))
    again = convert.from_string(contract.GainsMessage, convert.to_string(gains), contract.GAINS)
    assert again == gains
    stand_in = contract.GainsMessage(run_id="r", episode=3, start_ns=0, names=(), kp=(), kd=())
    assert stand_in.for_joints(("base_x",)) == ((), ())  # kinematic targets
    with pytest.raises(ValueError, match="no gains for joint"):
        gains.for_joints(("a", "elbow"))
    with pytest.raises(ValueError, match="3 joints with 2 kp and 3 kd"):
        contract.GainsMessage(
            run_id="r", episode=3, start_ns=0, names=("a", "b", "c"), kp=(1, 2), kd=(1, 2, 3)
        )


def test_the_spine_answers_only_states_stamped_on_a_tick_of_its_phase():
    """A frame's state between two ticks of the stand (the window's last frame can fall just
    past the stand's last tick) is no tick: answered, it would put a stand command on the
    stamp the execution's tick 0 shares with it."""
    from reacthuman.ros.spine_node import tick_of

    stand = contract.StandMessage(
        run_id="r", episode=0, start_ns=5 * convert.NS, ticks=23, controller="g1-holosoma-fastsac",
        robot_pos=(0.0, 0.0, 0.0), robot_yaw=0.0,
    )  # fmt: skip
    period = 20_000_000
    assert tick_of(stand, 5 * convert.NS) == 0
    assert tick_of(stand, 5 * convert.NS + 22 * period) == 22
    assert tick_of(stand, 5 * convert.NS + 22 * period + 8_333_333) == -1  # a freeze at 0.45 s
    assert tick_of(stand, 5 * convert.NS - period) == -1
