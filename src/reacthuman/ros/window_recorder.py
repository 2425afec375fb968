"""window_recorder: the brain's observation on a robot, from live camera topics.

In simulation the sim node freezes time and publishes the observation window. On a robot
nothing freezes: this node keeps the last seconds of each camera (``sensor_msgs/Image``,
e.g. the G1's head camera, ``/camera/color/image_raw`` of the RealSense driver, and its
``camera_info``), and when a decision is asked for (service ``~/decide``, or every
``period`` s) cuts the window that ends at the newest frame (``live_window.FrameWindow``),
then hands it to the brain node exactly as the simulator does: the chosen frames on the
brain's image topics, stamped ``window_start + t``, and a ``FreezeMessage`` naming them.

The robot keeps standing while the brain thinks, and the plan executes when it arrives.
What that costs is recorded with each decision in ``<run_dir>/live_decisions.jsonl``
(``LiveDecision``): the window's age when it was cut, the time from its newest frame to the
plan (what the robot waited), and the model call's own latency. One decision at a time.
Camera stamps and this node's clock must agree (one host, or chrony/PTP between the
robot's computers): a window whose newest frame looks older than ``max_frame_age`` is
refused, whether the camera stalled or the clocks are apart.
"""

from __future__ import annotations

import datetime
import json
import threading
import time
from pathlib import Path
from typing import Any, cast

from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import CameraInfo as CameraInfoMsg
from sensor_msgs.msg import Image
from std_msgs.msg import String
from std_srvs.srv import Trigger

from reacthuman.live_window import (
    DECISIONS_FILE,
    NS,
    FrameWindow,
    LiveDecision,
    Window,
    WindowError,
    g1_head_camera,
)
from reacthuman.observation import CameraInfo, CameraPose, Intrinsics, RobotPose
from reacthuman.ros import contract as c
from reacthuman.ros import convert
from reacthuman.ros.base import ReactNode
from reacthuman.ros.graph import run_node_process
from reacthuman.scenes.spec import CameraName, Vec3

WINDOW_RECORDER = "window_recorder"
ROBOT_AT_DECISION = RobotPose(pos=(0.0, 0.0, 0.0), yaw=0.0)  # the robot's own frame
# Camera drivers publish best effort (or reliable, which a best-effort reader also takes);
# a third of a second of frames waits for a busy executor before DDS drops the oldest.
CAMERA_QOS = QoSProfile(
    history=HistoryPolicy.KEEP_LAST, depth=10, reliability=ReliabilityPolicy.BEST_EFFORT
)


def parse_cameras(text: str) -> dict[CameraName, str]:
    """``"egocentric=/camera/color/image_raw,overhead=/room/image"`` -> view: topic; the first
    camera is the reference the window is cut on."""
    out: dict[CameraName, str] = {}
    names = [v.value for v in CameraName]
    for item in filter(None, (part.strip() for part in text.split(","))):
        view, sep, topic = item.partition("=")
        if not sep or not topic.startswith("/") or view not in names:
            raise ValueError(
                f"window_recorder cameras: {item!r} is not VIEW=/image/topic with VIEW one of "
                f"{', '.join(names)}"
            )
        if CameraName(view) in out:
            raise ValueError(f"window_recorder cameras: {view} is named twice")
        out[CameraName(view)] = topic
    if not out:
        raise ValueError(
            "window_recorder cameras: none given (e.g. egocentric=/camera/color/image_raw)"
        )
    return out


def parse_poses(text: str, views: list[CameraName]) -> dict[CameraName, CameraPose]:
    """Camera poses in the robot's frame from JSON ``{view: {pos, lookat, up}}``; the
    egocentric view defaults to the G1's head camera, every other view must be given."""
    try:
        given = json.loads(text) if text.strip() else {}
        if not isinstance(given, dict):
            raise ValueError("not a JSON object")
        poses = {  # cast: the user's JSON, meant to hold (x, y, z)
            CameraName(view): CameraPose(
                pos=cast(Vec3, tuple(map(float, pose["pos"]))),
                lookat=cast(Vec3, tuple(map(float, pose["lookat"]))),
                up=cast(Vec3, tuple(map(float, pose.get("up", (0.0, 0.0, 1.0))))),
            )
            for view, pose in given.items()
        }
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(
            f"window_recorder camera_poses: {exc} (expected JSON like "
            '{"overhead": {"pos": [-1, 0, 2.2], "lookat": [1, 0, 0.5]}})'
        ) from None
    poses.setdefault(CameraName.egocentric, g1_head_camera())
    missing = [v.value for v in views if v not in poses]
    if missing:
        raise ValueError(f"window_recorder camera_poses: no pose for {', '.join(missing)}")
    return poses


def image_topic_info(topic: str) -> str:
    """The camera_info topic beside an image topic (image_transport's convention)."""
    return topic.rsplit("/", 1)[0] + "/camera_info"


class WindowRecorderNode(ReactNode):
    PARAMETERS: dict[str, Any] = {
        # view=topic, comma-separated; the first camera is the reference the window is cut on
        "cameras": "egocentric=/camera/color/image_raw",
        "camera_poses": "",  # JSON {view: {pos, lookat, up}} in the robot's frame
        "fov_deg": 0.0,  # vertical field of view of a camera without camera_info; 0: required
        "window": 0.6,  # s, as the paper's
        "frames": 5,  # moments in the window
        "max_frame_age": 0.5,  # s: an older newest frame is a stalled camera
        "period": 0.0,  # s between decisions asked by the node itself; 0: only ~/decide
        "plan_timeout": 150.0,  # s to wait for the brain's plan (its brain_timeout, and more)
    }

    def __init__(self, overrides: dict[str, Any] | None = None, context: Any = None) -> None:
        super().__init__(WINDOW_RECORDER, overrides, context)
        self.topics = parse_cameras(str(self.param("cameras")))
        self.views = list(self.topics)
        self.poses = parse_poses(str(self.param("camera_poses")), self.views)
        self.fov_deg = float(self.param("fov_deg"))
        self.window_s = float(self.param("window"))
        self.frames = int(self.param("frames"))
        if not 0 < self.window_s <= 5 or not 1 <= self.frames <= 20:
            raise ValueError(
                f"window_recorder: window {self.window_s} s and frames {self.frames}: expected "
                "0 < window <= 5 and 1 <= frames <= 20 (the brain's image topics keep 20)"
            )
        self.max_age = float(self.param("max_frame_age"))
        self.plan_timeout = float(self.param("plan_timeout"))
        self.run_dir = Path(self.param("run_dir"))
        self.run_id = "robot-" + datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
        self.buffer = FrameWindow(self.views)
        self.intrinsics: dict[CameraName, Intrinsics] = {}
        self.episode = 0
        self.pending: LiveDecision | None = None
        self.lock = threading.Lock()
        images = c.images(self.frames)
        self.image_pubs = {
            v: self.create_publisher(Image, c.image_topic(v), images) for v in self.views
        }
        self.info_pubs = {
            v: self.create_publisher(CameraInfoMsg, c.camera_info_topic(v), images)
            for v in self.views
        }
        self.freeze_pub = self.create_publisher(String, c.FREEZE, c.EVENTS)
        for view, topic in self.topics.items():
            self.create_subscription(
                Image, topic, lambda m, v=view: self._on_image(v, m), CAMERA_QOS
            )
            self.create_subscription(
                CameraInfoMsg,
                image_topic_info(topic),
                lambda m, v=view: self._on_info(v, m),
                CAMERA_QOS,
            )
        self.create_subscription(String, c.PLAN, self._on_plan, c.EVENTS)
        self.create_service(Trigger, "~/decide", self._on_decide)
        period = float(self.param("period"))
        self.create_timer(min(period, 1.0) if period > 0 else 1.0, self._tick)
        self.period = period
        self.last_asked = 0.0
        self._warned: set[str] = set()
        cams = ", ".join(f"{v.value} <- {t}" for v, t in self.topics.items())
        self.get_logger().info(
            f"window recorder: {cams}; {self.frames} frames over {self.window_s:g} s, "
            + (f"a decision every {period:g} s" if period > 0 else "decisions on ~/decide")
            + f"; run {self.run_id}, timings in {self.run_dir / DECISIONS_FILE}"
        )

    # --- cameras ---------------------------------------------------------------------------

    def _on_image(self, view: CameraName, msg: Image) -> None:
        try:
            pixels = convert.camera_rgb(msg)
        except convert.MessageError as exc:
            self._warn_once(f"{self.topics[view]}: {exc}")
            return
        self.buffer.add(view, convert.ns_of(msg.header.stamp), pixels)

    def _on_info(self, view: CameraName, msg: CameraInfoMsg) -> None:
        try:
            self.intrinsics[view] = convert.intrinsics(msg)
        except convert.MessageError as exc:
            self._warn_once(f"{image_topic_info(self.topics[view])}: {exc}")

    def _warn_once(self, text: str) -> None:
        if text not in self._warned:
            self._warned.add(text)
            self.get_logger().error(text)

    # --- decisions -------------------------------------------------------------------------

    def _on_decide(self, _request: Any, response: Any) -> Any:
        response.success, response.message = self.decide()
        return response

    def _tick(self) -> None:
        now = time.monotonic()
        with self.lock:
            pending = self.pending
        if pending is not None and (time.time_ns() - pending.asked_ns) / NS > self.plan_timeout:
            self._finish(None, f"no plan arrived within {self.plan_timeout:g} s")
        if self.period > 0 and self.pending is None and now - self.last_asked >= self.period:
            ok, text = self.decide()
            if not ok:
                self._warn_once(text)

    def decide(self) -> tuple[bool, str]:
        """Cut the window now and hand it to the brain; (False, why) when it cannot."""
        with self.lock:
            if self.pending is not None:
                return False, f"episode {self.pending.episode} is still waiting for its plan"
            asked = time.time_ns()
            self.last_asked = time.monotonic()
            try:
                window = self.buffer.cut(self.window_s, self.frames, asked, self.max_age)
                cameras = self._cameras(window)
            except WindowError as exc:
                return False, f"no window: {exc}"
            episode = self.episode
            self.episode += 1
            scene_id = f"{self.run_id}-{episode:04d}"
            observation = window.observation(scene_id, cameras, ROBOT_AT_DECISION)
            self.pending = LiveDecision(
                run_id=self.run_id,
                episode=episode,
                scene_id=scene_id,
                window_start_ns=window.start_ns,
                window_end_ns=window.end_ns,
                asked_ns=asked,
                frame_times=window.frame_times,
                skew_ms={v.value: round(ms, 3) for v, ms in window.skew_ms.items()},
                window_age_s=round((asked - window.end_ns) / NS, 6),
            )
        for (view, t), pixels in window.frames.items():
            ns = window.start_ns + convert.seconds_to_ns(t)
            frame = c.camera_frame(view)
            self.image_pubs[view].publish(convert.image(pixels, ns, frame))
            self.info_pubs[view].publish(convert.camera_info(cameras[view], ns, frame))
        freeze = c.FreezeMessage(
            run_id=self.run_id,
            episode=episode,
            window_start_ns=window.start_ns,
            observation=observation,
        )
        self.freeze_pub.publish(convert.to_string(freeze))
        age = (asked - window.end_ns) / NS
        text = (
            f"episode {episode} ({scene_id}): {len(window.frame_times)} moments x "
            f"{len(self.views)} camera(s), newest frame {age * 1000:.0f} ms old"
        )
        self.get_logger().info(text)
        return True, text

    def _cameras(self, window: Window) -> dict[CameraName, CameraInfo]:
        out = {}
        for view in self.views:
            height, width, _ = window.frames[(view, window.frame_times[0])].shape
            intrinsics = self.intrinsics.get(view)
            if intrinsics is None:
                if self.fov_deg <= 0:
                    raise WindowError(
                        f"no camera_info from {image_topic_info(self.topics[view])} yet "
                        "(calibrate the camera, or set fov_deg)"
                    )
                intrinsics = Intrinsics.from_fov(width, height, self.fov_deg)
            if (intrinsics.width, intrinsics.height) != (width, height):
                raise WindowError(
                    f"the {view.value} camera sends {width}x{height} frames but its camera_info "
                    f"is for {intrinsics.width}x{intrinsics.height}"
                )
            out[view] = intrinsics.camera_info(view, self.poses[view])
        return out

    def _on_plan(self, msg: String) -> None:
        plan = self.parse(c.PlanMessage, msg, c.PLAN)
        if plan is None:
            return
        with self.lock:
            pending = self.pending
        if pending is None or (plan.run_id, plan.episode) != (pending.run_id, pending.episode):
            return  # another run's, or one already given up on
        self._finish(plan.decision, plan.decision.r1_reason)

    def _finish(self, decision: Any, r1_reason: str | None) -> None:
        now = time.time_ns()
        with self.lock:
            record, self.pending = self.pending, None
        if record is None:
            return
        if decision is not None:
            record.plan_ns = now
            record.latency_s = round((now - record.window_end_ns) / NS, 6)
            record.brain = decision.brain
            record.brain_latency_s = round(decision.latency_s, 6)
        record.r1_reason = r1_reason
        self.run_dir.mkdir(parents=True, exist_ok=True)
        with (self.run_dir / DECISIONS_FILE).open("a") as out:
            out.write(record.model_dump_json() + "\n")
        if decision is None:
            self.get_logger().warning(f"episode {record.episode}: {r1_reason}")
        else:
            outcome = f"R1 ({r1_reason})" if r1_reason else "a plan"
            self.get_logger().info(
                f"episode {record.episode}: {outcome} {record.latency_s:.2f} s after the "
                f"window's newest frame (model {record.brain_latency_s:.2f} s)"
            )


def main(args: list[str] | None = None) -> None:
    run_node_process(WindowRecorderNode, args)


if __name__ == "__main__":
    main()
