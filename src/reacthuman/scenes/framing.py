"""Camera framing: where the room's walls stand around the event and what the cameras must
show, over every speed band of a scene group.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from reacthuman.scenes.cameras import Bounds, centroid, closeup, egocentric, overhead
from reacthuman.scenes.catalogue import end_on_extent
from reacthuman.scenes.families.base import Layout
from reacthuman.scenes.geometry import Vec3, box_corners
from reacthuman.scenes.reach import summarise_arrival
from reacthuman.scenes.rng import SeededRng
from reacthuman.scenes.samplers import GenerationError
from reacthuman.scenes.spec import Camera

EYE_HEIGHT = 1.2  # G1 head camera


def _in_head_view(pos: Sequence[float]) -> bool:
    """Inside the cone a head camera covers: 40 deg below to 45 deg above the eyes, 60 deg aside."""
    x, y, z = pos
    elevation = math.atan2(z - EYE_HEIGHT, math.hypot(x, y))
    return -math.radians(40.0) <= elevation <= math.radians(45.0) and abs(
        math.atan2(y, x)
    ) <= math.radians(60.0)


class FramePoints:
    """Points the views must show, gathered over every speed band of a scene group.

    ``observed``: the hazard at the event start and at the end of the window (close-up and
    overhead views); ``moves``: the same as (start, end) pairs, the motion the close-up is
    chosen to show. ``ego``: the first and last positions during the window that lie in the
    cone a head camera can cover (a drop from right above the robot or onto its feet leaves
    that cone), or the start if none does. ``arrivals``: where it enters the reach zone
    (overhead view).
    """

    def __init__(self) -> None:
        self.ego: list[Vec3] = []
        self.observed: list[Vec3] = []
        self.arrivals: list[Vec3] = []
        self.moves: list[tuple[Vec3, Vec3]] = []  # the hazard point over each band's window

    def add(self, layout: Layout, window: float) -> None:
        samples = layout.path.samples
        start, end = samples[0], layout.path.at(window)
        visible = [s.pos for s in samples if s.t <= window + 1e-9 and _in_head_view(s.pos)]
        self.ego += [visible[0], visible[-1]] if visible else [start.pos]
        self.ego += layout.extra_frame_points
        self.observed += [start.pos, end.pos, *layout.extra_frame_points]
        self.moves.append((start.pos, end.pos))
        arrival = summarise_arrival(
            ((s.t, s.pos, s.vel) for s in samples), (0, 0, 0), 0.0, 1.0, layout.path.floor_time
        )
        if arrival.arrival_point is not None:
            self.arrivals.append(arrival.arrival_point)


def extent_points(layout: Layout) -> list[Vec3]:
    points: list[Vec3] = [(0.4, 0.4, 0.0), (-0.4, -0.4, 0.0), layout.path.samples[0].pos]
    points += layout.extent_points
    for piece in layout.furniture:
        points += box_corners(piece.pose.pos, piece.size, piece.pose.quat)
    for obj in layout.objects:
        points += box_corners(obj.pose.pos, obj.shape.size, obj.pose.quat)
        if obj.joint is not None:
            points.append(obj.joint.anchor)
    return points


def room_bounds(layout: Layout, rng: SeededRng, height: float) -> Bounds:
    points = extent_points(layout)
    x_max = max(p[0] for p in points)
    if layout.front_wall is not None:
        if x_max > layout.front_wall + 1e-6:
            raise GenerationError("a piece of the scene reaches through the front wall")
        front = layout.front_wall
    else:
        front = x_max + rng.uniform(0.4, 1.2)
    back = min(min(p[0] for p in points), -0.4) - rng.uniform(1.0, 2.0)
    left = max(p[1] for p in points) + rng.uniform(0.6, 1.6)
    right = min(p[1] for p in points) - rng.uniform(0.6, 1.6)
    if layout.side_wall is not None:
        reach = max(p[1] for p in points) if layout.side_wall > 0 else -min(p[1] for p in points)
        if reach > abs(layout.side_wall) + 1e-6:
            raise GenerationError("a piece of the scene reaches through the side wall")
        if layout.side_wall > 0:
            left = layout.side_wall
        else:
            right = layout.side_wall
    if max(p[2] for p in points) > height + 1e-6:
        raise GenerationError("a piece of the scene reaches through the ceiling")
    return (back, front, right, left, height)


def place_cameras(
    stage: SeededRng, layout: Layout, bounds: Bounds, frame: FramePoints
) -> list[Camera]:
    """The head, close-up and overhead cameras, in the observer's frame, placed to show what
    ``frame`` gathered (``scenes.cameras`` draws each pose from ``stage``)."""
    return [
        egocentric(stage, EYE_HEIGHT, frame.ego),
        closeup(
            stage,
            centroid([end for _start, end in frame.moves])
            if layout.closeup_follows
            else layout.event_origin,
            bounds,
            frame.observed,
            layout.closeup_range,
            layout.closeup_azimuth,
            frame.moves,
            # As small as it may show at the freeze: a pair of scissors tumbling in flight
            # pointed at the close-up there and showed 15 px of its 22 cm.
            end_on_extent(layout.hazard.shape),
            layout.hinge,
        ),
        overhead(stage, layout.event_origin, bounds, frame.observed + frame.arrivals),
    ]
