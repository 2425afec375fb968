"""The three synchronized views, placed so the hazard stays in frame (paper 3.4, stage 2).

Each camera is drawn from the scene's stage RNG and checked against framing points (the
hazard at the event start and at the end of the observation window, for every speed band of
the scene group, plus where it arrives); a camera that loses one is drawn again, each retry
a little wider. Cameras are built in the observer's frame.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from reacthuman.scenes.geometry import Vec3, add, dot, normalize, project, rotate_yaw, sub
from reacthuman.scenes.rng import SeededRng
from reacthuman.scenes.spec import Camera, CameraName

ASPECT = 16.0 / 9.0
FRAME_MARGIN = 0.88  # points must sit inside 88 % of the half-width and half-height
MAX_ATTEMPTS = 48
EYE_FORWARD = 0.06  # the head camera sits slightly ahead of the observer's axis
# The head camera's vertical field of view: the G1's head holds a RealSense D435 (``d435_link``
# in its URDF), whose colour camera sees 69 x 42 degrees; a 58-66 degree draw showed a 6.7 cm
# ball at 6-7 px across where this one shows it at 9-10 (issue 52).
HEAD_FOV = (40.0, 46.0)


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
            fov_deg=round(min(rng.uniform(*HEAD_FOV) + 3.0 * attempt, 100.0), 3),
        )

    return _retry(CameraName.egocentric, draw, points)


CLOSEUP_CANDIDATES = 6  # framed close-up poses drawn, of which the one showing most motion
# Of 640 px: the hazard's span a close-up aims to show at the freeze (a margin over the 16 px
# that ``scenes.validity`` holds the rendered frames to).
CLOSEUP_AIM_PX = 20.0
# Of 640 px: how far the hazard aims to move across the close-up over its window, twice the
# 10 px ``scenes.validity`` holds the best view to: rendered, a sliding ladder's move came to
# 0.55-0.8 of its design's (the simulated slide starts a little behind the closed form's, and
# the mask's centre moves less than its top), and at a design of 16 px one showed 9.
CLOSEUP_MOVE_AIM_PX = 20.0
CLOSEUP_MIN_FOV = 30.0  # degrees: a close-up zoomed in on a small object goes no narrower
ZOOM_STEP = 2.0  # degrees
# Of 640 px: the least span the head camera is designed to show the hazard at at the freeze,
# seen at its widest field of view; ``scenes.validity`` holds the rendered frames to the same
# 8 px, and rendered (a narrower draw, the mask's edge pixels) balls showed 0.6-1.2 px more.
HEAD_AIM_PX = 8.0


def head_span_px(point: Vec3, extent: float, eye_height: float, width: int = 640) -> float:
    """About how many px of a ``width``-px head-camera frame an object ``extent`` m long spans
    at ``point``, at the widest field of view the head camera is drawn with."""
    distance = math.dist((EYE_FORWARD, 0.0, eye_height), point)
    return extent / distance * (width / ASPECT / 2.0) / math.tan(math.radians(HEAD_FOV[1]) / 2.0)


def shown_move_px(camera: Camera, move: tuple[Vec3, Vec3], width: int = 640) -> float:
    """How far a point moving from ``move[0]`` to ``move[1]`` travels across a ``width``-px
    frame of ``camera`` (16:9)."""
    a = project(move[0], camera.pos, camera.lookat, camera.up, camera.fov_deg, ASPECT)
    b = project(move[1], camera.pos, camera.lookat, camera.up, camera.fov_deg, ASPECT)
    if a is None or b is None:
        return 0.0
    return math.hypot((b[0] - a[0]) * width / 2.0, (b[1] - a[1]) * width / ASPECT / 2.0)


def shown_width_px(camera: Camera, a: Vec3, b: Vec3, width: int = 640) -> float:
    """How far apart across a ``width``-px frame of ``camera`` two points at one height show:
    the width a vertical panel between them shows (none, seen edge-on)."""
    pa = project(a, camera.pos, camera.lookat, camera.up, camera.fov_deg, ASPECT)
    pb = project(b, camera.pos, camera.lookat, camera.up, camera.fov_deg, ASPECT)
    if pa is None or pb is None:
        return 0.0
    return abs(pb[0] - pa[0]) * width / 2.0


def shown_span_px(camera: Camera, point: Vec3, extent: float, width: int = 640) -> float:
    """About how many px of a ``width``-px frame an object ``extent`` m long spans at
    ``point`` (seen broadside)."""
    depth = dot(normalize(sub(camera.lookat, camera.pos)), sub(point, camera.pos))
    if depth <= 1e-6:
        return 0.0
    return extent / depth * (width / ASPECT / 2.0) / math.tan(math.radians(camera.fov_deg) / 2.0)


def closeup(
    rng: SeededRng,
    origin: Vec3,
    bounds: Bounds,
    points: Sequence[Vec3],
    distance_range: tuple[float, float] = (1.0, 1.8),
    azimuth_range: tuple[float, float] = (35.0, 80.0),
    moves: Sequence[tuple[Vec3, Vec3]] = (),
    extent: float = 0.0,
    hinge: Vec3 | None = None,
) -> Camera:
    """A camera beside the event origin, looking at it from the side. With ``moves`` (the
    hazard point's start and end of the window, one pair per speed band), the pose of
    ``CLOSEUP_CANDIDATES`` framed ones that shows the hazard (``extent`` m long) at least
    ``CLOSEUP_AIM_PX`` across at the window's end, if any does, and of those the one that
    shows the smallest of the moves largest: a toppling piece tips toward the robot, and a
    camera on that line sees it only grow; zoomed in until it shows that move at
    ``CLOSEUP_MOVE_AIM_PX`` where it shows less. If none shows it that large, the one that
    shows it largest. With ``hinge`` (a point on a door's vertical hinge axis, at the hazard
    point's height) the hazard's span is the width it shows from there to the hazard point: a
    door seen edge-on is a sliver, however wide it is."""
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

    if not moves:
        return _retry(CameraName.closeup, draw, points, lambda c: _inside(c.pos, bounds))
    framed: list[Camera] = []
    for attempt in range(MAX_ATTEMPTS):
        camera = draw(attempt)
        if _inside(camera.pos, bounds) and frames_all(camera, points):
            framed.append(camera)
            if len(framed) == CLOSEUP_CANDIDATES:
                break
    if not framed:
        raise FramingError(f"the {CameraName.closeup.value} camera cannot keep the hazard in frame")

    def span(camera: Camera) -> float:
        if hinge is not None:  # a door: as wide as it shows from its hinge to its edge
            return min(shown_width_px(camera, hinge, end) for _, end in moves)
        return min(shown_span_px(camera, end, extent) for _, end in moves)

    def move(camera: Camera) -> float:
        return min(shown_move_px(camera, m) for m in moves)

    large = [camera for camera in framed if span(camera) >= CLOSEUP_AIM_PX]
    if large:
        best = max(large, key=move)
        if move(best) >= CLOSEUP_MOVE_AIM_PX or move(best) < 1.0:
            # (A hazard still through its window, a chain's target, shows by what sets it
            # going: zooming in on it would show no more.)
            return best
        # A slow start (a stack beginning to tip) moves a few cm in its window: zoom each in,
        # the event's origin kept in frame with the hazard, until it shows the move.
        kept = [*points, origin]
        zoomed = (_zoomed(c, kept, lambda z: move(z) >= CLOSEUP_MOVE_AIM_PX) for c in large)
        return max(zoomed, key=move)
    # None shows it that large (a small object whose window spans metres): zoom each in as far
    # as the points stay in frame, and keep the one that then shows it largest.
    return max((_zoomed(camera, points) for camera in framed), key=span)


def _zoomed(
    camera: Camera, points: Sequence[Vec3], enough: Callable[[Camera], bool] = lambda _c: False
) -> Camera:
    """``camera`` with the narrowest field of view, down to ``CLOSEUP_MIN_FOV``, in steps of
    ``ZOOM_STEP``, that still frames ``points``, or the widest of those that is ``enough``."""
    best = camera
    fov = camera.fov_deg - ZOOM_STEP
    while fov >= CLOSEUP_MIN_FOV and not enough(best):
        narrower = camera.model_copy(update={"fov_deg": round(fov, 3)})
        if not frames_all(narrower, points):
            break
        best, fov = narrower, fov - ZOOM_STEP
    return best


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
