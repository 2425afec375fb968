"""Live camera frames, and the observation window a brain gets from them on a robot.

In simulation time freezes at the decision moment and the brain is shown the window that
led up to it. A robot does not freeze: its cameras keep streaming while the brain thinks.
``FrameWindow`` keeps the last seconds of every camera and, when asked, cuts the window that
ends at the newest frame of the first (reference) camera: evenly spaced moments over
``window`` seconds, each the nearest real frame, other cameras matched to the reference's
frames. Nothing is interpolated or resampled; a camera that stalled, runs too slowly for the
moments asked, or drifted out of step is refused with a message naming it, never papered
over with an old frame.
"""

from __future__ import annotations

import bisect
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from pydantic import BaseModel, ConfigDict

from reacthuman.observation import (
    CameraInfo,
    CameraPose,
    Frame,
    Observation,
    RobotPose,
    frame_name,
    frame_times,
)
from reacthuman.scenes.spec import CameraName, Vec3
from reacthuman.spine.g1 import PELVIS_HEIGHT

NS = 1_000_000_000
KEEP_S = 2.0  # s of frames kept per camera: the window and room for a late request
MAX_FRAMES = 240  # per camera, whatever the stamps say (a 120 Hz camera for 2 s)

# The G1's head camera (a RealSense D435i), from d435_joint in Unitree's g1_29dof.urdf:
# 0.42 m above torso_link, pitched 0.83 rad down, with the waist straight and the pelvis at
# the spine's standing height (``spine.g1.PELVIS_HEIGHT``). Metres in the robot's frame at
# the decision (x forward, z up, origin on the floor between the feet), as the observation's
# cameras are.
TORSO_TO_HEAD_CAMERA = 0.474  # m above the pelvis: 0.054 to torso_link, 0.42 to the camera
G1_HEAD_CAMERA_POS: Vec3 = (0.054, 0.018, round(PELVIS_HEIGHT + TORSO_TO_HEAD_CAMERA, 3))
G1_HEAD_CAMERA_PITCH = 0.8308  # rad, down from the horizontal


class WindowError(ValueError):
    """No honest window can be cut from what the cameras sent; the message says why."""


def g1_head_camera() -> CameraPose:
    x, y, z = G1_HEAD_CAMERA_POS
    pitch = G1_HEAD_CAMERA_PITCH
    return CameraPose(
        pos=G1_HEAD_CAMERA_POS,
        lookat=(x + math.cos(pitch), y, z - math.sin(pitch)),
        up=(math.sin(pitch), 0.0, math.cos(pitch)),
    )


@dataclass
class Window:
    """A cut window: its start on the cameras' clock, the moments (seconds since the start,
    the reference camera's real frame times), the frame of each (view, moment), and how far
    each other camera's frames were from the reference's (its worst case, ms)."""

    start_ns: int
    end_ns: int
    duration: float
    frame_times: list[float]
    frames: dict[tuple[CameraName, float], np.ndarray]
    stamps: dict[tuple[CameraName, float], int]
    skew_ms: dict[CameraName, float] = field(default_factory=dict)

    def observation(
        self, scene_id: str, cameras: dict[CameraName, CameraInfo], robot: RobotPose
    ) -> Observation:
        views = list(cameras)
        return Observation(
            scene_id=scene_id,
            window=self.duration,
            frame_times=self.frame_times,
            frames=[
                Frame(view=view, t=t, file=f"frames/{frame_name(view, t)}")
                for t in self.frame_times
                for view in views
            ],
            cameras=[cameras[view] for view in views],
            robot=robot,
        )


class FrameWindow:
    """The last ``keep_s`` seconds of frames of each camera, in stamp order (thread-safe:
    cameras add from their callbacks while a decision cuts a window)."""

    def __init__(
        self, views: Sequence[CameraName], keep_s: float = KEEP_S, max_frames: int = MAX_FRAMES
    ) -> None:
        if not views:
            raise ValueError("a frame window needs at least one camera")
        if len(set(views)) != len(views):
            raise ValueError(f"cameras named twice: {[v.value for v in views]}")
        self.views = list(views)
        self.keep_ns = round(keep_s * NS)
        self.max_frames = max_frames
        self._stamps: dict[CameraName, list[int]] = {v: [] for v in self.views}
        self._pixels: dict[CameraName, list[np.ndarray]] = {v: [] for v in self.views}
        self._lock = threading.Lock()

    def add(self, view: CameraName, stamp_ns: int, pixels: np.ndarray) -> None:
        """A frame (H x W x 3 uint8 RGB) stamped when it was taken; a repeated stamp replaces
        the earlier frame, a late one takes its place in order, old ones are dropped."""
        if view not in self._stamps:
            raise ValueError(f"camera {view.value!r} is not one of {[v.value for v in self.views]}")
        with self._lock:
            stamps, pixels_of = self._stamps[view], self._pixels[view]
            i = bisect.bisect_left(stamps, stamp_ns)
            if i < len(stamps) and stamps[i] == stamp_ns:
                pixels_of[i] = pixels
            else:
                stamps.insert(i, stamp_ns)
                pixels_of.insert(i, pixels)
            newest = stamps[-1]
            drop = bisect.bisect_left(stamps, newest - self.keep_ns)
            drop = max(drop, len(stamps) - self.max_frames)
            if drop > 0:
                del stamps[:drop], pixels_of[:drop]

    def count(self, view: CameraName) -> int:
        with self._lock:
            return len(self._stamps[view])

    def newest_ns(self, view: CameraName) -> int | None:
        with self._lock:
            stamps = self._stamps[view]
            return stamps[-1] if stamps else None

    def cut(self, window: float, frames: int, now_ns: int, max_age: float) -> Window:
        """The window of ``frames`` moments over ``window`` seconds ending at the reference
        camera's newest frame, which must be at most ``max_age`` s older than ``now_ns``.
        Each moment takes the frame nearest to it, less than half the moments' spacing away
        (half the window for a single moment), so no frame serves two moments."""
        if window <= 0 or frames < 1:
            raise WindowError(
                f"a window needs a positive length and frames, got {window} s, {frames}"
            )
        targets = frame_times(frames, window)
        spacing = window / (frames - 1) if frames > 1 else window
        tolerance_ns = round(spacing * NS / 2)
        with self._lock:
            stamps = {v: list(s) for v, s in self._stamps.items()}
            pixels = {v: list(p) for v, p in self._pixels.items()}
        ref = self.views[0]
        if not stamps[ref]:
            raise WindowError(f"no frame from the {ref.value} camera yet")
        end = stamps[ref][-1]
        age = (now_ns - end) / NS
        if age > max_age:
            raise WindowError(
                f"the {ref.value} camera's newest frame is {age:.2f} s old (at most "
                f"{max_age:g} s): is the camera stalled, or are the clocks of camera and brain "
                "apart?"
            )
        start = end - round(window * NS)
        chosen: list[int] = []
        for t in targets:
            target = start + round(t * NS)
            i = nearest(stamps[ref], target)
            gap = abs(stamps[ref][i] - target)
            if gap >= tolerance_ns:  # so no frame can serve two moments
                raise WindowError(
                    f"the {ref.value} camera has no frame within {tolerance_ns / 1e6:.0f} ms of "
                    f"{t:.2f} s into the window (nearest {gap / 1e6:.0f} ms away): it sends "
                    f"{rate(stamps[ref]):.1f} frames/s; {frames} moments over {window:g} s "
                    "need a steady stream (frames lost on the way? docs/physical-g1.md)"
                )
            chosen.append(i)
        times = [round((stamps[ref][i] - start) / NS, 3) for i in chosen]
        out = Window(
            start_ns=start,
            end_ns=end,
            duration=window,
            frame_times=times,
            frames={(ref, t): pixels[ref][i] for t, i in zip(times, chosen, strict=True)},
            stamps={(ref, t): stamps[ref][i] for t, i in zip(times, chosen, strict=True)},
        )
        for view in self.views[1:]:
            if not stamps[view]:
                raise WindowError(f"no frame from the {view.value} camera yet")
            worst = 0
            for t in times:
                target = out.stamps[(ref, t)]
                i = nearest(stamps[view], target)
                gap = abs(stamps[view][i] - target)
                if gap >= tolerance_ns:
                    raise WindowError(
                        f"the {view.value} camera has no frame within {tolerance_ns / 1e6:.0f} ms "
                        f"of the {ref.value} camera's at {t:.2f} s (nearest {gap / 1e6:.0f} ms "
                        "away): out of step, stalled or too slow"
                    )
                worst = max(worst, gap)
                out.frames[(view, t)] = pixels[view][i]
                out.stamps[(view, t)] = stamps[view][i]
            out.skew_ms[view] = worst / 1e6
        return out


def nearest(stamps: list[int], target: int) -> int:
    """Index of the stamp nearest to ``target`` (the earlier one on a tie)."""
    i = bisect.bisect_left(stamps, target)
    if i == 0:
        return 0
    if i == len(stamps):
        return len(stamps) - 1
    return i - 1 if target - stamps[i - 1] <= stamps[i] - target else i


def rate(stamps: list[int]) -> float:
    """Frames per second over the kept stamps."""
    if len(stamps) < 2 or stamps[-1] == stamps[0]:
        return 0.0
    return (len(stamps) - 1) * NS / (stamps[-1] - stamps[0])


DECISIONS_FILE = "live_decisions.jsonl"  # in the run folder, a LiveDecision per line


class LiveDecision(BaseModel):
    """One decision on a robot and what it cost in time (node clock and camera clock are
    one; ns since the epoch)."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    episode: int
    scene_id: str
    brain: str = ""
    window_start_ns: int
    window_end_ns: int  # the newest frame the brain saw
    asked_ns: int  # when the window was cut
    plan_ns: int | None = None  # when the plan arrived here; None: it never did
    frame_times: list[float]
    skew_ms: dict[str, float]  # each other camera's worst offset from the reference's frames
    window_age_s: float  # asked - window end
    latency_s: float | None = None  # window end -> plan: how long the robot waited
    brain_latency_s: float | None = None  # the model call alone (0 for a baseline)
    r1_reason: str | None = None
