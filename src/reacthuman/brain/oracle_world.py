"""The oracle's view of a scene at the freeze: the object's path after it and the room, in
the robot frame at the freeze, and the distances ``brain.oracle`` checks its walks with."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from reacthuman.brain.motion import to_robot
from reacthuman.brain.oracle_tuning import TUNING, OracleTuning
from reacthuman.gait_table import Gait
from reacthuman.scenes.geometry import Vec3, add, quat_rotate
from reacthuman.scenes.truth import GroundTruth


@dataclass(frozen=True)
class Path:
    """The object after the freeze in the robot frame at the freeze: time (s after the
    freeze), hazard point, velocity, and sample points of its box at each time."""

    t: np.ndarray  # (n,)
    point: np.ndarray  # (n, 3)
    velocity: np.ndarray  # (n, 3)
    box: np.ndarray  # (n, k, 3)
    radius: float  # m, half the object's smallest extent (its box keeps the rest)
    length: float = 0.0  # m, its largest extent


def object_path(
    truth: GroundTruth, robot_pos: Vec3, robot_yaw: float, tuning: OracleTuning = TUNING
) -> Path:
    """The ground-truth path from the freeze on, resampled every ``tuning.step`` s."""
    traj = [p for p in truth.trajectory if p.t >= truth.window - 1e-9]
    stride = max(1, round(tuning.step * _rate(truth)))
    traj = traj[::stride] if len(traj) > 2 * stride else traj
    t = np.asarray([p.t - truth.window for p in traj])
    point = np.asarray([to_robot(p.pos, robot_pos, robot_yaw) for p in traj])
    velocity = np.gradient(point, t, axis=0) if len(t) > 1 else np.zeros_like(point)
    d = tuning.default_size
    size = truth.hazard_size or (d, d, d)
    offsets = _box_offsets(size, tuning.box_spacing)
    boxes = []
    for p in traj:
        if p.center is None or p.quat is None:  # a schema 2.0 truth: a ball round the point
            center, quat = p.pos, (1.0, 0.0, 0.0, 0.0)
        else:
            center, quat = p.center, p.quat
        world = [add(center, quat_rotate(quat, tuple(o))) for o in offsets]
        boxes.append([to_robot(w, robot_pos, robot_yaw) for w in world])
    return Path(t, point, velocity, np.asarray(boxes), radius=0.5 * min(size), length=max(size))


def _rate(truth: GroundTruth) -> float:
    if len(truth.trajectory) < 2:
        return 60.0
    return 1.0 / max(truth.trajectory[1].t - truth.trajectory[0].t, 1e-6)


def _box_offsets(size: Vec3, spacing: float) -> np.ndarray:
    """Points over an object's box (its own axes), at most ``spacing`` apart."""
    axes = [np.linspace(-s / 2.0, s / 2.0, max(2, math.ceil(s / spacing) + 1)) for s in size]
    grid = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
    return grid


def gait_poses(gait: Gait | None, times: np.ndarray) -> np.ndarray:
    """(n, 3) base x, y, heading of a gait (None: standing) at these times."""
    if gait is None:
        return np.zeros((len(times), 3))
    return np.asarray([gait.at(float(t)) for t in times])


def body_distance(
    box: np.ndarray,
    base: np.ndarray,
    radius: float = TUNING.body_radius,
    height: float = TUNING.body_height,
) -> np.ndarray:
    """(n,) distance from the body cylinder (``radius``, ``height``) at each base (x, y) to
    the object's box points."""
    horizontal = np.hypot(box[..., 0] - base[:, None, 0], box[..., 1] - base[:, None, 1])
    radial = np.maximum(horizontal - radius, 0.0)
    vertical = np.maximum(np.maximum(box[..., 2] - height, -box[..., 2]), 0.0)
    return np.hypot(radial, vertical).min(axis=1)


@dataclass(frozen=True)
class Room:
    """Walls and obstacles in the robot frame at the freeze, for the walking checks."""

    half: tuple[float, float] | None  # the room's half extents (world), None: unknown
    boxes: list[tuple[Vec3, Vec3]]  # obstacles' world (lo, hi)
    robot_pos: Vec3
    robot_yaw: float
    hand_clearance: float = TUNING.hand_clearance  # m around a footprint that is over it

    def top_under(self, x: float, y: float) -> float | None:
        """The top of the highest obstacle under this point (robot frame), if any."""
        wx, wy = self._world(np.asarray([[x, y]]))
        tops = [
            hi[2]
            for lo, hi in self.boxes
            if lo[0] - self.hand_clearance <= wx[0] <= hi[0] + self.hand_clearance
            and lo[1] - self.hand_clearance <= wy[0] <= hi[1] + self.hand_clearance
        ]
        return max(tops) if tops else None

    def _world(self, base: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        c, s = math.cos(self.robot_yaw), math.sin(self.robot_yaw)
        x = self.robot_pos[0] + c * base[:, 0] - s * base[:, 1]
        y = self.robot_pos[1] + s * base[:, 0] + c * base[:, 1]
        return x, y

    def clearance(self, base: np.ndarray) -> np.ndarray:
        """(n,) distance from each base position (robot frame) to the nearest wall or
        obstacle footprint (inf when the room is empty)."""
        x, y = self._world(base)
        out = np.full(len(base), np.inf)
        if self.half is not None:
            hx, hy = self.half
            out = np.minimum.reduce([out, hx - x, x + hx, hy - y, y + hy])
        for lo, hi in self.boxes:
            dx = np.maximum(np.maximum(lo[0] - x, x - hi[0]), 0.0)
            dy = np.maximum(np.maximum(lo[1] - y, y - hi[1]), 0.0)
            out = np.minimum(out, np.hypot(dx, dy))
        return out


def room_of(
    truth: GroundTruth, robot_pos: Vec3, robot_yaw: float, tuning: OracleTuning = TUNING
) -> Room:
    half = None if truth.room_size is None else (truth.room_size[0] / 2, truth.room_size[1] / 2)
    boxes = [
        (o.lo, o.hi)
        for o in truth.obstacles
        if o.hi[2] > tuning.obstacle_top and o.lo[2] < tuning.body_height
    ]
    return Room(half, boxes, robot_pos, robot_yaw, tuning.hand_clearance)


def walk_poses(gait: Gait | None) -> np.ndarray:
    """(n, 3) the gait's whole measured path (standing: the start alone)."""
    return np.zeros((1, 3)) if gait is None else np.asarray(gait.path)


def walk_violation(room: Room, poses: np.ndarray, wanted: float = TUNING.walk_clearance) -> float:
    """How far (m) a walk comes inside ``wanted`` of the room's contents, beyond where it
    starts (a robot that starts close to a table may stay as close)."""
    clearance = room.clearance(poses[:, :2])
    allowed = min(wanted, float(clearance[0]))
    return float(max(allowed - clearance.min(), 0.0))
