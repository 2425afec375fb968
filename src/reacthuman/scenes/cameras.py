"""The three synchronized views, placed so the hazard stays in frame (paper 3.4, stage 2).

Each camera is drawn from the scene's stage RNG and checked against framing points (the
hazard at the event start and at the end of the observation window, for every speed band of
the scene group, plus where it arrives); a camera that loses one is drawn again, each retry
a little wider. Cameras are built in the observer's frame.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from reacthuman.scenes.geometry import Vec3, add, normalize, project, rotate_yaw, sub
from reacthuman.scenes.rng import SeededRng
from reacthuman.scenes.spec import Camera, CameraName

ASPECT = 16.0 / 9.0
FRAME_MARGIN = 0.88  # points must sit inside 88 % of the half-width and half-height
MAX_ATTEMPTS = 48
EYE_FORWARD = 0.06  # the head camera sits slightly ahead of the observer's axis


class FramingError(ValueError):
    """No camera pose keeps every framing point in view."""


def frames_all(camera: Camera, points: Sequence[Vec3]) -> bool:
    for point in points:
        uv = project(point, camera.pos, camera.lookat, camera.up, camera.fov_deg, ASPECT)
        if uv is None or abs(uv[0]) > FRAME_MARGIN or abs(uv[1]) > FRAME_MARGIN:
            return False
    return True


Bounds = tuple[float, float, float, float, float]  # x_min, x_max, y_min, y_max, height


def _inside(point: Vec3, bounds: Bounds, margin: float = 0.12) -> bool:
    x_min, x_max, y_min, y_max, height = bounds
    return (
        x_min + margin <= point[0] <= x_max - margin
        and y_min + margin <= point[1] <= y_max - margin
        and margin <= point[2] <= height - margin
    )


def _retry(
    name: CameraName,
    draw: Callable[[int], Camera],
    points: Sequence[Vec3],
    valid: Callable[[Camera], bool] = lambda _camera: True,
) -> Camera:
    for attempt in range(MAX_ATTEMPTS):
        camera = draw(attempt)
        if valid(camera) and frames_all(camera, points):
            return camera
    raise FramingError(f"the {name.value} camera cannot keep the hazard in frame")


def _round(v: Sequence[float]) -> Vec3:
    return (round(v[0], 4), round(v[1], 4), round(v[2], 4))


def centroid(points: Sequence[Vec3]) -> Vec3:
    n = float(len(points))
    return (
        sum(p[0] for p in points) / n,
        sum(p[1] for p in points) / n,
        sum(p[2] for p in points) / n,
    )


def aim_between(pos: Vec3, points: Sequence[Vec3]) -> Vec3:
    """A look-at point halfway between the extreme bearings and elevations of ``points``."""
    yaws = [math.atan2(p[1] - pos[1], p[0] - pos[0]) for p in points]
    pitches = [math.atan2(p[2] - pos[2], math.hypot(p[0] - pos[0], p[1] - pos[1])) for p in points]
    yaw = (min(yaws) + max(yaws)) / 2.0
    pitch = (min(pitches) + max(pitches)) / 2.0
    return add(
        pos, (math.cos(yaw) * math.cos(pitch), math.sin(yaw) * math.cos(pitch), math.sin(pitch))
    )


def egocentric(rng: SeededRng, eye_height: float, points: Sequence[Vec3]) -> Camera:
    """The robot's head camera, turned toward the event."""
    pos = (EYE_FORWARD, 0.0, eye_height)
    target = aim_between(pos, points)

    def draw(attempt: int) -> Camera:
        jitter = (rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05))
        return Camera(
            name=CameraName.egocentric,
            pos=pos,
            lookat=_round(add(target, jitter)),
            up=(0.0, 0.0, 1.0),
            fov_deg=round(min(rng.uniform(58.0, 66.0) + 3.0 * attempt, 100.0), 3),
        )

    return _retry(CameraName.egocentric, draw, points)


def closeup(
    rng: SeededRng,
    origin: Vec3,
    bounds: Bounds,
    points: Sequence[Vec3],
    distance_range: tuple[float, float] = (1.0, 1.8),
    azimuth_range: tuple[float, float] = (35.0, 80.0),
) -> Camera:
    """A camera beside the event origin, looking at it from the side."""
    toward_observer = normalize((-origin[0], -origin[1], 0.0))
    target = centroid([origin, *points])

    def draw(attempt: int) -> Camera:
        azimuth = rng.sign() * math.radians(rng.uniform(*azimuth_range))
        distance = rng.uniform(*distance_range) + 0.05 * attempt
        rise = rng.uniform(0.2, 0.7)
        offset = rotate_yaw(toward_observer, azimuth)
        pos = add(origin, (offset[0] * distance, offset[1] * distance, rise))
        pos = (pos[0], pos[1], min(max(pos[2], 0.4), bounds[4] - 0.15))
        if not _inside(pos, bounds):
            # Pull the camera back toward the origin until it is inside the room.
            direction = sub(pos, origin)
            for k in range(1, 11):
                candidate = add(origin, tuple(c * (1.0 - 0.08 * k) for c in direction))
                if _inside(candidate, bounds):
                    pos = candidate
                    break
        return Camera(
            name=CameraName.closeup,
            pos=_round(pos),
            lookat=_round(target),
            up=(0.0, 0.0, 1.0),
            fov_deg=round(min(rng.uniform(48.0, 60.0) + 3.0 * attempt, 110.0), 3),
        )

    return _retry(CameraName.closeup, draw, points, lambda c: _inside(c.pos, bounds))


def overhead(rng: SeededRng, origin: Vec3, bounds: Bounds, points: Sequence[Vec3]) -> Camera:
    """A high camera just under the ceiling behind the robot, looking down over it at the event.

    It looks steeply down rather than straight down so that objects starting at the ceiling
    (ceiling_drop, pendulum anchors) are still in front of it.
    """
    subjects = [*points, (0.0, 0.0, 0.0), (0.0, 0.0, 1.3)]  # the robot's feet and head too
    xs = [p[0] for p in subjects]
    ys = [p[1] for p in subjects]
    center = ((min(xs) + max(xs)) / 2.0, (min(ys) + max(ys)) / 2.0, 0.4)
    height = bounds[4] - 0.1

    def draw(attempt: int) -> Camera:
        back = rng.uniform(0.4, 1.4) + 0.1 * attempt
        x = max(min(xs) - back, bounds[0] + 0.15)
        y = center[1] + rng.uniform(-0.6, 0.6)
        pos = (x, min(max(y, bounds[2] + 0.15), bounds[3] - 0.15), height)
        return Camera(
            name=CameraName.overhead,
            pos=_round(pos),
            lookat=_round(aim_between(pos, subjects)),
            up=(0.0, 0.0, 1.0),
            fov_deg=round(min(rng.uniform(70.0, 80.0) + 3.0 * attempt, 110.0), 3),
        )

    return _retry(CameraName.overhead, draw, subjects)
