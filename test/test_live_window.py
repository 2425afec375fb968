"""The brain on a robot: live camera frames, the window cut from them, and the decision's
timing, through real DDS from a camera topic to the brain's plan."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from sensor_msgs.msg import CameraInfo as CameraInfoMsg
from sensor_msgs.msg import Image

from reacthuman.brain.prompt import build_messages, system_prompt
from reacthuman.live_window import (
    NS,
    FrameWindow,
    WindowError,
    g1_head_camera,
)
from reacthuman.observation import Intrinsics, RobotPose
from reacthuman.ros import convert
from reacthuman.scenes.spec import CameraName

EGO, OVER = CameraName.egocentric, CameraName.overhead
T0 = 1_800_000_000 * NS  # a wall-clock stamp
PERIOD = NS // 30  # a 30 Hz camera


def frame(n: int) -> np.ndarray:
    """A tiny frame that says which one it is."""
    return np.full((36, 64, 3), n % 256, np.uint8)


def stream(window: FrameWindow, view: CameraName, count: int, offset: int = 0, step: int = PERIOD):
    for n in range(count):
        window.add(view, T0 + offset + n * step, frame(n))


def test_a_window_is_the_real_frames_nearest_its_moments_ending_at_the_newest():
    window = FrameWindow([EGO])
    rng = random.Random(0)
    stamps = [T0 + n * PERIOD + rng.randint(-3, 3) * 1_000_000 for n in range(60)]
    for n, ns in enumerate(stamps):
        window.add(EGO, ns, frame(n))
    cut = window.cut(0.6, 5, now_ns=stamps[-1] + 20_000_000, max_age=0.5)
    assert cut.end_ns == stamps[-1] and cut.start_ns == stamps[-1] - 600_000_000
    assert cut.frame_times[-1] == 0.6
    for t, target in zip(cut.frame_times, (0.0, 0.15, 0.3, 0.45, 0.6), strict=True):
        assert abs(t - target) <= 1 / 60 + 0.004  # the nearest of a 30 Hz stream, +-3 ms jitter
        n = int(cut.frames[(EGO, t)][0, 0, 0])  # the frame itself, untouched
        assert cut.stamps[(EGO, t)] == stamps[n]
        assert t == round((stamps[n] - cut.start_ns) / NS, 3)
    observation = cut.observation(
        "robot-0", {EGO: camera_info(EGO)}, RobotPose(pos=(0, 0, 0), yaw=0)
    )
    assert [f.file for f in observation.frames] == [
        f"frames/egocentric_{round(t * 1000):04d}ms.png" for t in cut.frame_times
    ]


def camera_info(view: CameraName):
    return Intrinsics.from_fov(64, 36, 60.0).camera_info(view, g1_head_camera())


@pytest.mark.parametrize(
    ("feed", "age", "message"),
    [
        (lambda w: None, 0, "no frame from the egocentric camera yet"),
        (lambda w: stream(w, EGO, 30), 1.033, "newest frame is 1.03 s old .* camera stalled"),
        (lambda w: stream(w, EGO, 8, step=NS // 5), 0, "within 75 ms of 0.30 s .* 5.0 frames/s"),
        # frames 7 to 14 lost: a gap at the start of the window
        (
            lambda w: [w.add(EGO, T0 + n * PERIOD, frame(n)) for n in range(30) if not 6 < n < 15],
            0,
            "no frame within 75 ms of 0.00 s",
        ),
        (
            lambda w: (stream(w, EGO, 30), stream(w, OVER, 10)),  # the overhead one stopped
            0,
            "overhead camera has no frame within 75 ms of the egocentric camera's at 0.13 s",
        ),
        (lambda w: stream(w, EGO, 30), 0, "no frame from the overhead camera yet"),
    ],
)
def test_a_camera_that_stalled_is_slow_or_out_of_step_is_refused_by_name(feed, age, message):
    window = FrameWindow([EGO, OVER])
    feed(window)
    newest = window.newest_ns(EGO) or T0
    with pytest.raises(WindowError, match=message):
        window.cut(0.6, 5, now_ns=newest + round(age * NS), max_age=0.5)


def test_other_cameras_are_matched_to_the_reference_frames_and_their_skew_kept():
    window = FrameWindow([EGO, OVER])
    stream(window, EGO, 30)
    stream(window, OVER, 30, offset=7_000_000)
    cut = window.cut(0.6, 5, now_ns=T0 + 29 * PERIOD, max_age=0.5)
    assert cut.skew_ms == {OVER: pytest.approx(7.0)}
    for t in cut.frame_times:
        assert cut.stamps[(OVER, t)] - cut.stamps[(EGO, t)] == 7_000_000
        assert np.array_equal(cut.frames[(OVER, t)], cut.frames[(EGO, t)])  # same index n


def test_the_window_keeps_seconds_not_a_whole_stream_and_files_late_frames_in_order():
    window = FrameWindow([EGO], keep_s=1.0, max_frames=20)
    stream(window, EGO, 25)  # 0.8 s: 25 frames, over max_frames
    assert window.count(EGO) == 20
    window.add(EGO, T0 + 100 * PERIOD, frame(100))  # 3.3 s later: all but one older than 1 s
    assert window.count(EGO) == 1
    window.add(EGO, T0 + 99 * PERIOD, frame(99))  # late, but inside the second kept
    window.add(EGO, T0 + 99 * PERIOD, frame(42))  # the same stamp again: replaces it
    assert window.count(EGO) == 2 and window.newest_ns(EGO) == T0 + 100 * PERIOD
    cut = window.cut(0.03, 2, now_ns=T0 + 100 * PERIOD, max_age=0.1)
    assert [int(cut.frames[(EGO, t)][0, 0, 0]) for t in cut.frame_times] == [42, 100]


def test_a_robots_prompt_names_the_cameras_it_has_and_no_other(tmp_path):
    from reacthuman.run_folder import write_observation

    window = FrameWindow([EGO])
    stream(window, EGO, 30)
    cut = window.cut(0.6, 5, now_ns=T0 + 29 * PERIOD, max_age=0.5)
    observation = cut.observation(
        "robot-0", {EGO: camera_info(EGO)}, RobotPose(pos=(0, 0, 0), yaw=0)
    )
    assert "from\none camera," in system_prompt(observation)
    folder = write_observation(tmp_path, observation, cut.frames)
    text = build_messages(observation, folder)[1]["content"][0]["text"]
    assert "5 moments x 1 views (egocentric = your head camera)." in text
    assert "overhead" not in text and "closeup" not in text


def test_the_g1_head_camera_looks_forward_and_down_from_its_mount():
    pose = g1_head_camera()
    view = np.subtract(pose.lookat, pose.pos)
    assert pose.pos[2] == pytest.approx(1.254) and view[0] > 0 and view[2] < 0
    assert np.degrees(np.arctan2(-view[2], view[0])) == pytest.approx(47.6, abs=0.1)
    assert abs(np.dot(view, pose.up)) < 1e-9  # up is square to the line of sight


# --- camera messages -------------------------------------------------------------------------


def image_msg(encoding: str, pixels: np.ndarray, pad: int = 0) -> Image:
    height, width = pixels.shape[:2]
    rows = pixels.reshape(height, -1)
    rows = np.concatenate([rows, np.zeros((height, pad), np.uint8)], axis=1)
    return Image(
        height=height, width=width, encoding=encoding, step=rows.shape[1], data=rows.tobytes()
    )


def test_camera_frames_in_any_8_bit_colour_encoding_become_rgb_exactly():
    rgb = np.random.default_rng(1).integers(0, 256, (4, 5, 3), dtype=np.uint8)
    alpha = np.full((4, 5, 1), 9, np.uint8)
    cases = {
        "rgb8": rgb,
        "bgr8": rgb[:, :, ::-1],
        "rgba8": np.concatenate([rgb, alpha], axis=2),
        "bgra8": np.concatenate([rgb[:, :, ::-1], alpha], axis=2),
    }
    for encoding, pixels in cases.items():
        for pad in (0, 3):  # drivers may pad rows
            assert np.array_equal(convert.camera_rgb(image_msg(encoding, pixels, pad)), rgb)
    grey = rgb[:, :, 0]
    assert np.array_equal(convert.camera_rgb(image_msg("mono8", grey)), np.stack([grey] * 3, 2))


def test_a_depth_or_truncated_camera_frame_is_refused_by_what_is_wrong():
    depth = image_msg("16UC1", np.zeros((4, 10), np.uint8))
    with pytest.raises(convert.MessageError, match="'16UC1' is not one of rgb8"):
        convert.camera_rgb(depth)
    cut_short = image_msg("rgb8", np.zeros((4, 5, 3), np.uint8))
    cut_short.data = cut_short.data[:-1]
    with pytest.raises(convert.MessageError, match="rgb8 image of 5x4 .* has 59 bytes"):
        convert.camera_rgb(cut_short)
    with pytest.raises(convert.MessageError, match="not calibrated"):
        convert.intrinsics(CameraInfoMsg(width=640, height=480))


def test_the_recorders_camera_and_pose_parameters_refuse_what_they_cannot_use():
    from reacthuman.ros.window_recorder import parse_cameras, parse_poses

    assert parse_cameras("egocentric=/camera/color/image_raw, overhead=/room/image") == {
        EGO: "/camera/color/image_raw",
        OVER: "/room/image",
    }
    for bad, message in [
        ("", "none given"),
        ("head=/camera/image", "VIEW one of egocentric"),
        ("egocentric=camera/image", "VIEW=/image/topic"),
        ("egocentric=/a,egocentric=/b", "named twice"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_cameras(bad)
    assert parse_poses("", [EGO]) == {EGO: g1_head_camera()}
    with pytest.raises(ValueError, match="no pose for overhead"):
        parse_poses("", [EGO, OVER])
    with pytest.raises(ValueError, match="camera_poses: 'lookat'"):
        parse_poses('{"overhead": {"pos": [0, 0, 2]}}', [OVER])


# --- through DDS: camera topic -> window recorder -> brain node -> plan ---------------------


def start_camera(log: Path, env: dict[str, str]) -> subprocess.Popen:
    """The camera driver, a process of its own (test/fake_camera.py)."""
    script = Path(__file__).with_name("fake_camera.py")
    return subprocess.Popen(
        [sys.executable, str(script), str(log)], env=env, stderr=subprocess.DEVNULL
    )


def sent_frames(log: Path) -> dict[int, int]:
    """stamp ns -> frame number, of every frame the camera sent so far."""
    pairs = (line.split() for line in log.read_text().splitlines() if line.count(" ") == 1)
    return {int(ns): int(n) for ns, n in pairs}


def test_a_live_window_reaches_the_brain_and_the_robot_waited_time_is_recorded(server, tmp_path):
    import cv2
    import rclpy
    from helpers import graph_env
    from loopback import GOOD
    from rclpy.executors import SingleThreadedExecutor
    from std_msgs.msg import String
    from std_srvs.srv import Trigger

    from reacthuman.brain.client import ModelClient
    from reacthuman.brain.run import ModelBrain
    from reacthuman.layout import OBSERVATION_FILE
    from reacthuman.live_window import DECISIONS_FILE, LiveDecision
    from reacthuman.observation import Observation
    from reacthuman.ros import contract
    from reacthuman.ros.brain_node import BrainNode
    from reacthuman.ros.window_recorder import WindowRecorderNode
    from reacthuman.run_folder import episode_folder

    server.default = ("reply", json.dumps(GOOD))
    server.delay = 0.3  # the model's own latency
    env = graph_env()
    log = tmp_path / "camera.log"
    pause = log.with_suffix(".log.pause")
    camera = start_camera(log, env)
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=int(env["ROS_DOMAIN_ID"]))
    executor = SingleThreadedExecutor(context=context)
    stopping = threading.Event()
    spinner = None
    try:
        client_node = rclpy.create_node("asker", context=context)
        run = tmp_path / "run"
        recorder = WindowRecorderNode({"run_dir": str(run)}, context=context)
        brain = ModelBrain(
            ModelClient("fake/model", server.url, api_key="sk-loopback-test", timeout=10.0)
        )
        brain_node = BrainNode(
            {"run_dir": str(run), "use_sim_time": False}, brain=brain, context=context
        )
        plans: list[contract.PlanMessage] = []
        client_node.create_subscription(
            String,
            contract.PLAN,
            lambda m: plans.append(convert.from_string(contract.PlanMessage, m, contract.PLAN)),
            contract.EVENTS,
        )
        client = client_node.create_client(Trigger, "/window_recorder/decide")
        for node in (client_node, recorder, brain_node):
            executor.add_node(node)

        def spin() -> None:
            while not stopping.is_set():
                executor.spin_once(timeout_sec=0.05)

        spinner = threading.Thread(target=spin, daemon=True)
        spinner.start()
        assert client.wait_for_service(timeout_sec=10)

        def decide() -> tuple[bool, str]:
            future = client.call_async(Trigger.Request())
            deadline = time.monotonic() + 10
            while not future.done() and time.monotonic() < deadline:
                time.sleep(0.01)
            return future.result().success, future.result().message

        def wait_for(condition, seconds: float = 20.0) -> None:
            deadline = time.monotonic() + seconds
            while not condition():
                assert time.monotonic() < deadline and camera.poll() is None
                time.sleep(0.02)

        # a second of frames, and the camera_info
        wait_for(lambda: recorder.buffer.count(EGO) >= 30 and EGO in recorder.intrinsics)
        ok, text = decide()
        assert ok, text
        assert decide() == (False, "episode 0 is still waiting for its plan")
        # The recorder writes the decision and this test's subscriber gets the plan in two
        # separate callbacks of the executor: wait for both.
        wait_for(lambda: (run / DECISIONS_FILE).exists() and len(plans) == 1)
        (record,) = [
            LiveDecision.model_validate_json(line)
            for line in (run / DECISIONS_FILE).read_text().splitlines()
        ]
        assert len(plans) == 1 and plans[0].decision.plan is not None
        assert record.scene_id == plans[0].decision.scene_id and record.brain == "fake/model"
        assert record.brain_latency_s >= 0.3 and record.latency_s > record.brain_latency_s
        assert 0 <= record.window_age_s < 0.5 and record.r1_reason is None

        # What the brain was shown: the camera's own frames at their own stamps, as PNGs.
        sent = sent_frames(log)
        assert record.window_end_ns in sent  # the window ends at a real frame
        folder = episode_folder(run, "fake/model", record.scene_id) / "observation"
        observation = Observation.load(folder / OBSERVATION_FILE)
        assert observation.frame_times == record.frame_times and len(observation.frames) == 5
        assert [c.name for c in observation.cameras] == [EGO]
        assert observation.cameras[0].fov_deg == pytest.approx(60.0)  # from camera_info
        for f in observation.frames:
            ns = record.window_start_ns + round(f.t * NS)
            stamp = min(sent, key=lambda s: abs(s - ns))
            assert abs(stamp - ns) <= 500_000  # t is kept to the millisecond
            assert cv2.imread(str(folder / f.file))[0, 0, 0] == sent[stamp] % 256
        prompt = server.requests[0]["body"]["messages"][1]["content"][0]["text"]
        assert "5 moments x 1 views (egocentric = your head camera)" in prompt

        def newest_age() -> float:  # by the recorder's clock (time.time_ns)
            return (time.time_ns() - recorder.buffer.newest_ns(EGO)) / NS

        pause.touch()  # the camera stalls: no window from frames gone stale
        wait_for(lambda: newest_age() > recorder.max_age + 0.05)
        ok, text = decide()
        assert not ok and "newest frame is" in text and "stalled" in text
        resumed = time.time_ns()
        pause.unlink()  # a whole window of fresh frames later, the robot decides again
        wait_for(lambda: recorder.buffer.newest_ns(EGO) - resumed > (recorder.window_s + 0.1) * NS)
        ok, text = decide()
        assert ok and text.startswith("episode 1 "), text
        wait_for(lambda: len(plans) == 2)
        assert [p.episode for p in plans] == [0, 1]
    finally:
        stopping.set()
        camera.terminate()
        camera.wait(timeout=10)
        if spinner is not None:
            spinner.join(timeout=5)
        rclpy.shutdown(context=context)
