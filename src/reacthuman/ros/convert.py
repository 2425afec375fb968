"""Core types <-> ROS 2 messages. No logic beyond the conversion itself."""

from __future__ import annotations

import array
import math
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from builtin_interfaces.msg import Time
from geometry_msgs.msg import TransformStamped, Twist
from pydantic import BaseModel, ValidationError
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import CameraInfo as CameraInfoMsg
from sensor_msgs.msg import Image, Imu
from sensor_msgs.msg import JointState as JointStateMsg
from std_msgs.msg import Float64MultiArray, MultiArrayDimension, String

from reacthuman.observation import CameraInfo, Intrinsics
from reacthuman.ros.contract import BASE_FRAME, WORLD_FRAME
from reacthuman.scenes.geometry import (
    IDENTITY_QUAT,
    Quat,
    Vec3,
    quat_from_matrix,
    quat_from_yaw,
    rotate_into,
    rotate_yaw,
    sub,
)
from reacthuman.spine.command import JointCommand, JointState

M = TypeVar("M", bound=BaseModel)
NS = 1_000_000_000


class MessageError(ValueError):
    """A message that does not hold what its topic promises."""


def seconds_to_ns(seconds: float) -> int:
    return round(seconds * NS)


def stamp(ns: int) -> Time:
    return Time(sec=ns // NS, nanosec=ns % NS)


def ns_of(time: Time) -> int:
    return time.sec * NS + time.nanosec


def clock(ns: int) -> Clock:
    return Clock(clock=stamp(ns))


def to_string(model: BaseModel) -> String:
    return String(data=model.model_dump_json())


def from_string(model: type[M], msg: String, topic: str) -> M:
    try:
        return model.model_validate_json(msg.data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or model.__name__
        raise MessageError(
            f"{topic}: not a valid {model.__name__} ({where}: {err['msg']})"
        ) from None


def image(array: np.ndarray, ns: int, frame: str) -> Image:
    """An H x W x 3 uint8 RGB array as an rgb8 Image (the pixels are copied as they are)."""
    if array.dtype != np.uint8 or array.ndim != 3 or array.shape[2] != 3:
        raise MessageError(f"expected an HxWx3 uint8 image, got {array.dtype} {array.shape}")
    height, width, _ = array.shape
    msg = Image(height=height, width=width, encoding="rgb8", is_bigendian=0, step=width * 3)
    msg.header.stamp = stamp(ns)
    msg.header.frame_id = frame
    msg.data = np.ascontiguousarray(array).tobytes()
    return msg


def image_array(msg: Image) -> np.ndarray:
    if msg.encoding != "rgb8":
        raise MessageError(f"expected an rgb8 image, got {msg.encoding!r}")
    if msg.step != msg.width * 3 or len(msg.data) != msg.height * msg.step:
        raise MessageError(f"image of {msg.width}x{msg.height} has {len(msg.data)} bytes")
    return np.frombuffer(bytes(msg.data), dtype=np.uint8).reshape(msg.height, msg.width, 3)


CHANNELS = {"rgb8": 3, "bgr8": 3, "rgba8": 4, "bgra8": 4, "mono8": 1}  # what cameras send


def camera_rgb(msg: Image) -> np.ndarray:
    """A camera's frame as an H x W x 3 uint8 RGB array, from the 8-bit encodings camera
    drivers publish (a RealSense sends rgb8, a USB camera often bgr8 or mono8), rows padded
    or not."""
    channels = CHANNELS.get(msg.encoding)
    if channels is None:
        raise MessageError(
            f"camera image encoding {msg.encoding!r} is not one of {', '.join(CHANNELS)} "
            "(a depth or compressed stream is not a colour frame)"
        )
    row = msg.width * channels
    if (
        msg.height == 0
        or msg.width == 0
        or msg.step < row
        or len(msg.data) != msg.height * msg.step
    ):
        raise MessageError(
            f"{msg.encoding} image of {msg.width}x{msg.height} (step {msg.step}) has "
            f"{len(msg.data)} bytes"
        )
    rows = np.frombuffer(bytes(msg.data), dtype=np.uint8).reshape(msg.height, msg.step)
    pixels = rows[:, :row].reshape(msg.height, msg.width, channels)
    if msg.encoding == "mono8":
        return np.ascontiguousarray(np.repeat(pixels, 3, axis=2))
    rgb = pixels[:, :, 2::-1] if msg.encoding.startswith("bgr") else pixels[:, :, :3]
    return np.ascontiguousarray(rgb)


def intrinsics(msg: CameraInfoMsg) -> Intrinsics:
    """The pinhole part of a ``sensor_msgs/CameraInfo`` (K), refused when uncalibrated."""
    fx, _, cx, _, fy, cy, *_ = msg.k
    if msg.width == 0 or msg.height == 0 or fx <= 0 or fy <= 0:
        raise MessageError(
            f"camera_info of {msg.width}x{msg.height} with fx={fx:g}, fy={fy:g}: not calibrated"
        )
    return Intrinsics(msg.width, msg.height, float(fx), float(fy), float(cx), float(cy))


def camera_info(info: CameraInfo, ns: int, frame: str) -> CameraInfoMsg:
    msg = CameraInfoMsg(width=info.width, height=info.height, distortion_model="plumb_bob")
    msg.header.stamp = stamp(ns)
    msg.header.frame_id = frame
    msg.d = [0.0] * 5
    msg.k = [info.fx, 0.0, info.cx, 0.0, info.fy, info.cy, 0.0, 0.0, 1.0]
    msg.r = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    msg.p = [info.fx, 0.0, info.cx, 0.0, 0.0, info.fy, info.cy, 0.0, 0.0, 0.0, 1.0, 0.0]
    return msg


def joint_state_msg(
    names: tuple[str, ...],
    positions: tuple[float, ...],
    ns: int,
    velocities: tuple[float, ...] = (),
) -> JointStateMsg:
    msg = JointStateMsg(
        name=list(names),
        position=[float(p) for p in positions],
        velocity=[float(v) for v in velocities],
    )
    msg.header.stamp = stamp(ns)
    return msg


def joint_state(msg: JointStateMsg, tick: int, t: float, imu: Imu | None = None) -> JointState:
    """The core's joint state from ``/joint_states`` and, for the G1, ``/imu`` of the tick."""
    quat = gyro = None
    if imu is not None:
        o, w = imu.orientation, imu.angular_velocity
        quat, gyro = (o.w, o.x, o.y, o.z), (w.x, w.y, w.z)
    return JointState(
        tick,
        t,
        tuple(msg.name),
        tuple(float(p) for p in msg.position),
        tuple(float(v) for v in msg.velocity),
        quat,
        gyro,
    )


def imu_msg(state: JointState, ns: int, frame: str) -> Imu:
    """The base IMU of a joint state (orientation w x y z, body-frame angular velocity)."""
    msg = Imu()
    msg.header.stamp = stamp(ns)
    msg.header.frame_id = frame
    set_quaternion(msg.orientation, state.imu_quat or IDENTITY_QUAT)
    g = state.imu_gyro or (0.0, 0.0, 0.0)
    msg.angular_velocity.x, msg.angular_velocity.y, msg.angular_velocity.z = g
    msg.linear_acceleration_covariance[0] = -1.0  # not measured (REP-145)
    return msg


def joint_command(
    msg: JointStateMsg,
    tick: int,
    t: float,
    twist: Twist | None,
    gains: tuple[tuple[float, ...], tuple[float, ...]] = ((), ()),
) -> JointCommand:
    walking = (
        (0.0, 0.0, 0.0) if twist is None else (twist.linear.x, twist.linear.y, twist.angular.z)
    )
    positions = tuple(float(p) for p in msg.position)
    return JointCommand(tick, t, tuple(msg.name), positions, walking, gains[0], gains[1])


def twist(walking_cmd: tuple[float, float, float]) -> Twist:
    msg = Twist()
    msg.linear.x, msg.linear.y, msg.angular.z = (float(v) for v in walking_cmd)
    return msg


def optical_rotation(info: CameraInfo) -> Quat:
    """Orientation of a camera's optical frame (z forward, x right, y down) in the world."""
    forward = np.subtract(info.lookat, info.pos)
    forward = forward / np.linalg.norm(forward)
    right = np.cross(forward, info.up)
    right = right / np.linalg.norm(right)
    down = np.cross(forward, right)
    return quat_from_matrix(np.column_stack([right, down, forward]))


def set_quaternion(field: Any, q: Quat) -> None:
    """A message's quaternion field from a (w, x, y, z) quaternion (ROS names the fields)."""
    field.w, field.x, field.y, field.z = (float(v) for v in q)


def transform(
    parent: str,
    child: str,
    ns: int,
    translation: tuple[float, float, float],
    rotation: Quat = IDENTITY_QUAT,
) -> TransformStamped:
    """``child``'s pose in ``parent`` at sim time ``ns`` (``rotation`` (w, x, y, z))."""
    msg = TransformStamped()
    msg.header.stamp = stamp(ns)
    msg.header.frame_id = parent
    msg.child_frame_id = child
    t = msg.transform.translation
    t.x, t.y, t.z = (float(v) for v in translation)
    set_quaternion(msg.transform.rotation, rotation)
    return msg


HAND_FRAMES = ("left_hand", "right_hand")
# A body transform: (parent frame, child frame, translation, rotation (w, x, y, z)).
BodyFrame = tuple[str, str, Vec3, Quat]


def body_frames(state: JointState, pose: Any = None) -> list[BodyFrame]:
    """world -> base_link and base_link -> hands: from the G1's pose in the scene
    (``pose``: an ``episode_host.BodyPose``) or from the stand-in's world-frame joints."""
    if pose is not None:
        base = pose.base_pos
        out: list[BodyFrame] = [(WORLD_FRAME, BASE_FRAME, base, pose.base_quat)]
        for side, point in pose.hands.items():
            local = rotate_into(pose.base_quat, sub(point, base))
            out.append((BASE_FRAME, f"{side}_hand", local, IDENTITY_QUAT))
        return out
    q = dict(zip(state.names, state.positions, strict=True))
    if "base_x" not in q:
        return []
    x, y, yaw = q["base_x"], q["base_y"], q["base_yaw"]
    out = [(WORLD_FRAME, BASE_FRAME, (x, y, 0.0), quat_from_yaw(yaw))]
    for side in HAND_FRAMES:
        offset = (q[f"{side}_x"] - x, q[f"{side}_y"] - y, q[f"{side}_z"])
        out.append((BASE_FRAME, side, rotate_yaw(offset, -yaw), IDENTITY_QUAT))
    return out


# Plans executed side by side (``contract.BATCH_STATES`` / ``BATCH_COMMANDS``): one
# Float64MultiArray a control tick for all of a scene's executions, a row per execution,
# opened by the stamp (ns) of that execution's tick. Its layout's dimensions name the rows,
# the fields of a row and the joints: ``joints:NAME,NAME,...``. A state row's ``slow`` is 1
# at the ticks (10 Hz) whose ``/clock`` and body transforms go into the execution's bag (the
# recorder writes them from the row, so they do not travel as 4 messages per execution);
# the transforms' values are NaN at other ticks and where a body has none.
JOINTS_LABEL = "joints:"
STATE_FIELDS = (
    "ns,slow,position[joints],velocity[joints],imu_orientation[wxyz],imu_angular_velocity[xyz],"
    "base_link[xyz,wxyz],left_hand[xyz],right_hand[xyz]"
)
COMMAND_FIELDS = "ns,position[joints],walking[vx,vy,yaw_rate]"
_NO_FRAMES = (math.nan,) * 13


@dataclass(frozen=True)
class BatchRow:
    """One execution's row of a batch message: its tick's stamp, the joint names and values
    (positions and velocities of a state, targets of a command), the IMU of a state or the
    walking command of a command, and whether the state's tick is one whose clock and body
    transforms (``frames``, where the body has them) are recorded."""

    ns: int
    names: tuple[str, ...]
    positions: tuple[float, ...]
    velocities: tuple[float, ...] = ()
    imu_quat: Quat | None = None
    imu_gyro: tuple[float, float, float] | None = None
    walking: tuple[float, float, float] = (0.0, 0.0, 0.0)
    slow: bool = False
    frames: tuple[BodyFrame, ...] = ()


def _batch(rows: list[list[float]], fields: str, names: tuple[str, ...]) -> Float64MultiArray:
    width = len(rows[0]) if rows else 0
    msg = Float64MultiArray()
    msg.layout.dim = [
        MultiArrayDimension(label="executions", size=len(rows), stride=len(rows) * width),
        MultiArrayDimension(label=fields, size=width, stride=width),
        MultiArrayDimension(label=JOINTS_LABEL + ",".join(names), size=len(names), stride=1),
    ]
    # An array.array is taken as it is; a list is checked value by value in Python (about
    # 0.1 ms for a tick of seven executions, at every tick).
    msg.data = array.array("d", [v for row in rows for v in row])
    return msg


def _frame_values(frames: list[BodyFrame]) -> tuple[float, ...]:
    """A state row's transform fields: the base's pose in the world and each hand's position
    in the base frame, as ``body_frames`` gives them; NaN where a frame is missing."""
    by_child = {child: (translation, rotation) for _p, child, translation, rotation in frames}
    base = by_child.get(BASE_FRAME)
    values = [*base[0], *base[1]] if base else [math.nan] * 7
    for hand in HAND_FRAMES:
        found = by_child.get(hand)
        values += found[0] if found else (math.nan,) * 3
    return tuple(float(v) for v in values)


def batch_states_msg(
    states: list[JointState],
    stamps: list[int],
    frames: list[list[BodyFrame]] | None = None,
) -> Float64MultiArray:
    """The states of a tick's executions (``stamps``: each one's tick stamp, ns). ``frames``:
    each execution's body transforms at a tick whose clock and transforms are recorded (a
    slow tick); None at the others."""
    rows = []
    for i, (state, ns) in enumerate(zip(states, stamps, strict=True)):
        quat = state.imu_quat or (math.nan,) * 4
        gyro = state.imu_gyro or (math.nan,) * 3
        # A body without velocities (the kinematic stand-in's): NaN, read back as none.
        velocities = state.velocities or (math.nan,) * len(state.positions)
        slow, body = (0.0, _NO_FRAMES) if frames is None else (1.0, _frame_values(frames[i]))
        rows.append([float(ns), slow, *state.positions, *velocities, *quat, *gyro, *body])
    return _batch(rows, STATE_FIELDS, states[0].names)


def batch_commands_msg(commands: list[JointCommand], stamps: list[int]) -> Float64MultiArray:
    """The spine's answers to a tick's batch of states, in its rows' order."""
    rows = [
        [float(ns), *command.positions, *command.walking_cmd]
        for command, ns in zip(commands, stamps, strict=True)
    ]
    return _batch(rows, COMMAND_FIELDS, commands[0].names)


def _row_frames(values: list[float]) -> tuple[BodyFrame, ...]:
    """The body transforms a state row carries (``_frame_values`` read back)."""
    out: list[BodyFrame] = []
    if not math.isnan(values[0]):
        base = (values[0], values[1], values[2])
        out.append((WORLD_FRAME, BASE_FRAME, base, (values[3], values[4], values[5], values[6])))
    for i, hand in enumerate(HAND_FRAMES):
        x, y, z = values[7 + 3 * i : 10 + 3 * i]
        if not math.isnan(x):
            out.append((BASE_FRAME, hand, (x, y, z), IDENTITY_QUAT))
    return tuple(out)


def batch_rows(msg: Float64MultiArray) -> list[BatchRow]:
    """A batch message's rows; ValueError when its layout is not a batch's."""
    dims = list(msg.layout.dim)
    if len(dims) != 3 or not dims[2].label.startswith(JOINTS_LABEL):
        raise ValueError("not a batch of executions: expected dimensions rows, fields, joints")
    fields = dims[1].label
    names = tuple(n for n in dims[2].label.removeprefix(JOINTS_LABEL).split(",") if n)
    n, width, count = len(names), dims[1].size, dims[0].size
    expected = {STATE_FIELDS: 2 + 2 * n + 7 + 13, COMMAND_FIELDS: 1 + n + 3}.get(fields)
    if expected is None or width != expected or len(msg.data) != count * width:
        raise ValueError(
            f"a batch of {count} rows of {width} values ({fields!r}, {n} joints) "
            f"holds {len(msg.data)} values"
        )
    data = np.asarray(msg.data, dtype=np.float64).reshape(count, width)
    out = []
    for row in data.tolist():
        ns = int(row[0])
        if fields == COMMAND_FIELDS:
            walking = (row[1 + n], row[2 + n], row[3 + n])
            out.append(BatchRow(ns, names, tuple(row[1 : 1 + n]), walking=walking))
            continue
        slow = row[1] == 1.0
        quat, gyro = row[2 + 2 * n : 6 + 2 * n], row[6 + 2 * n : 9 + 2 * n]
        has_imu = not math.isnan(quat[0])
        velocities = tuple(row[2 + n : 2 + 2 * n])
        out.append(
            BatchRow(
                ns,
                names,
                tuple(row[2 : 2 + n]),
                () if n and all(math.isnan(v) for v in velocities) else velocities,
                (quat[0], quat[1], quat[2], quat[3]) if has_imu else None,
                (gyro[0], gyro[1], gyro[2]) if has_imu else None,
                slow=slow,
                frames=_row_frames(row[9 + 2 * n :]) if slow else (),
            )
        )
    return out


def row_state(row: BatchRow, tick: int, t: float) -> JointState:
    """The core's joint state of a batch row at its tick."""
    return JointState(tick, t, row.names, row.positions, row.velocities, row.imu_quat, row.imu_gyro)


def row_command(
    row: BatchRow, tick: int, t: float, gains: tuple[tuple[float, ...], tuple[float, ...]]
) -> JointCommand:
    """The core's joint command of a batch row at its tick, with its phase's gains."""
    return JointCommand(tick, t, row.names, row.positions, row.walking, gains[0], gains[1])
