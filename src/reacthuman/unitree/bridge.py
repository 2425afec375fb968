"""``reacthuman g1-bridge``: the Genesis G1 under physics on Unitree's DDS interface.

It does for the spine what Unitree's MuJoCo simulator does for their SDK: reads ``LowCmd_``
on ``rt/lowcmd`` and publishes ``LowState_`` on ``rt/lowstate``, so the spine (through the
guard) cannot tell it from a robot. It checks each command as the robot does (CRC,
``mode_machine``) and drops the ones that fail, with a message. Two ways to keep time:

* ``lockstep`` (the default, and what the tests use): the physics waits at each 50 Hz control
  tick for the command that answers that tick's LowState (``reserve[0]``, see
  ``unitree.messages.ANSWERS_TICK``), re-publishing the state every ``REPUBLISH`` s of wall
  time while it waits, as a robot keeps reporting. Same inputs, same run, on any machine.
* ``realtime``: the physics keeps pace with the wall clock and LowState goes out at 500 Hz;
  each physics step applies the latest command, as on the robot.

Before its first command the G1 hangs in its start pose (the physics does not run), and for
the first ``gantry`` s of simulated time after it the pelvis stays held where it started, as
a real G1 hangs from its gantry while the spine's soft start brings it to its standing pose
and its walking policy starts (``unitree.robot_spine``; a humanoid cannot stand on PD alone).
PD runs in Genesis's joint controller (``sim.body.G1Body``), the
same as the simulation backend, unless a command carries a velocity target or a feed-forward
torque; then the bridge computes ``tau + kp (q* - q) + kd (dq* - dq)`` itself at each physics
step, clipped to the motor's peak, as Unitree's simulator does.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from reacthuman.genesis_runtime import as_numpy
from reacthuman.sim.settings import DT
from reacthuman.spine.command import CONTROL_PERIOD, JointCommand
from reacthuman.unitree import crc
from reacthuman.unitree.guard_rules import is_damping
from reacthuman.unitree.messages import (
    LOWCMD_TOPIC,
    LOWSTATE_TOPIC,
    LowCmd_,
    LowState_,
    MalformedMessage,
    answered_tick,
    lowstate_of,
)
from reacthuman.unitree.motors import (
    G1_EFFORT_LIMITS,
    G1_MOTOR_ORDER,
    MOTOR_ENABLE,
    MOTOR_SLOTS,
)

BRIDGE_MODE_MACHINE = 5  # what the bridge reports as its machine type (a 29-DoF G1's is 5)
GANTRY = 2.0  # s: the spine's soft start; released as its walking policy starts
REPUBLISH = 0.01  # s of wall time between repeats of a state that waits for its command
STATE_PERIOD = 0.002  # s: 500 Hz, the G1's rate


@dataclass
class Received:
    """A command the bridge took: when (monotonic s), the tick it answered, whether it damps."""

    at: float
    tick: int
    damping: bool


class CommandInbox:
    """Commands as the robot takes them: CRC and ``mode_machine`` checked, bad ones dropped
    and counted; the latest kept, and each kept by the tick it answers for the lock step."""

    def __init__(self, mode_machine: int = BRIDGE_MODE_MACHINE, log: Any = print) -> None:
        self.mode_machine = mode_machine
        self.log = log
        self.rejected: list[str] = []
        self.received: list[Received] = []
        self.latest: LowCmd_ | None = None
        self._by_tick: dict[int, LowCmd_] = {}
        self._ready = threading.Condition()

    def put(self, msg: LowCmd_) -> None:
        try:
            crc.check(msg)
            if msg.mode_machine != self.mode_machine:
                raise MalformedMessage(
                    f"LowCmd_ mode_machine {msg.mode_machine} is not this robot's "
                    f"({self.mode_machine})"
                )
            if len(msg.motor_cmd) != MOTOR_SLOTS:
                raise MalformedMessage(f"LowCmd_ has {len(msg.motor_cmd)} motor slots")
        except MalformedMessage as error:
            self.rejected.append(str(error))
            self.log(f"g1 bridge: LowCmd dropped: {error}")
            return
        tick = answered_tick(msg)
        with self._ready:
            self.latest = msg
            self._by_tick[tick] = msg
            if len(self._by_tick) > 64:
                for old in sorted(self._by_tick)[:-32]:
                    del self._by_tick[old]
            self.received.append(Received(time.monotonic(), tick, is_damping(msg)))
            self._ready.notify_all()

    def answer(self, tick: int, timeout: float) -> LowCmd_ | None:
        """The command answering ``tick``, waiting up to ``timeout`` s."""
        deadline = time.monotonic() + timeout
        with self._ready:
            while tick not in self._by_tick:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._ready.wait(left)
            return self._by_tick.pop(tick)


def joint_command_of(msg: LowCmd_) -> tuple[JointCommand, bool]:
    """The G1's 29 motors of a LowCmd_ as a joint command for ``G1Body.apply`` (a motor that
    is off has no gains), and whether it asks for more than PD around ``q`` (dq or tau)."""
    motors = msg.motor_cmd[: len(G1_MOTOR_ORDER)]
    on = [m.mode == MOTOR_ENABLE for m in motors]
    command = JointCommand(
        tick=answered_tick(msg),
        t=0.0,
        names=G1_MOTOR_ORDER,
        positions=tuple(float(m.q) for m in motors),
        walking_cmd=(0.0, 0.0, 0.0),
        kp=tuple(float(m.kp) if e else 0.0 for m, e in zip(motors, on, strict=True)),
        kd=tuple(float(m.kd) if e else 0.0 for m, e in zip(motors, on, strict=True)),
    )
    extra = any(e and (m.dq != 0.0 or m.tau != 0.0) for m, e in zip(motors, on, strict=True))
    return command, extra


@dataclass
class BridgeRecord:
    """What the simulated G1 did, per control tick, for tests and the operator."""

    ticks: list[int] = field(default_factory=list)  # ms
    base: list[tuple[float, float, float]] = field(default_factory=list)
    damping: list[bool] = field(default_factory=list)
    states: int = 0  # LowStates published

    def to_json(self, inbox: CommandInbox) -> dict[str, Any]:
        return {
            "ticks": self.ticks,
            "base": self.base,
            "damping": self.damping,
            "states": self.states,
            "rejected": inbox.rejected,
            "received": [(r.at, r.tick, r.damping) for r in inbox.received],
        }


class G1Bridge:
    """The G1 alone on a flat floor (``sim.proving.ProvingGround``) behind ``rt/*``."""

    def __init__(
        self, channel: Any, lockstep: bool = True, log: Any = print, gantry: float = GANTRY
    ) -> None:
        from reacthuman.sim.proving import ProvingGround

        self.ground = ProvingGround()
        self.g1 = self.ground.g1
        self._warm_up()
        self.ground.scene.reset(self.ground.start)
        self.g1.stand_up()
        self._held = self.g1.base()
        self._gantry_steps = round(gantry / DT)
        self._steps = 0
        self.lockstep = lockstep
        self.log = log
        self.inbox = CommandInbox(log=log)
        self.record = BridgeRecord()
        self._writer = channel.writer(LOWSTATE_TOPIC, LowState_)
        self._reader = channel.reader(LOWCMD_TOPIC, LowCmd_, self.inbox.put)
        self._torque: tuple[JointCommand, LowCmd_] | None = None
        self._write_lock = threading.Lock()
        self._limits = np.asarray([G1_EFFORT_LIMITS[n] for n in G1_MOTOR_ORDER])

    def _warm_up(self) -> None:
        """Run once, before the robot reports, what its first commanded steps run (gains and
        PD targets, computed torques, the gantry's hold): their kernels compile on first use
        and held the interpreter for 0.5 s on the first commanded step, long enough for the
        500 Hz reporting thread to fall silent past the guard's state timeout (damping)."""
        entity, dofs, scene = self.g1.entity, self.g1.dofs, self.ground.scene
        scene.step()
        state = self.g1.state(0, 0.0)
        n = len(state.names)
        hold = (0.0, 0.0, 0.0)
        self.g1.apply(
            JointCommand(0, 0.0, state.names, state.positions, hold, (50.0,) * n, (1.0,) * n)
        )
        self._held = self.g1.base()
        scene.step()
        self._hold_on_gantry()
        q = as_numpy(entity.get_dofs_position(dofs)).astype(float)
        as_numpy(entity.get_dofs_velocity(dofs))
        entity.control_dofs_force(np.zeros_like(q), dofs)
        scene.step()

    def state_message(self, tick_ms: int) -> LowState_:
        """The body's LowState_ now, sealed."""
        return crc.seal(lowstate_of(self.g1.state(0, 0.0), tick_ms, BRIDGE_MODE_MACHINE))

    def _apply(self, msg: LowCmd_) -> None:
        command, extra = joint_command_of(msg)
        if extra:  # velocity targets or feed-forward torque: PD computed here per step
            self._torque = (command, msg)
            zeros = tuple(0.0 for _ in command.kp)
            self.g1.apply(
                JointCommand(0, 0.0, command.names, command.positions, (0, 0, 0), zeros, zeros)
            )
        else:
            self._torque = None
            self.g1.apply(command)

    def _step(self) -> None:
        if self._torque is not None:
            command, msg = self._torque
            entity, dofs = self.g1.entity, self.g1.dofs
            q = as_numpy(entity.get_dofs_position(dofs)).astype(float)
            dq = as_numpy(entity.get_dofs_velocity(dofs)).astype(float)
            motors = msg.motor_cmd[: len(G1_MOTOR_ORDER)]
            tau = np.asarray([m.tau for m in motors])
            target_dq = np.asarray([m.dq for m in motors])
            kp, kd = np.asarray(command.kp), np.asarray(command.kd)
            force = tau + kp * (np.asarray(command.positions) - q) + kd * (target_dq - dq)
            entity.control_dofs_force(np.clip(force, -self._limits, self._limits), dofs)
        self.ground.scene.step()
        self._steps += 1
        if self._steps <= self._gantry_steps:
            self._hold_on_gantry()

    def _hold_on_gantry(self) -> None:
        """On the gantry: the pelvis held still where it started (``_held``)."""
        pos, quat = self._held
        entity = self.g1.entity
        entity.set_pos(np.asarray(pos), zero_velocity=False)
        entity.set_quat(np.asarray(quat), zero_velocity=False)
        entity.set_dofs_velocity(np.zeros(6), dofs_idx_local=list(range(6)))

    def run(self, seconds: float, stop: threading.Event | None = None) -> BridgeRecord:
        """Simulate ``seconds`` of the robot's time (or until ``stop``)."""
        stop = stop or threading.Event()
        if self.lockstep:
            self._run_lockstep(seconds, stop)
        else:
            self._run_realtime(seconds, stop)
        return self.record

    def _write(self, msg: LowState_) -> None:
        with self._write_lock:
            self._writer.write(msg)
            self.record.states += 1

    def _reporting(self, latest: list[LowState_], done: threading.Event) -> threading.Thread:
        """A thread that re-publishes ``latest[0]`` every ``REPUBLISH`` s until ``done``: a
        robot keeps reporting while its physics (here, the host) is busy."""

        def report() -> None:
            while not done.wait(REPUBLISH):
                self._write(latest[0])

        thread = threading.Thread(target=report, name="g1-bridge-report", daemon=True)
        thread.start()
        return thread

    def _run_lockstep(self, seconds: float, stop: threading.Event) -> None:
        from reacthuman.sim.execute import steps_of_tick

        latest = [self.state_message(0)]
        done = threading.Event()
        reporter = self._reporting(latest, done)
        try:
            for k in range(round(seconds / CONTROL_PERIOD)):
                tick_ms = round(1000 * k * CONTROL_PERIOD)
                latest[0] = msg = self.state_message(tick_ms)
                self._write(msg)
                answer = None
                while answer is None and not stop.is_set():
                    answer = self.inbox.answer(tick_ms, REPUBLISH)
                if answer is None:
                    return
                self._apply(answer)
                for _ in range(steps_of_tick(k)):
                    self._step()
                self._note(tick_ms, answer)
        finally:
            done.set()
            reporter.join(timeout=1.0)

    def _run_realtime(self, seconds: float, stop: threading.Event) -> None:
        latest: list[LowState_] = [self.state_message(0)]
        publishing = threading.Event()

        def publish() -> None:
            next_at = time.monotonic()
            while not publishing.is_set() and not stop.is_set():
                self._write(latest[0])
                next_at += STATE_PERIOD
                time.sleep(max(0.0, next_at - time.monotonic()))

        publisher = threading.Thread(target=publish, name="g1-bridge-500hz", daemon=True)
        publisher.start()
        try:
            while self.inbox.latest is None and not stop.is_set():  # hanging on its gantry
                time.sleep(STATE_PERIOD)
            started, applied, step = time.monotonic(), None, 0
            steps = round(seconds / DT)
            per_tick = round(CONTROL_PERIOD / DT)
            while step < steps and not stop.is_set():
                msg = self.inbox.latest
                if msg is not applied and msg is not None:
                    self._apply(msg)
                    applied = msg
                self._step()
                step += 1
                tick_ms = round(1000 * step * DT)
                latest[0] = self.state_message(tick_ms)
                if step % per_tick == 0 and applied is not None:
                    self._note(tick_ms, applied)
                time.sleep(max(0.0, started + step * DT - time.monotonic()))
        finally:
            publishing.set()
            publisher.join(timeout=1.0)

    def _note(self, tick_ms: int, msg: LowCmd_) -> None:
        pos, _quat = self.g1.base()
        self.record.ticks.append(tick_ms)
        self.record.base.append(pos)
        self.record.damping.append(is_damping(msg))

    def write_record(self, path: Path) -> None:
        path.write_text(json.dumps(self.record.to_json(self.inbox)))
