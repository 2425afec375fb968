"""CDR bytes of the lone-execution messages a batch row stands for, built without rclpy.

The recorder writes each row of a batch of executions side by side into that execution's bag
as the ``/imu``, ``/joint_states``, joint command and ``/cmd_vel`` messages a lone execution
has, and at its slow ticks the ``/clock`` and transforms. Building them as rclpy messages and
serializing those cost about half a millisecond a tick for seven executions, on the
lock-step's path. Here the parts that never change within a run (the encapsulation, the
frame, the joint names and every alignment pad) are laid out once per joint set and frame,
and a message is its stamp and values packed between them:
what ``rclpy.serialization.serialize_message`` gives, of the same length and with the same
values (tested against it), except that its alignment pads are zeros where Fast CDR leaves
whatever its buffer held.

CDR as ROS 2 writes it (XCDR1, little endian): a 4-byte encapsulation header, then every
primitive aligned to its size counted from the end of that header; a string is its length
with the closing NUL, its bytes and the NUL; a sequence is its length, then its elements.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Sequence

ENCAPSULATION = b"\x00\x01\x00\x00"  # CDR, little endian, no options
NS = 1_000_000_000


class _Layout:
    """Serialized bytes built in order, tracking the alignment offset."""

    def __init__(self) -> None:
        self.body = bytearray()

    def align(self, size: int) -> None:
        self.body += b"\x00" * (-len(self.body) % size)

    def u32(self, value: int) -> None:
        self.align(4)
        self.body += struct.pack("<I", value)

    def string(self, text: str) -> None:
        data = text.encode()
        self.u32(len(data) + 1)
        self.body += data + b"\x00"


def _stamp(ns: int) -> bytes:
    return struct.pack("<iI", ns // NS, ns % NS)


@functools.cache
def _joint_layout(
    names: tuple[str, ...], frame: str, velocities: bool
) -> tuple[bytes, bytes, bytes, int]:
    """A JointState's fixed parts: after the stamp up to the positions, between positions and
    velocities, after them (the empty effort); and the number of joints. The stamp fills
    bytes 0-7 of the body, so the offsets that decide the pads do not depend on it."""
    layout = _Layout()
    layout.body += b"\x00" * 8  # the stamp's place
    layout.string(frame)
    layout.u32(len(names))
    for name in names:
        layout.string(name)
    layout.u32(len(names))
    layout.align(8)
    head = bytes(layout.body[8:])
    layout.body += b"\x00" * (8 * len(names))
    mark = len(layout.body)
    layout.u32(len(names) if velocities else 0)
    layout.align(8)  # even before no doubles, as Fast CDR does
    between = bytes(layout.body[mark:])
    layout.body += b"\x00" * (8 * len(names) if velocities else 0)
    mark = len(layout.body)
    layout.u32(0)  # effort
    layout.align(8)
    return head, between, bytes(layout.body[mark:]), len(names)


def joint_state(
    names: tuple[str, ...],
    ns: int,
    positions: Sequence[float],
    velocities: Sequence[float] = (),
    frame: str = "",
) -> bytes:
    """A ``sensor_msgs/msg/JointState`` stamped ``ns`` (no efforts; no velocities when empty),
    as ``convert.joint_state_msg`` builds it."""
    head, between, tail, count = _joint_layout(names, frame, bool(velocities))
    if len(positions) != count or len(velocities) not in (0, count):
        raise ValueError(
            f"{count} joints but {len(positions)} positions and {len(velocities)} velocities"
        )
    values = struct.pack(f"<{count}d", *positions)
    moving = struct.pack(f"<{len(velocities)}d", *velocities)
    return b"".join((ENCAPSULATION, _stamp(ns), head, values, between, moving, tail))


@functools.cache
def _imu_head(frame: str) -> bytes:
    layout = _Layout()
    layout.body += b"\x00" * 8
    layout.string(frame)
    layout.align(8)
    return bytes(layout.body[8:])


_COVARIANCE = struct.pack("<9d", *([0.0] * 9))
_NOT_MEASURED = struct.pack("<9d", -1.0, *([0.0] * 8))  # REP-145: no linear acceleration


def imu(ns: int, frame: str, quat: Sequence[float], gyro: Sequence[float]) -> bytes:
    """A ``sensor_msgs/msg/Imu`` as ``convert.imu_msg`` builds it: orientation from a
    (w, x, y, z) quaternion, angular velocity, no linear acceleration."""
    w, x, y, z = quat
    return b"".join(
        (
            ENCAPSULATION,
            _stamp(ns),
            _imu_head(frame),
            struct.pack("<4d", x, y, z, w),
            _COVARIANCE,
            struct.pack("<3d", *gyro),
            _COVARIANCE,
            struct.pack("<3d", 0.0, 0.0, 0.0),
            _NOT_MEASURED,
        )
    )


def twist(walking: Sequence[float]) -> bytes:
    """A ``geometry_msgs/msg/Twist`` of a walking command (vx, vy, yaw rate)."""
    vx, vy, yaw_rate = walking
    return ENCAPSULATION + struct.pack("<6d", vx, vy, 0.0, 0.0, 0.0, yaw_rate)


def clock(ns: int) -> bytes:
    """A ``rosgraph_msgs/msg/Clock`` at sim time ``ns``."""
    return ENCAPSULATION + _stamp(ns)


@functools.cache
def _transform_head(parent: str, child: str) -> bytes:
    """A TransformStamped's fixed part after the stamp: both frames and the pad before the
    translation."""
    layout = _Layout()
    layout.body += b"\x00" * 8
    layout.string(parent)
    layout.string(child)
    layout.align(8)
    return bytes(layout.body[8:])


def transform(
    parent: str, child: str, ns: int, translation: Sequence[float], rotation: Sequence[float]
) -> bytes:
    """A ``geometry_msgs/msg/TransformStamped`` as ``convert.transform`` builds it
    (``rotation`` (w, x, y, z))."""
    w, x, y, z = rotation
    return b"".join(
        (
            ENCAPSULATION,
            _stamp(ns),
            _transform_head(parent, child),
            struct.pack("<3d", *translation),
            struct.pack("<4d", x, y, z, w),
        )
    )
