"""The CRC a G1 checks on every ``LowCmd_`` (and seals every ``LowState_`` with).

Unitree computes it over the message as its C struct lies in memory (little-endian, natural
alignment, padding zero), read as 32-bit words, all but the last (the ``crc`` itself), each
fed most significant bit first into a CRC-32 with polynomial 0x04C11DB7, initial value
0xFFFFFFFF and no final xor: CRC-32/MPEG-2 over the words' big-endian bytes. The arithmetic is
``fastcrc``'s (a maintained Rust implementation of the CRC catalogue); this module only lays
the message out as Unitree's struct does. Golden values from Unitree's own ``crc32_core``
are in test/test_unitree.py.
"""

from __future__ import annotations

import struct
from typing import TypeVar

import fastcrc
import numpy as np

from reacthuman.unitree.messages import LowCmd_, LowState_, MalformedMessage

# unitree_hg LowCmd_: mode_pr, mode_machine, pad; 35 x MotorCmd_ {mode, pad, q dq tau kp kd,
# reserve}; reserve[4]; crc. 1004 bytes.
LOWCMD_LAYOUT = struct.Struct("<2B2x" + "B3x5fI" * 35 + "4I" + "I")
# unitree_hg LowState_: version[2], mode_pr, mode_machine, pad, tick; IMUState_ {quaternion[4],
# gyroscope[3], accelerometer[3], rpy[3], temperature, pad}; 35 x MotorState_ {mode, pad, q dq
# ddq tau_est, temperature[2], vol, sensor[2], motorstate, reserve[4]}; wireless_remote[40];
# reserve[4]; crc. 2092 bytes.
LOWSTATE_LAYOUT = struct.Struct("<2I2B2xI" + "13fh2x" + "B3x4f2hf7I" * 35 + "40B4I" + "I")


def crc32_words(data: bytes) -> int:
    """Unitree's ``crc32_core`` over ``data`` read as little-endian 32-bit words."""
    if len(data) % 4:
        raise ValueError(f"{len(data)} bytes are not a whole number of 32-bit words")
    return fastcrc.crc32.mpeg_2(np.frombuffer(data, "<u4").byteswap().tobytes())


def _lowcmd_values(msg: LowCmd_) -> list[float | int]:
    values: list[float | int] = [msg.mode_pr, msg.mode_machine]
    for m in msg.motor_cmd:
        values += [m.mode, m.q, m.dq, m.tau, m.kp, m.kd, m.reserve]
    return [*values, *msg.reserve, msg.crc]


def _lowstate_values(msg: LowState_) -> list[float | int]:
    imu = msg.imu_state
    values: list[float | int] = [*msg.version, msg.mode_pr, msg.mode_machine, msg.tick]
    values += [*imu.quaternion, *imu.gyroscope, *imu.accelerometer, *imu.rpy, imu.temperature]
    for m in msg.motor_state:
        values += [m.mode, m.q, m.dq, m.ddq, m.tau_est, *m.temperature, m.vol, *m.sensor]
        values += [m.motorstate, *m.reserve]
    return [*values, *msg.wireless_remote, *msg.reserve, msg.crc]


def packed(msg: LowCmd_ | LowState_) -> bytes:
    """The message's bytes as Unitree's C struct (what the CRC covers, and the last word)."""
    try:
        if isinstance(msg, LowCmd_):
            return LOWCMD_LAYOUT.pack(*_lowcmd_values(msg))
        return LOWSTATE_LAYOUT.pack(*_lowstate_values(msg))
    except struct.error as error:  # wrong array sizes, or a value its field cannot hold
        kind = type(msg).__name__
        raise MalformedMessage(f"{kind} does not fit Unitree's layout: {error}") from error


def crc_of(msg: LowCmd_ | LowState_) -> int:
    """The CRC the message should carry."""
    return crc32_words(packed(msg)[:-4])


_Message = TypeVar("_Message", LowCmd_, LowState_)


def seal(msg: _Message) -> _Message:
    """Set the message's ``crc``; returns it."""
    msg.crc = crc_of(msg)
    return msg


def check(msg: LowCmd_ | LowState_) -> None:
    """MalformedMessage unless the message's ``crc`` is the one its content gives."""
    expected = crc_of(msg)
    if msg.crc != expected:
        kind = type(msg).__name__
        raise MalformedMessage(
            f"{kind} CRC {msg.crc:#010x} does not match its content ({expected:#010x})"
        )
