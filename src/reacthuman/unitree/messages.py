"""The ``unitree_hg::msg::dds_`` messages a G1 speaks, as Cyclone DDS IDL types.

A G1 publishes ``LowState_`` on ``rt/lowstate`` (500 Hz) and obeys ``LowCmd_`` on
``rt/lowcmd``; Unitree's Python SDK (``unitree_sdk2py``) defines the same types with the same
type names, field order and array sizes, which is what DDS matches on, so a robot, Unitree's
own simulators and this project see one another. The definitions are written from the
protocol (``unitree_hg/msg/*.msg`` in unitree_ros2 and the IDL in unitree_sdk2python), not
copied. Conversions to and from the spine's :class:`~reacthuman.spine.command.JointState`
and ``LowCmdFields`` live here too, so nothing else needs to know the field layout.
"""

# No ``from __future__ import annotations`` here: Cyclone DDS reads the field types at run time.
import math
from dataclasses import dataclass, field

import cyclonedds.idl.annotations as annotate
import cyclonedds.idl.types as types
from cyclonedds.idl import IdlStruct

from reacthuman.scenes.geometry import quat_rpy, rotate_into
from reacthuman.spine.command import JointState
from reacthuman.unitree.motors import (
    G1_MOTOR_ORDER,
    MOTOR_SLOTS,
    LowCmdFields,
    MotorCmdFields,
    joint_state_from_lowstate,
)

LOWCMD_TOPIC = "rt/lowcmd"
LOWSTATE_TOPIC = "rt/lowstate"
# What the spine sends to the guard (``unitree.guard``), which alone writes rt/lowcmd.
SPINE_LOWCMD_TOPIC = "rt/reacthuman/spine_lowcmd"
# reserve[0] of a LowCmd_ carries the LowState_ tick (ms) it answers: a simulated G1 in lock
# step (``unitree.bridge``) waits for the command of its tick. Unitree's examples leave the
# reserve words zero and the robot's firmware gives them no meaning; the CRC covers them.
ANSWERS_TICK = 0
# reserve[1] of the spine's LowCmd_: ``ARMABLE`` while the spine waits to be armed, holding
# the posture it measures (or, with no soft start, standing under its controller); 0 once it
# has seen the guard forward its commands on rt/lowcmd. The guard arms only on such a command,
# so it never arms on a spine that has not started or is still running a soft start of old.
SPINE_WORD = 1
ARMABLE = 1
GRAVITY = 9.81


def lowstate_tick(ns: int) -> int:
    """The LowState tick (ms, uint32) a simulator on Unitree's interface reports at ``ns``."""
    return round(ns / 1_000_000) & 0xFFFFFFFF


def _zeros(n: int) -> list[int]:
    return [0] * n


@dataclass
@annotate.final
@annotate.autoid("sequential")
class MotorCmd_(IdlStruct, typename="unitree_hg.msg.dds_.MotorCmd_"):
    mode: types.uint8 = 0
    q: types.float32 = 0.0
    dq: types.float32 = 0.0
    tau: types.float32 = 0.0
    kp: types.float32 = 0.0
    kd: types.float32 = 0.0
    reserve: types.uint32 = 0


@dataclass
@annotate.final
@annotate.autoid("sequential")
class LowCmd_(IdlStruct, typename="unitree_hg.msg.dds_.LowCmd_"):
    mode_pr: types.uint8 = 0
    mode_machine: types.uint8 = 0
    motor_cmd: types.array[MotorCmd_, 35] = field(
        default_factory=lambda: [MotorCmd_() for _ in range(MOTOR_SLOTS)]
    )
    reserve: types.array[types.uint32, 4] = field(default_factory=lambda: _zeros(4))
    crc: types.uint32 = 0


@dataclass
@annotate.final
@annotate.autoid("sequential")
class IMUState_(IdlStruct, typename="unitree_hg.msg.dds_.IMUState_"):
    quaternion: types.array[types.float32, 4] = field(default_factory=lambda: [1.0, 0.0, 0.0, 0.0])
    gyroscope: types.array[types.float32, 3] = field(default_factory=lambda: [0.0] * 3)
    accelerometer: types.array[types.float32, 3] = field(default_factory=lambda: [0.0] * 3)
    rpy: types.array[types.float32, 3] = field(default_factory=lambda: [0.0] * 3)
    temperature: types.int16 = 0


@dataclass
@annotate.final
@annotate.autoid("sequential")
class MotorState_(IdlStruct, typename="unitree_hg.msg.dds_.MotorState_"):
    mode: types.uint8 = 0
    q: types.float32 = 0.0
    dq: types.float32 = 0.0
    ddq: types.float32 = 0.0
    tau_est: types.float32 = 0.0
    temperature: types.array[types.int16, 2] = field(default_factory=lambda: _zeros(2))
    vol: types.float32 = 0.0
    sensor: types.array[types.uint32, 2] = field(default_factory=lambda: _zeros(2))
    motorstate: types.uint32 = 0
    reserve: types.array[types.uint32, 4] = field(default_factory=lambda: _zeros(4))


@dataclass
@annotate.final
@annotate.autoid("sequential")
class LowState_(IdlStruct, typename="unitree_hg.msg.dds_.LowState_"):
    version: types.array[types.uint32, 2] = field(default_factory=lambda: _zeros(2))
    mode_pr: types.uint8 = 0
    mode_machine: types.uint8 = 0
    tick: types.uint32 = 0  # ms, the robot's clock
    imu_state: IMUState_ = field(default_factory=IMUState_)
    motor_state: types.array[MotorState_, 35] = field(
        default_factory=lambda: [MotorState_() for _ in range(MOTOR_SLOTS)]
    )
    wireless_remote: types.array[types.uint8, 40] = field(default_factory=lambda: _zeros(40))
    reserve: types.array[types.uint32, 4] = field(default_factory=lambda: _zeros(4))
    crc: types.uint32 = 0


class MalformedMessage(ValueError):
    """A LowState_ or LowCmd_ that cannot be trusted (sizes, non-finite values, CRC)."""


def lowcmd_from_fields(fields: LowCmdFields, answers_tick: int = 0, spine_word: int = 0) -> LowCmd_:
    """A LowCmd_ with ``fields`` (CRC not yet set: ``unitree.crc.seal``), answering
    ``answers_tick``, with the spine's word (``ARMABLE`` or 0) in ``reserve[SPINE_WORD]``."""
    msg = LowCmd_(mode_pr=fields.mode_pr, mode_machine=fields.mode_machine)
    msg.motor_cmd = [
        MotorCmd_(mode=m.mode, q=m.q, dq=m.dq, tau=m.tau, kp=m.kp, kd=m.kd) for m in fields.motors
    ]
    msg.reserve = [answers_tick & 0xFFFFFFFF, spine_word, 0, 0]
    return msg


def fields_of_lowcmd(msg: LowCmd_) -> LowCmdFields:
    """The motor content of a LowCmd_, checked for its sizes (reserve words and CRC aside)."""
    if len(msg.motor_cmd) != MOTOR_SLOTS:
        raise MalformedMessage(f"LowCmd_ has {len(msg.motor_cmd)} motor slots, not {MOTOR_SLOTS}")
    motors = tuple(
        MotorCmdFields(int(m.mode), float(m.q), float(m.dq), float(m.tau), float(m.kp), float(m.kd))
        for m in msg.motor_cmd
    )
    return LowCmdFields(int(msg.mode_pr), int(msg.mode_machine), motors)


def answered_tick(msg: LowCmd_) -> int:
    return int(msg.reserve[ANSWERS_TICK]) if len(msg.reserve) == 4 else 0


def armable(msg: LowCmd_) -> bool:
    """Whether the spine that sent ``msg`` waits to be armed (``ARMABLE``)."""
    return len(msg.reserve) == 4 and msg.reserve[SPINE_WORD] == ARMABLE


def lowstate_of(state: JointState, tick_ms: int, mode_machine: int) -> LowState_:
    """A G1's joint state as the LowState_ a robot reports at ``tick_ms`` (CRC not set:
    ``unitree.crc.seal``). The accelerometer reads gravity only (no linear acceleration)."""
    quat = state.imu_quat or (1.0, 0.0, 0.0, 0.0)
    w, x, y, z = quat
    msg = LowState_(mode_machine=mode_machine, tick=tick_ms & 0xFFFFFFFF)
    imu = msg.imu_state
    imu.quaternion = list(quat)
    imu.gyroscope = list(state.imu_gyro or (0.0, 0.0, 0.0))
    imu.accelerometer = list(rotate_into(quat, (0.0, 0.0, GRAVITY)))
    imu.rpy = list(quat_rpy(quat))
    index = {name: i for i, name in enumerate(state.names)}
    motors = [
        MotorState_(mode=1, q=state.positions[index[n]], dq=state.velocities[index[n]])
        for n in G1_MOTOR_ORDER
    ]
    msg.motor_state = motors + [MotorState_() for _ in range(MOTOR_SLOTS - len(motors))]
    return msg


def joint_state_of(msg: LowState_, tick: int, t: float) -> JointState:
    """The spine's joint state from a LowState_ (MalformedMessage for wrong sizes or a NaN)."""
    if len(msg.motor_state) != MOTOR_SLOTS:
        raise MalformedMessage(
            f"LowState_ has {len(msg.motor_state)} motor slots, not {MOTOR_SLOTS}"
        )
    joints = len(G1_MOTOR_ORDER)
    values = [
        *(v for m in msg.motor_state[:joints] for v in (m.q, m.dq)),
        *msg.imu_state.quaternion,
        *msg.imu_state.gyroscope,
    ]
    bad = [v for v in values if not math.isfinite(v)]
    if bad:
        raise MalformedMessage(f"LowState_ tick {msg.tick}: non-finite value(s) {bad[:3]}")
    try:
        return joint_state_from_lowstate(
            tick,
            t,
            [m.q for m in msg.motor_state],
            [m.dq for m in msg.motor_state],
            msg.imu_state.quaternion,
            msg.imu_state.gyroscope,
        )
    except ValueError as error:
        raise MalformedMessage(f"LowState_ tick {msg.tick}: {error}") from error
