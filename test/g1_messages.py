"""G1 messages for the tests of the guard and the spine on Unitree's interface: a robot's
LowState standing in its default pose, a spine's LowCmd answering one of its ticks, and a
clock the tests move by hand."""

from __future__ import annotations

from reacthuman.ros.graph import free_domain
from reacthuman.spine.g1 import DEFAULT_POSE
from reacthuman.unitree import crc
from reacthuman.unitree.bridge import BRIDGE_MODE_MACHINE
from reacthuman.unitree.channel import Channel
from reacthuman.unitree.messages import ARMABLE, LowCmd_, LowState_, MotorState_
from reacthuman.unitree.motors import G1_MOTOR_ORDER


def standing_state(tick: int = 0, mode_machine: int = BRIDGE_MODE_MACHINE) -> LowState_:
    msg = LowState_(mode_machine=mode_machine, tick=tick)
    msg.motor_state = [MotorState_(mode=1, q=DEFAULT_POSE[n]) for n in G1_MOTOR_ORDER] + [
        MotorState_() for _ in range(6)
    ]
    return crc.seal(msg)


def command(
    tick: int,
    targets: dict[str, float] | None = None,
    mode_machine: int = BRIDGE_MODE_MACHINE,
    ready: bool = False,
) -> LowCmd_:
    """The spine's command answering ``tick`` (``ready``: it waits to be armed)."""
    msg = LowCmd_(mode_machine=mode_machine)
    for slot, name in enumerate(G1_MOTOR_ORDER):
        m = msg.motor_cmd[slot]
        m.mode, m.q, m.kp, m.kd = 1, DEFAULT_POSE[name], 40.0, 2.0
        if targets and name in targets:
            m.q = targets[name]
    msg.reserve = [tick, ARMABLE if ready else 0, 0, 0]
    return crc.seal(msg)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def fresh_channel() -> Channel:
    """A channel on a free DDS domain of the tests' range, on loopback."""
    return Channel(free_domain(), "lo")
