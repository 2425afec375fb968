"""Observation: everything the brain may see of a scene, and nothing more (paper 3.1).

Frames from the three synchronized cameras during the observation window, their timestamps,
camera intrinsics and extrinsics, and where the robot stands. Never physics, labels, ground
truth, or text that names the objects: the paper's models get frames only, so
``legend`` is absent by default. It exists for one documented ablation (``--legend``): the
objects by how they look, under neutral ids (``legend_of``). The brain gets this file and
the frames in a folder of their own (``reacthuman.layout``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from reacthuman.documents import first_problem
from reacthuman.safe_files import DOCUMENT_LIMIT, FRAME_LIMIT, check_inside, read_inside
from reacthuman.scenes.spec import Camera, CameraName, SceneSpec, Vec3

if TYPE_CHECKING:
    import numpy as np

OBSERVATION_SCHEMA = "1.1"  # 1.1: the legend is optional, with neutral ids


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class CameraInfo(Model):
    """A pinhole camera: intrinsics in pixels, pose in the world frame (x forward of the
    camera is ``lookat - pos``; image right is forward x up)."""

    name: CameraName
    width: int = Field(gt=0)
    height: int = Field(gt=0)
    fov_deg: float  # vertical
    fx: float
    fy: float
    cx: float
    cy: float
    pos: Vec3
    lookat: Vec3
    up: Vec3

    @classmethod
    def of(cls, camera: Camera, width: int, height: int) -> CameraInfo:
        f = focal_length(height, camera.fov_deg)
        return cls(
            name=camera.name,
            width=width,
            height=height,
            fov_deg=camera.fov_deg,
            fx=f,
            fy=f,
            cx=width / 2.0,
            cy=height / 2.0,
            pos=camera.pos,
            lookat=camera.lookat,
            up=camera.up,
        )


def frame_times(frames: int, window: float) -> list[float]:
    """The window's moments, evenly spaced, both ends included: 5 frames over 0.6 s -> 0,
    .15, .3, .45, .6 (a single frame: the window's end)."""
    if frames == 1:
        return [window]
    step = window / (frames - 1)
    return [round(i * step, 6) for i in range(frames)]


def focal_length(height: int, fov_deg: float) -> float:
    """The focal length in pixels of a pinhole camera ``height`` pixels high that sees
    ``fov_deg`` degrees vertically (square pixels)."""
    return (height / 2.0) / math.tan(math.radians(fov_deg) / 2.0)


@dataclass(frozen=True)
class CameraPose:
    """Where a camera is and looks, in the robot's frame at the decision."""

    pos: Vec3
    lookat: Vec3
    up: Vec3 = (0.0, 0.0, 1.0)


@dataclass(frozen=True)
class Intrinsics:
    """A pinhole camera's pixels, as ``sensor_msgs/CameraInfo`` gives them (K)."""

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float

    @classmethod
    def from_fov(cls, width: int, height: int, fov_deg: float) -> Intrinsics:
        """A camera with no calibration: square pixels, the centre, a vertical field of view."""
        f = focal_length(height, fov_deg)
        return cls(width, height, f, f, width / 2.0, height / 2.0)

    def camera_info(self, view: CameraName, pose: CameraPose) -> CameraInfo:
        fov = math.degrees(2.0 * math.atan(self.height / (2.0 * self.fy)))
        return CameraInfo(
            name=view,
            width=self.width,
            height=self.height,
            fov_deg=round(fov, 3),
            fx=self.fx,
            fy=self.fy,
            cx=self.cx,
            cy=self.cy,
            pos=pose.pos,
            lookat=pose.lookat,
            up=pose.up,
        )


# Names that data may give to files and folders: an observation's frames are read and sent
# to an endpoint, a scene's id names the folders decisions are written to, so neither may
# climb out of its folder ("../../.ssh/id_rsa") or start at the root.
SAFE_NAME = r"[A-Za-z0-9_][A-Za-z0-9_.-]*"
SCENE_ID = rf"^{SAFE_NAME}$"
FRAME_FILE = rf"^{SAFE_NAME}(/{SAFE_NAME})*$"


class Frame(Model):
    view: CameraName
    t: float  # seconds since the window opened (the event start, t0)
    # Relative to the observation's folder and inside it: no "..", no absolute path.
    file: str = Field(pattern=FRAME_FILE)


class LegendEntry(Model):
    """One object by how it looks, under an id that says nothing about its role."""

    id: str  # object_1, object_2, ... (``legend_of``)
    looks_like: str


class RobotPose(Model):
    """Where the robot stands (it knows this about itself): feet position and heading."""

    pos: Vec3
    yaw: float


class Observation(Model):
    schema_version: str = OBSERVATION_SCHEMA
    scene_id: str = Field(pattern=SCENE_ID)  # names the folders decisions are written to
    window: float  # seconds
    frame_times: list[float]
    frames: list[Frame]
    cameras: list[CameraInfo]
    robot: RobotPose
    legend: list[LegendEntry] | None = None  # the legend ablation only; absent by default

    def to_json(self) -> str:
        """The JSON file; without a legend the key is left out (nothing names an object)."""
        left_out = {"legend"} if self.legend is None else None
        return json.dumps(self.model_dump(mode="json", exclude=left_out), indent=2) + "\n"

    @classmethod
    def load(cls, path: str | Path) -> Observation:
        """An observation.json, read inside its own folder (``safe_files``)."""
        path = Path(path)
        return cls.model_validate_json(read_inside(path, path.parent, DOCUMENT_LIMIT))


def read_shown(folder: Path, file: str, limit: int = FRAME_LIMIT) -> bytes:
    """A file of a brain folder (``reacthuman.layout``) as a brain may be shown it: the folder
    is no link out of its scene folder, the file no link out of the brain folder (a frame
    linked to ground_truth.json or a private file is refused), a regular file within
    ``limit`` (``safe_files``); UnsafeFile naming it otherwise."""
    check_inside(folder, folder.parent)
    return read_inside(folder / file, folder, limit)


def frame_pixels(folder: Path, file: str) -> Any:
    """A frame of a brain folder decoded as OpenCV decodes it (BGR), read as ``read_shown``
    reads; ValueError when it is not an image."""
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(read_shown(folder, file), np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"{folder / file}: not an image")
    return image


def read_observation_of(folder: Path) -> Observation:
    """The observation.json of a brain folder, read as ``read_shown`` reads; ValueError
    naming the file and the problem (missing, a link out, not UTF-8, an invalid field such as
    a frame path that leaves the folder), OSError never."""
    path = folder / "observation.json"
    try:
        data = read_shown(folder, "observation.json", DOCUMENT_LIMIT)
        data.decode("utf-8")
        return Observation.model_validate_json(data)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except ValidationError as exc:
        raise ValueError(f"{path}: {first_problem(exc)}") from None


def legend_of(spec: SceneSpec) -> list[LegendEntry]:
    """The legend ablation's text: every object by how it looks, numbered after sorting by
    that description, so an id never tells which object is the hazard, the trigger or a
    stack's third item (the spec's ids are roles)."""
    looks = sorted(obj.looks_like for obj in spec.objects)
    return [LegendEntry(id=f"object_{n}", looks_like=text) for n, text in enumerate(looks, 1)]


def frame_name(view: CameraName, t: float) -> str:
    """PNG file name of a frame: view and milliseconds into the window, e.g. closeup_0150ms.png."""
    return f"{view.value}_{round(t * 1000):04d}ms.png"


def png_bytes(image: np.ndarray) -> bytes:
    """Deterministic PNG bytes of an RGB frame (same pixels, same bytes), no extra metadata."""
    import cv2
    import numpy as np

    ok, data = cv2.imencode(".png", np.ascontiguousarray(image[:, :, ::-1]))
    if not ok:
        raise RuntimeError(f"cannot encode a {image.shape} frame as PNG")
    return bytes(data.tobytes())
