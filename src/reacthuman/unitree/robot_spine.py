"""The spine against a robot: the same controller as in simulation, paced by the robot's
LowState stream instead of the simulator's lock step.

Every LowState at least one control period (20 ms of the robot's ``tick``) after the last one
answered gets the controller's command: 29 targets with PD gains, addressed to the robot's
``mode_machine``, with the tick it answers in ``reserve[0]``, sealed with the CRC, and handed
to ``send`` (the guard's topic; the guard alone writes ``rt/lowcmd``). A G1 publishes
LowState at 500 Hz, so every tenth is answered; a simulated G1 in lock step publishes one
per control tick. Time does not freeze on a robot: a plan starts at the first LowState after
it arrives (``execute``), and the brain's latency is what the robot spent waiting; a plan
that arrives before the robot stands under the controller is dropped (``not_ready``).

**Soft start.** Before the controller runs, the spine moves the robot from the posture it
measures when the guard arms to the default standing pose over ``soft_start`` s of the
robot's clock (with the controller's standing gains), as Unitree's low-level and RL
deployment examples do; only then does the walking policy start, from a robot standing
still in the pose it was trained from. Until the guard arms, the spine asks for the posture
the robot is in and says in each command that it waits to be armed (``messages.ARMABLE``),
which is what the guard arms on. It learns of the arming from what the guard writes on
``rt/lowcmd`` (``on_guard_output``): the first of its own commands forwarded names the tick
armed on, and the soft start counts from that tick on the robot's clock, however late the
spine hears of it; damping there ends it, and the next arming starts a new soft start. (A
simulator's announced execution, ``hold``, waits for it.)

Targets outside a joint's range are clipped to it (a motor's hard stop would stop it there
anyway) and counted; a LowState that fails its checks is skipped with a message, and the
guard's watchdog turns a stream of them into damping.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from reacthuman.brain.plan import ReactionPlan
from reacthuman.spine.command import CONTROL_PERIOD, JointCommand, tick_time
from reacthuman.spine.g1 import DEFAULT_POSE, G1_JOINTS
from reacthuman.unitree import crc
from reacthuman.unitree.guard_rules import is_damping
from reacthuman.unitree.messages import (
    ARMABLE,
    LowCmd_,
    LowState_,
    MalformedMessage,
    answered_tick,
    joint_state_of,
    lowcmd_from_fields,
)
from reacthuman.unitree.motors import (
    G1_JOINT_LIMITS,
    MODE_PR,
    lowcmd_fields,
)

CONTROL_MS = round(1000 * CONTROL_PERIOD)
SOFT_START = 2.0  # s of the robot's clock, measured posture -> default pose
TICK_TOLERANCE_MS = 1  # a robot's 2 ms stream drifts by a millisecond now and then
HELD_KEPT = 64  # postures held while disarmed, by tick: the soft start starts from one


def clipped(command: JointCommand) -> tuple[JointCommand, int]:
    """The command with each target inside its joint's range, and how many were outside."""
    out, count = [], 0
    for name, q in zip(command.names, command.positions, strict=True):
        low, high = G1_JOINT_LIMITS[name]
        inside = min(max(q, low), high)
        count += inside != q
        out.append(inside)
    if not count:
        return command, 0
    return (
        JointCommand(
            command.tick,
            command.t,
            command.names,
            tuple(out),
            command.walking_cmd,
            command.kp,
            command.kd,
        ),
        count,
    )


class HardwareSpine:
    """The controller on a robot's LowState stream (module docstring)."""

    def __init__(
        self,
        controller: Any,
        send: Callable[[LowCmd_], None],
        log: Callable[[str], object] = print,  # what it returns is ignored
        soft_start: float = SOFT_START,
        hold: bool = False,
        guard_armed: bool = True,
    ) -> None:
        self.controller = controller
        self.send = send
        self.log = log
        self.clipped = 0  # targets clipped to their joint's range
        self.skipped = 0  # LowStates that failed their checks
        self.answered = 0
        self.walking: tuple[float, float, float] = (0.0, 0.0, 0.0)
        self.started_at: int | None = None  # robot tick (ms) at which the current plan began
        self._lock = threading.Lock()
        self._last_tick: int | None = None
        self._tick = 0  # control ticks since the current execution (or wait) began
        self._next: tuple[ReactionPlan | None] | None = None
        self._not_before: int | None = None  # the robot tick the next plan waits for
        # hold: a simulator reports only during executions and names each one's first tick
        # (``execute(at_tick=...)``); a state past the current execution waits for the next.
        self.hold = hold
        self._start_tick: int | None = None
        self._end_tick: int | None = None
        self._held: LowState_ | None = None
        self.soft_start = soft_start
        self._rising: tuple[int, tuple[float, ...]] | None = None  # (tick, posture) at start
        self._held_postures: dict[int, tuple[float, ...]] = {}  # by tick, while disarmed
        self.standing = soft_start <= 0.0  # the soft start is over: the controller runs
        # Whether the guard forwards what the spine sends (``set_guard_armed``): until it
        # does, the soft start holds at the posture the robot is in.
        self.guard_armed = guard_armed
        controller.wait((0.0, 0.0, 0.0), 0.0)

    def set_guard_armed(self, armed: bool, at_tick: int | None = None) -> None:
        """The guard's mode changed: armed (at robot tick ``at_tick`` when known), the soft
        start runs from the posture held then, counted from that tick; disarmed or damping,
        the next arming starts a new soft start."""
        with self._lock:
            if armed == self.guard_armed:
                return
            self.guard_armed = armed
            if armed and at_tick is not None and at_tick in self._held_postures:
                self._rising = (at_tick, self._held_postures[at_tick])
            if armed:
                self._held_postures.clear()
            if not armed and self.soft_start > 0.0:
                self.standing, self._rising = False, None
        if armed:
            where = "" if at_tick is None else f" at robot tick {at_tick}"
            self.log(f"spine: the guard armed{where}")

    def on_guard_output(self, msg: LowCmd_) -> None:
        """What the guard wrote on ``rt/lowcmd`` (what the robot obeys): damping ends an
        arming; the first command forwarded while the spine waits names the tick armed on."""
        try:
            crc.check(msg)
        except MalformedMessage:
            return  # not the guard's: the robot drops it too
        if is_damping(msg):
            self.set_guard_armed(False)
        elif not self.guard_armed:
            self.set_guard_armed(True, answered_tick(msg))

    def not_ready(self) -> str | None:
        """Why a plan from the brain cannot start now on a robot (None: it can). Its moment
        passes while the robot is not yet standing under the controller, so such a plan is
        dropped, not kept for later."""
        if not self.guard_armed:
            return "the guard is not armed"
        if not self.standing:
            return "the soft start has not finished"
        return None

    def _soft_start(self, state: Any, tick: int) -> JointCommand:
        """The soft start's command at robot ``tick`` (module docstring)."""
        if self._rising is None or not self.guard_armed:
            self._rising = (tick, state.positions)  # held where the robot is until armed
            if not self.guard_armed:
                self._held_postures[tick] = state.positions
                if len(self._held_postures) > HELD_KEPT:
                    del self._held_postures[min(self._held_postures)]
        start, posture = self._rising
        alpha = min((tick - start) / (1000.0 * self.soft_start), 1.0)
        targets = tuple(
            q + alpha * (DEFAULT_POSE[name] - q) for name, q in zip(G1_JOINTS, posture, strict=True)
        )
        if alpha >= 1.0:
            self.standing = True
            self.controller.wait((0.0, 0.0, 0.0), 0.0)
            self._tick = 0
            self.log(f"spine: soft start done at robot tick {tick}; the controller runs")
        kp, kd = self.controller.gains()
        return JointCommand(0, 0.0, G1_JOINTS, targets, (0.0, 0.0, 0.0), kp, kd)

    def execute(
        self,
        plan: ReactionPlan | None,
        at_tick: int | None = None,
        ticks: int = 0,
        not_before: int | None = None,
    ) -> None:
        """Start ``plan`` at the next LowState answered (in the robot's frame as it stands
        then; None stands still), at the first at or after robot tick ``not_before`` if
        given, or, for a simulator that names them (``hold``), at the LowState of
        ``at_tick`` for ``ticks`` control ticks, answering it now if it came first."""
        with self._lock:
            self._next = (plan,)
            self._not_before = not_before
            self._start_tick = at_tick
            self._end_tick = None if at_tick is None else at_tick + ticks * CONTROL_MS
            held, self._held = self._held, None
        if held is not None and at_tick is not None and held.tick >= at_tick:
            self.on_state(held)

    def on_state(self, msg: LowState_) -> LowCmd_ | None:
        """The command answering ``msg``, sent; None when it is not due or not sound."""
        with self._lock:
            last = self._last_tick
            if last is not None and msg.tick - last < CONTROL_MS - TICK_TOLERANCE_MS:
                return None  # not due yet, or a repeat of a state already answered
            start, end = self._start_tick, self._end_tick
            if self.hold and (start is None or end is None or not start <= msg.tick < end):
                self._held = msg  # the execution it belongs to has not been announced
                return None
            try:
                crc.check(msg)
                waits = self._not_before is not None and msg.tick < self._not_before
                if self._next is not None and self.standing and not waits:
                    (plan,), self._next = self._next, None
                    self.controller.start(plan, (0.0, 0.0, 0.0), 0.0)
                    self._tick, self.started_at = 0, int(msg.tick)
                state = joint_state_of(msg, self._tick, tick_time(self._tick))
            except MalformedMessage as error:
                self.skipped += 1
                self.log(f"spine: LowState skipped: {error}")
                return None
            if self.standing:
                command = self.controller.command(state)
            else:
                command = self._soft_start(state, int(msg.tick))
            command, outside = clipped(command)
            self.clipped += outside
            self.walking = command.walking_cmd
            fields = lowcmd_fields(command, int(msg.mode_machine), MODE_PR)
            word = 0 if self.guard_armed else ARMABLE  # waiting to be armed (module docstring)
            out = crc.seal(lowcmd_from_fields(fields, int(msg.tick), word))
            self._last_tick = int(msg.tick)
            self._tick += 1
            self.answered += 1
        self.send(out)
        return out
