"""Small rigid-body geometry helpers: yaw transforms, quaternions (w, x, y, z), pinhole projection.

Every rotation in the package is done here, in one convention: frames follow REP-103 (x
forward, y left, z up) and quaternions are (w, x, y, z) as in Genesis; ROS messages name
their fields, so the order never leaks. What the closed forms below do not cover comes from
``scipy.spatial.transform``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]

IDENTITY_QUAT: Quat = (1.0, 0.0, 0.0, 0.0)


def add(a: Sequence[float], b: Sequence[float]) -> Vec3:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def sub(a: Sequence[float], b: Sequence[float]) -> Vec3:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def scale(a: Sequence[float], k: float) -> Vec3:
    return (a[0] * k, a[1] * k, a[2] * k)


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a: Sequence[float], b: Sequence[float]) -> Vec3:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def norm(a: Sequence[float]) -> float:
    return math.sqrt(dot(a, a))


def normalize(a: Sequence[float]) -> Vec3:
    n = norm(a)
    if n == 0.0:
        raise ValueError("cannot normalize a zero vector")
    return scale(a, 1.0 / n)


def vec3(values: Iterable[float]) -> Vec3:
    """Three values as a Vec3 (from a list, a generator or an array row), unchanged."""
    x, y, z = values
    return (x, y, z)


def quat4(values: Iterable[float]) -> Quat:
    """Four values as a (w, x, y, z) Quat, unchanged."""
    w, x, y, z = values
    return (w, x, y, z)


def quat_from_axis_angle(axis: Sequence[float], angle: float) -> Quat:
    x, y, z = normalize(axis)
    s = math.sin(angle / 2.0)
    return (math.cos(angle / 2.0), x * s, y * s, z * s)


def quat_from_yaw(yaw: float) -> Quat:
    return quat_from_axis_angle((0.0, 0.0, 1.0), yaw)


def quat_yaw(q: Quat) -> float:
    """The heading (rotation about z) of a (w, x, y, z) quaternion."""
    w, x, y, z = q
    return math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))


def quat_mul(a: Quat, b: Quat) -> Quat:
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    )


def quat_rotate(q: Quat, v: Sequence[float]) -> Vec3:
    w, x, y, z = q
    u = (x, y, z)
    t = scale(cross(u, v), 2.0)
    return add(add(v, scale(t, w)), cross(u, t))


def quat_conjugate(q: Quat) -> Quat:
    """The inverse rotation of a unit quaternion."""
    return (q[0], -q[1], -q[2], -q[3])


def rotate_into(q: Quat, v: Sequence[float]) -> Vec3:
    """A world vector ``v`` in the frame that ``q`` turns into the world (a body's own)."""
    return quat_rotate(quat_conjugate(q), v)


def quat_rpy(q: Quat) -> Vec3:
    """Roll, pitch and yaw about the fixed x, y and z axes (URDF's ``rpy``, an IMU's)."""
    from scipy.spatial.transform import Rotation

    roll, pitch, yaw = Rotation.from_quat(q, scalar_first=True).as_euler("xyz")
    return float(roll), float(pitch), float(yaw)


def quat_from_matrix(m: Any) -> Quat:
    """The quaternion of a 3x3 rotation matrix (array-like; columns: the frame's axes in the
    world)."""
    from scipy.spatial.transform import Rotation

    w, x, y, z = Rotation.from_matrix(m).as_quat(scalar_first=True, canonical=True)
    return float(w), float(x), float(y), float(z)


def rotate_yaw(v: Sequence[float], yaw: float) -> Vec3:
    c, s = math.cos(yaw), math.sin(yaw)
    return (c * v[0] - s * v[1], s * v[0] + c * v[1], v[2])


def box_corners(center: Sequence[float], size: Sequence[float], quat: Quat) -> list[Vec3]:
    """The eight corners of an oriented box, for extents and framing checks."""
    hx, hy, hz = size[0] / 2.0, size[1] / 2.0, size[2] / 2.0
    return [
        add(center, quat_rotate(quat, (sx * hx, sy * hy, sz * hz)))
        for sx in (-1.0, 1.0)
        for sy in (-1.0, 1.0)
        for sz in (-1.0, 1.0)
    ]


def project(
    point: Sequence[float],
    cam_pos: Sequence[float],
    lookat: Sequence[float],
    up: Sequence[float],
    fov_deg: float,
    aspect: float,
) -> tuple[float, float] | None:
    """Normalised image coordinates in [-1, 1]^2 (x right, y up) of a point, None if behind.

    A pinhole camera with vertical field of view ``fov_deg`` looking from ``cam_pos`` at
    ``lookat``; the same model Genesis cameras use, so the framing check agrees with the render.
    """
    forward = normalize(sub(lookat, cam_pos))
    right = normalize(cross(forward, up))
    true_up = cross(right, forward)
    rel = sub(point, cam_pos)
    depth = dot(rel, forward)
    if depth <= 1e-6:
        return None
    tan_v = math.tan(math.radians(fov_deg) / 2.0)
    return (dot(rel, right) / (depth * tan_v * aspect), dot(rel, true_up) / (depth * tan_v))


Box = tuple[Sequence[float], Sequence[float]]  # axis-aligned: (lowest corner, highest corner)


def box_gap(a: Box, b: Box, axes: int = 3) -> float:
    """The distance between two axis-aligned boxes over their first ``axes`` axes (0 where
    they touch or overlap; a point is a box with both corners at it)."""
    return math.sqrt(sum(max(a[0][i] - b[1][i], 0.0, b[0][i] - a[1][i]) ** 2 for i in range(axes)))


def segment_hits_box(box: Box, a: Sequence[float], b: Sequence[float]) -> bool:
    """Whether the segment from ``a`` to ``b`` passes through the box (slab test)."""
    t0, t1 = 0.0, 1.0
    for i in range(3):
        d = b[i] - a[i]
        if abs(d) < 1e-12:
            if not box[0][i] <= a[i] <= box[1][i]:
                return False
            continue
        ta, tb = (box[0][i] - a[i]) / d, (box[1][i] - a[i]) / d
        t0, t1 = max(t0, min(ta, tb)), min(t1, max(ta, tb))
        if t0 > t1:
            return False
    return True
