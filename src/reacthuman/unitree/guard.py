"""The guard: the one writer of ``rt/lowcmd``, between the spine and a G1.

The spine sends its commands to the guard (``SPINE_LOWCMD_TOPIC``), never to the robot. The
guard forwards a command only when it is armed and the command passes every check, and it
sends damping (every motor enabled with ``kp`` 0 and a damping ``kd``: the robot sinks slowly
instead of holding its last targets or dropping) when anything stops or goes wrong. It runs as
its own process so that a spine that crashes, hangs or is killed cannot leave the robot
holding its last command. The rules, in the order a robot owner meets them:

* **Disarmed until told.** A guard sends nothing before ``arm`` (a service, or ``--arm`` at
  start), and ``arm`` is refused until the robot has reported a sound LowState and the spine
  waits to be armed: its latest command answers one of the robot's states of the last
  ``SPINE_PRESENT_MS`` (the robot's clock, so a lock-stepped robot, which waits for each
  answer, and a host that stalls the guard both arm on the state the spine is answering) and
  says that it holds the posture it measures (``messages.ARMABLE``). The spine's soft start
  then counts from the tick armed on, which it reads on ``rt/lowcmd``.
* **Refusals.** A command is refused (not forwarded, with a message naming the joint and
  the value) for a bad CRC, another ``mode_machine`` than the robot's, another ``mode_pr``
  than pitch/roll, a motor left off, a non-finite value, a target outside the joint's range,
  ``kp`` or ``kd`` above their caps, a feed-forward torque above the motor's peak, a
  velocity target above ``MAX_VELOCITY_TARGET``, a reserve word set, anything in the six
  motor slots a 29-DoF G1 does not use, or an answer to a tick already answered (a spine
  repeating itself is not answering the robot): a spine that sends these is broken. An
  answer to a tick the guard has not seen yet waits for that state and is checked against
  it. Refused commands are not replaced: the watchdog below turns silence into damping.
* **No jumps.** Each target forwarded moves at most ``MAX_TARGET_SPEED`` from the one before
  (the first from the posture measured at arming; the robot's time between them counted up
  to the watchdog's window) and asks at most ``PD_TORQUE_FACTOR`` peak torques at the
  measured state; a target beyond is moved to that bound (and counted), so a jump becomes a
  ramp. The spine stands the robot up from its measured posture itself (the soft start,
  ``unitree.robot_spine``). The hand tracker's targets jump that way when a reach begins
  (105 rad/s and 14 peak torques on a shoulder on the 17 default scenes, where the motor
  saturates at its peak anyway, in simulation as on the robot).
* **Watchdog.** Once armed, damping is sent and latched when the spine has not answered a
  LowState due an answer (20 ms of the robot's clock after the last one answered) within
  ``command_timeout`` (wall clock, from that state's arrival; counted from arming for the
  state armed on), when no LowState has come for ``state_timeout``, when a LowState holds a
  non-finite value (position, velocity, torque, IMU), when the robot's tick goes back or
  jumps by more than ``command_timeout``, or on ``estop``. Only ``arm`` leaves damping.

Guaranteed latency: damping is on ``rt/lowcmd`` within ``command_timeout`` plus two loop
periods of the first LowState the spine leaves unanswered (0.1 s + 4 ms at the defaults; the
test kills the spine mid-walk and measures it at the simulated robot), whatever the spine
sends meanwhile that is not an answer to it. The watchdog runs on the host's monotonic
clock, the speed limit on the robot's ``tick``. docs/physical-g1.md tables every refusal.

The checks of one message and damping are ``unitree.guard_rules``; this module is the state
machine around them (arming, the watchdog, forwarding), ``Guard``.
"""

from __future__ import annotations

import enum
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from reacthuman.spine.command import CONTROL_PERIOD
from reacthuman.unitree import crc
from reacthuman.unitree.guard_rules import (
    MAX_TARGET_SPEED,
    PD_TORQUE_FACTOR,
    command_problem,
    damping_command,
    limited,
    pd_torque_ratio,
    state_problem,
    target_speed,
)
from reacthuman.unitree.messages import (
    LowCmd_,
    LowState_,
    MalformedMessage,
    answered_tick,
    armable,
)
from reacthuman.unitree.motors import G1_MOTOR_ORDER, MOTOR_SLOTS

COMMAND_TIMEOUT = 0.1  # s
STATE_TIMEOUT = 0.1  # s
# ms of the robot's clock after the tick last answered that a LowState is due an answer: the
# spine answers every control period (unitree.robot_spine), a millisecond of drift allowed.
DUE_MS = round(1000 * CONTROL_PERIOD) - 1
# ms of the robot's clock: the spine is there when its latest command answers a state this
# recent (five control periods; the wall-clock window it replaces was ``COMMAND_TIMEOUT``).
SPINE_PRESENT_MS = round(1000 * COMMAND_TIMEOUT)
ARRIVALS_KEPT = 4096  # LowState arrivals remembered for the watchdog: 8 s at 500 Hz


class Mode(enum.Enum):
    DISARMED = "disarmed"  # nothing sent
    ARMED = "armed"  # the spine's commands forwarded
    DAMPING = "damping"  # damping sent, latched until armed again


@dataclass
class Guard:
    """The guard's rules (module docstring) without DDS: feed it states and commands, and ask
    ``poll`` what to write. Thread-safe: DDS listeners feed it while a loop polls it."""

    command_timeout: float = COMMAND_TIMEOUT
    state_timeout: float = STATE_TIMEOUT
    max_target_speed: float = MAX_TARGET_SPEED
    pd_torque_factor: float = PD_TORQUE_FACTOR
    clock: Callable[[], float] = time.monotonic
    log: Callable[[str], object] = print  # what it returns is ignored (rclpy's logger: a bool)
    mode: Mode = Mode.DISARMED
    reason: str = ""
    refused: int = 0
    forwarded: int = 0
    limited: int = 0  # commands forwarded with targets limited
    peak_speed: float = 0.0  # fastest target forwarded or refused (rad/s)
    peak_torque: float = 0.0  # largest PD torque asked, over the motor's peak
    peak_speed_joint: str = ""
    peak_torque_joint: str = ""
    events: deque[str] = field(default_factory=lambda: deque(maxlen=100))
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _state: LowState_ | None = None
    _state_at: float = 0.0
    _armed_at: float = 0.0
    # (tick, arrival) of each LowState newer than the one before: the watchdog counts from the
    # arrival of the first state due an answer, whatever the commands that came since answer.
    _arrivals: deque[tuple[int, float]] = field(default_factory=lambda: deque(maxlen=ARRIVALS_KEPT))
    _waiting_since: float | None = None  # first LowState the spine has not answered
    _answered: int = -1  # the LowState tick the last command forwarded answered
    _pending: LowCmd_ | None = None
    _pending_tick: int = -1  # the tick ``_pending`` answers
    _early: LowCmd_ | None = None  # an answer to a state not here yet: waits for it
    _seen: LowCmd_ | None = None  # the spine's latest while not armed
    _spine_tick: int | None = None  # the LowState tick the spine's latest command answered
    _spine_armable: bool = False  # whether that command said the spine waits to be armed
    _limited_joints: set[str] = field(default_factory=set)
    _start_q: list[float] = field(default_factory=list)
    _last_q: list[float] | None = None
    _last_tick: int = 0

    def _event(self, text: str) -> None:
        self.events.append(text)
        self.log(f"g1 guard: {text}")

    def _tick_problem(self, latest: LowState_ | None, msg: LowState_) -> str:
        """Why the robot's clock cannot be trusted from ``latest`` to ``msg`` ("" if it can):
        it went back, or jumped past the watchdog's window (the robot's time is what the
        speed bound and the spine's deadline are counted in)."""
        if latest is None:
            return ""
        window = round(1000 * self.command_timeout)
        step = int(msg.tick) - int(latest.tick)
        if step < 0:
            return f"the robot's tick went back from {latest.tick} to {msg.tick} ms"
        if step > window:
            return (
                f"the robot's tick jumped {step} ms (from {latest.tick} to {msg.tick}), more "
                f"than the watchdog's {window} ms"
            )
        return ""

    def on_state(self, msg: LowState_) -> None:
        """A LowState from the robot: kept if its CRC and values are sound. Once armed, a
        state whose values are not finite, or whose tick went back or jumped past the
        watchdog's window, is damping."""
        try:
            crc.check(msg)
            problem = state_problem(msg)
            if problem is not None and len(msg.motor_state) != MOTOR_SLOTS:
                raise MalformedMessage(f"LowState_ tick {msg.tick}: {problem}")
        except MalformedMessage as error:
            with self._lock:
                self.refused += 1
            self._event(f"LowState ignored: {error}")
            return
        now = self.clock()
        early: LowCmd_ | None = None
        with self._lock:
            armed = self.mode is Mode.ARMED
            if problem is not None:
                self.refused += 1
                trip = f"LowState tick {msg.tick} is not sound ({problem})"
            else:
                latest = self._state
                trip = self._tick_problem(latest, msg)
                self._state, self._state_at = msg, now
                if latest is not None and msg.tick < latest.tick:
                    self._arrivals.clear()  # a clock that went back: what came before is void
                if latest is None or msg.tick != latest.tick:
                    self._arrivals.append((int(msg.tick), now))
                # A state the spine has not answered yet (a repeat of an answered one is not).
                # Due an answer: 20 ms of the robot's clock after the tick last answered (not
                # a repeat, nor sooner: a host slower than real time stretches those 20 ms).
                if self._waiting_since is None and msg.tick >= self._answered + DUE_MS:
                    self._waiting_since = now
                if self._early is not None and answered_tick(self._early) <= msg.tick:
                    early, self._early = self._early, None
        if early is not None and not trip:
            self.on_command(early)  # its state has come
        if trip and armed:
            self.estop(trip)
        elif problem is not None:
            self._event(f"LowState ignored: {trip}")

    def _refuse(self, problem: str) -> None:
        with self._lock:
            self.refused += 1
        self._event(f"command refused: {problem}")

    def on_command(self, msg: LowCmd_) -> None:
        """A command from the spine: checked now, forwarded by the next ``poll``. Besides its
        values, a command must answer a tick newer than the last forwarded one (a spine
        repeating itself is not answering the robot) and not far ahead of the robot's."""
        tick = answered_tick(msg)
        with self._lock:
            state, mode = self._state, self.mode
            previous, last_tick = self._last_q, self._last_tick
            answered = max(self._answered, self._pending_tick)
            self._spine_tick, self._spine_armable = tick, armable(msg)
            if mode is not Mode.ARMED:
                self._seen = msg  # arming takes it if it answers the robot's latest state
                return
        if state is None:
            self._refuse("no LowState from the robot yet")
            return
        problem = command_problem(msg, state)
        if problem is None and tick <= answered:
            problem = f"it answers robot tick {tick}, and tick {answered} is answered already"
        if problem is None and tick > state.tick:
            # The spine read a state before the guard did: its answer waits for that state
            # (checked then, against it). One that never comes leaves the watchdog to count.
            with self._lock:
                self._early = msg
            if tick - state.tick > round(1000 * self.command_timeout):
                self._event(
                    f"command waits: it answers robot tick {tick}, ahead of the robot's latest "
                    f"({state.tick}) by more than the watchdog's window"
                )
            return
        if problem is not None:
            self._refuse(problem)
            return
        # The robot's time since the last target forwarded: at most the watchdog's window
        # (a spine silent for longer is damping), so no clock can lift the speed bound.
        elapsed = min((state.tick - last_tick) / 1000.0, self.command_timeout)
        if previous is not None:
            speed, joint = target_speed(msg, previous, elapsed)
            ratio, strained = pd_torque_ratio(msg, state)
            with self._lock:
                if speed > self.peak_speed:
                    self.peak_speed, self.peak_speed_joint = speed, joint
                if ratio > self.peak_torque:
                    self.peak_torque, self.peak_torque_joint = ratio, strained
        msg, touched = limited(
            msg, state, previous, elapsed, self.max_target_speed, self.pd_torque_factor
        )
        with self._lock:
            if self.mode is not Mode.ARMED:
                return  # damped meanwhile
            self._pending, self._pending_tick = msg, tick
            first: list[str] = []
            if touched:
                self.limited += 1
                first = [name for name in touched if name not in self._limited_joints]
                self._limited_joints.update(touched)
        if first:
            self._event(f"targets limited (speed or torque), first time: {', '.join(first)}")

    def reporting(self) -> bool:
        """Whether the robot has reported within ``state_timeout``."""
        with self._lock:
            return self._state is not None and self.clock() - self._state_at <= self.state_timeout

    def spine_answering(self) -> bool:
        """Whether the spine is there: its latest command answers one of the robot's states
        of the last ``SPINE_PRESENT_MS``, up to the latest this guard has (an answer to a
        state not here yet waits for that state)."""
        with self._lock:
            state, answered = self._state, self._spine_tick
        return (
            state is not None
            and answered is not None
            and 0 <= state.tick - answered < SPINE_PRESENT_MS
        )

    def spine_not_ready(self) -> str | None:
        """Why the spine cannot be armed on now (None: it can): it must answer the robot's
        recent states and say that it waits to be armed, holding the posture it measures
        (``messages.ARMABLE``): a spine that has not started, or one still standing the robot
        up from an arming of old, is not armed on."""
        if not self.spine_answering():
            return (
                "the spine is silent (no command on rt/reacthuman/spine_lowcmd answers the "
                f"robot's last {SPINE_PRESENT_MS} ms)"
            )
        with self._lock:
            ready = self._spine_armable
        if not ready:
            return (
                "the spine does not say it waits to be armed holding the robot's posture (it "
                "has not seen the last arming end in damping, or it is not spine_node "
                "backend:=g1)"
            )
        return None

    def arm(self) -> str:
        """Arm (or re-arm after damping); returns what happened. Refused without a recent
        state from the robot, or without a spine that waits to be armed."""
        with self._lock:
            state = self._state
            fresh = state is not None and self.clock() - self._state_at <= self.state_timeout
        why = (
            "no recent LowState from the robot (is it on this network?)"
            if not fresh
            else self.spine_not_ready()
        )
        if why is not None:
            text = f"arming refused: {why}"
            self._event(text)
            return text
        assert state is not None  # fresh: a state has arrived
        with self._lock:
            now = self.clock()
            self.mode, self.reason = Mode.ARMED, ""
            self._start_q = [m.q for m in state.motor_state[: len(G1_MOTOR_ORDER)]]
            self._last_q = list(self._start_q)
            self._last_tick = state.tick
            # The spine's deadline counts from now: the state may be older than that (a
            # host that stalled the guard), and its answer may come with the next.
            self._pending, self._waiting_since, self._armed_at = None, now, now
            self._answered = self._pending_tick = -1
            self._early = None
            self._arrivals.clear()  # states due an answer are those from now on
            seen, self._seen = self._seen, None
            text = f"armed at robot tick {state.tick}"
        self._event(text)
        if seen is not None and answered_tick(seen) == state.tick:
            self.on_command(seen)  # the spine's answer to the state the robot is in
        return text

    def estop(self, reason: str = "e-stop") -> None:
        """Damping, latched until ``arm`` (also what the watchdog does)."""
        with self._lock:
            if self.mode is Mode.DAMPING:
                return
            self.mode, self.reason, self._pending = Mode.DAMPING, reason, None
        self._event(f"damping: {reason}")

    def _due_since(self, answered: int) -> float | None:
        """When the first LowState due an answer after ``answered`` arrived (not before
        arming), or None if none has."""
        while self._arrivals and self._arrivals[0][0] < answered:
            self._arrivals.popleft()
        for tick, at in self._arrivals:
            if tick >= answered + DUE_MS:
                return max(at, self._armed_at)
        return None

    def poll(self) -> LowCmd_ | None:
        """What to write on ``rt/lowcmd`` now: a checked command, damping, or nothing."""
        now = self.clock()
        with self._lock:
            mode, state = self.mode, self._state
            if mode is Mode.ARMED and state is not None:
                if now - self._state_at > self.state_timeout:
                    trip = f"no LowState for {1000 * (now - self._state_at):.0f} ms"
                elif (
                    self._pending is None
                    and self._waiting_since is not None
                    and now - self._waiting_since > self.command_timeout
                ):
                    trip = (
                        f"the spine has not answered for {1000 * (now - self._waiting_since):.0f}"
                        " ms"
                    )
                else:
                    trip = ""
                if trip:
                    self.mode, self.reason, self._pending = Mode.DAMPING, trip, None
                    mode = Mode.DAMPING
            else:
                trip = ""
            if mode is Mode.DAMPING:
                out = None if state is None else damping_command(state.mode_machine, state.tick)
            elif mode is Mode.ARMED and self._pending is not None:
                out, self._pending = self._pending, None
                tick = state.tick if state is not None else self._last_tick
                self._last_q = [m.q for m in out.motor_cmd[: len(G1_MOTOR_ORDER)]]
                self._last_tick = tick
                self._answered = answered_tick(out)
                self._waiting_since = self._due_since(self._answered)
                self.forwarded += 1
            else:
                out = None
        if trip:
            self._event(f"damping: {trip}")
        return out
