"""The simulator's end of Unitree's DDS interface: each control tick of an execution goes out
as the LowState_ a G1 would report and comes back as the LowCmd_ that answers it.

With ``spine_link: unitree`` the simulator node executes through this instead of
``/joint_states`` and ``spine/joint_command``, so the spine (``spine_node backend:=g1``) and
the guard run exactly as they would against a robot while the scene, its ground truth and
its outcome stay the simulator's. A LowState tick is the simulator's clock in milliseconds.
Between executions the last LowState is repeated every ``HEARTBEAT`` s, as a robot keeps
reporting, so the guard's watchdog sees a live robot while a scene is built or a brain
thinks; a repeat answers nothing new, so the spine stays quiet. A tick answered by the
guard's damping ends the execution with ``GuardDamped``: the simulated robot would obey it,
but what followed would measure the guard, not the plan.
"""

from __future__ import annotations

import atexit
import threading
from typing import Any

from reacthuman.spine.command import JointCommand, JointState
from reacthuman.spine.g1 import DEFAULT_POSE, G1_JOINTS
from reacthuman.unitree import crc
from reacthuman.unitree.bridge import BRIDGE_MODE_MACHINE, CommandInbox, joint_command_of
from reacthuman.unitree.channel import Channel
from reacthuman.unitree.guard_rules import is_damping
from reacthuman.unitree.messages import (
    LOWCMD_TOPIC,
    LOWSTATE_TOPIC,
    LowCmd_,
    LowState_,
    lowstate_of,
)

HEARTBEAT = 0.01  # s
# s a lock-stepped robot waits for a tick's command: the simulator's default, and the guard's
# patience in front of it (the simulated G1 stands frozen while it waits, so a host that
# stalls a process for a moment is not a spine that stopped).
LOCK_STEP_TIMEOUT = 10.0


class SpineSilent(RuntimeError):
    """No command answered a control tick in time."""


class GuardDamped(RuntimeError):
    """The guard answered a control tick with damping (its watchdog or an e-stop)."""


class SimulatorLink:
    """LowState out, LowCmd in, on ``channel`` (module docstring)."""

    def __init__(self, channel: Channel, log: Any = print) -> None:
        self.inbox = CommandInbox(log=log)
        self._writer = channel.writer(LOWSTATE_TOPIC, LowState_)
        self._reader = channel.reader(LOWCMD_TOPIC, LowCmd_, self.inbox.put)
        standing = JointState(
            0,
            0.0,
            G1_JOINTS,
            tuple(DEFAULT_POSE[n] for n in G1_JOINTS),
            (0.0,) * len(G1_JOINTS),
            (1.0, 0.0, 0.0, 0.0),
            (0.0, 0.0, 0.0),
        )
        self._latest = crc.seal(lowstate_of(standing, 0, BRIDGE_MODE_MACHINE))
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._beat = threading.Thread(target=self._heartbeat, name="g1-link", daemon=True)
        self._beat.start()
        atexit.register(self.close)  # before the channel's own close at exit

    def _write(self, msg: LowState_) -> None:
        with self._lock:
            self._latest = msg
            self._writer.write(msg)

    def _heartbeat(self) -> None:
        while not self._stop.wait(HEARTBEAT):
            with self._lock:
                self._writer.write(self._latest)

    def command(self, state: JointState, tick_ms: int, timeout: float) -> JointCommand:
        """The command answering ``state`` reported at ``tick_ms``; SpineSilent after
        ``timeout`` s (damping from the guard is an answer: the robot obeys it)."""
        self._write(crc.seal(lowstate_of(state, tick_ms, BRIDGE_MODE_MACHINE)))
        answer = self.inbox.answer(tick_ms & 0xFFFFFFFF, timeout)
        if answer is None:
            raise SpineSilent(
                f"no LowCmd answered LowState tick {tick_ms} within {timeout:g} s (is the "
                "spine running with backend:=g1, and the guard armed?)"
            )
        if is_damping(answer):
            raise GuardDamped(
                f"the guard answered LowState tick {tick_ms} with damping (its watchdog tripped "
                "or it was e-stopped: its log says why)"
            )
        command, _extra = joint_command_of(answer)
        return JointCommand(
            state.tick,
            state.t,
            command.names,
            command.positions,
            command.walking_cmd,
            command.kp,
            command.kd,
        )

    def close(self) -> None:
        """Stop the heartbeat (the channel itself closes at exit)."""
        self._stop.set()
        self._beat.join(timeout=1.0)
