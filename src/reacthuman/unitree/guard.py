"""The guard: the one writer of ``rt/lowcmd``, between the spine and a G1.

The spine sends its commands to the guard (``SPINE_LOWCMD_TOPIC``), never to the robot. The
guard forwards a command only when it is armed and the command passes every check, and it
sends damping (every motor enabled with ``kp`` 0 and a damping ``kd``: the robot sinks slowly
instead of holding its last targets or dropping) when anything stops or goes wrong. It runs as
its own process so that a spine that crashes, hangs or is killed cannot leave the robot
holding its last command. The rules, in the order a robot owner meets them:

* **Disarmed until told.** A guard sends nothing before ``arm`` (a service, or ``--arm`` at
  start), and ``arm`` is refused until the robot has reported a valid LowState. Arming on
  ``--arm`` waits for the spine as well: until its latest command answers one of the
  robot's states of the last ``SPINE_PRESENT_MS`` (the robot's clock, so a lock-stepped
  robot, which waits for each answer, and a host that stalls the guard both arm on the
  state the spine is answering, never on an older one).
* **Refusals.** A command is refused (not forwarded, with a message naming the joint and
  the value) for a bad CRC, another ``mode_machine`` than the robot's, a motor left off, a
  non-finite value, a target outside the joint's range, ``kp`` or ``kd`` above their caps,
  or a feed-forward torque above the motor's peak: a spine that sends these is broken.
  Refused commands are not replaced: the watchdog below turns silence into damping.
* **No jumps.** Each target forwarded moves at most ``MAX_TARGET_SPEED`` from the one before
  (the first from the posture measured at arming) and asks at most ``PD_TORQUE_FACTOR``
  peak torques at the measured state; a target beyond is moved to that bound (and counted),
  so a jump becomes a ramp. The spine stands the robot up from its measured posture itself
  (the soft start, ``unitree.robot_spine``). The hand tracker's targets jump that way when a
  reach begins (105 rad/s and 14 peak torques on a shoulder on the 17 default scenes, where
  the motor saturates at its peak anyway, in simulation as on the robot).
* **Watchdog.** Once armed, damping is sent and latched when the spine has not answered a
  LowState due an answer (20 ms of the robot's clock after the last one answered) within
  ``command_timeout`` (wall clock; counted from arming for the state armed on), when no
  LowState has come for ``state_timeout``, or on ``estop``. Only ``arm`` leaves damping.

Guaranteed latency: damping is on ``rt/lowcmd`` within ``command_timeout`` plus two loop
periods of the first LowState the spine leaves unanswered (0.1 s + 4 ms at the defaults; the
test kills the spine mid-walk and measures it at the simulated robot). The watchdog runs on
the host's monotonic clock, the speed limit on the robot's ``tick``.
"""

from __future__ import annotations

import enum
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from reacthuman.spine.command import CONTROL_PERIOD
from reacthuman.unitree import crc
from reacthuman.unitree.messages import (
    LowCmd_,
    LowState_,
    MalformedMessage,
    MotorCmd_,
    answered_tick,
)
from reacthuman.unitree.motors import (
    G1_EFFORT_LIMITS,
    G1_JOINT_LIMITS,
    G1_MOTOR_ORDER,
    KP_CAP,
    MOTOR_ENABLE,
    MOTOR_SLOTS,
)

FLOAT32_SLACK = 1e-5  # rad: a range's end, clipped in float64, can round past it in float32
KD_CAP = 20.0  # N m s/rad; the policies use 0.9-6.3
# rad/s a target may move: faster than the fastest G1 motor turns (37 rad/s unloaded) is a
# jump. Measured through the bridge: 15 rad/s walking, 3 standing up after the soft start.
MAX_TARGET_SPEED = 40.0
PD_TORQUE_FACTOR = 3.0  # kp |q* - q| + kd |dq* - dq| in peak torques, at most
# kd of damping per motor (N m s/rad): firm on the legs and waist, soft on arms and wrists.
DAMPING_KD = {
    name: 8.0
    if ("hip" in name or "knee" in name or "waist" in name)
    else 3.0
    if "ankle" in name
    else 2.0
    if ("shoulder" in name or "elbow" in name)
    else 1.0
    for name in G1_MOTOR_ORDER
}
COMMAND_TIMEOUT = 0.1  # s
STATE_TIMEOUT = 0.1  # s
LOOP_PERIOD = 0.002  # s: the loop's rate is the robot's, 500 Hz
# ms of the robot's clock after the tick last answered that a LowState is due an answer: the
# spine answers every control period (unitree.robot_spine), a millisecond of drift allowed.
DUE_MS = round(1000 * CONTROL_PERIOD) - 1
# ms of the robot's clock: the spine is there when its latest command answers a state this
# recent (five control periods; the wall-clock window it replaces was ``COMMAND_TIMEOUT``).
SPINE_PRESENT_MS = round(1000 * COMMAND_TIMEOUT)


class Mode(enum.Enum):
    DISARMED = "disarmed"  # nothing sent
    ARMED = "armed"  # the spine's commands forwarded
    DAMPING = "damping"  # damping sent, latched until armed again


def damping_command(mode_machine: int, answers: int) -> LowCmd_:
    """Damping on every G1 motor (``kp`` 0, ``DAMPING_KD``), sealed."""
    msg = LowCmd_(mode_machine=mode_machine)
    msg.motor_cmd = [
        MotorCmd_(mode=MOTOR_ENABLE, kd=DAMPING_KD[name]) for name in G1_MOTOR_ORDER
    ] + [MotorCmd_() for _ in range(MOTOR_SLOTS - len(G1_MOTOR_ORDER))]
    msg.reserve = [answers, 0, 0, 0]
    return crc.seal(msg)


def is_damping(msg: LowCmd_) -> bool:
    """Whether a LowCmd_ only damps (every enabled motor has ``kp`` 0 and no torque)."""
    enabled = [m for m in msg.motor_cmd if m.mode == MOTOR_ENABLE]
    return bool(enabled) and all(m.kp == 0.0 and m.tau == 0.0 for m in enabled)


def command_problem(msg: LowCmd_, state: LowState_) -> str | None:
    """Why ``msg`` must not reach a robot in ``state`` at all (None: it may)."""
    try:
        crc.check(msg)
    except MalformedMessage as error:
        return str(error)
    if msg.mode_machine != state.mode_machine:
        return f"mode_machine {msg.mode_machine} is not the robot's ({state.mode_machine})"
    for slot, name in enumerate(G1_MOTOR_ORDER):
        m = msg.motor_cmd[slot]
        if m.mode != MOTOR_ENABLE:
            return f"{name}: motor mode {m.mode}, a G1 command enables all 29 motors"
        values = (m.q, m.dq, m.tau, m.kp, m.kd)
        if not all(math.isfinite(v) for v in values):
            return f"{name}: non-finite value in (q, dq, tau, kp, kd) = {values}"
        low, high = G1_JOINT_LIMITS[name]
        if not low - FLOAT32_SLACK <= m.q <= high + FLOAT32_SLACK:
            return f"{name}: target {m.q:.3f} rad outside its range [{low}, {high}]"
        if not 0.0 <= m.kp <= KP_CAP or not 0.0 <= m.kd <= KD_CAP:
            return f"{name}: kp {m.kp}, kd {m.kd} outside [0, {KP_CAP}] and [0, {KD_CAP}]"
        peak = G1_EFFORT_LIMITS[name]
        if abs(m.tau) > peak:
            return f"{name}: feed-forward torque {m.tau:.1f} N m above the motor's {peak}"
    return None


def limited(
    msg: LowCmd_,
    state: LowState_,
    previous: list[float] | None,
    elapsed: float,
    max_speed: float,
    pd_torque_factor: float,
) -> tuple[LowCmd_, list[str]]:
    """``msg`` with each target moved no faster than ``max_speed`` from ``previous`` (rad/s
    over ``elapsed`` s of the robot's clock) and no further from the measured position than
    a PD torque of ``pd_torque_factor`` peaks asks, resealed; and the joints it limited. A
    jump becomes a ramp; a motor saturates at its peak anyway."""
    elapsed = max(elapsed, LOOP_PERIOD)
    out = LowCmd_(mode_pr=msg.mode_pr, mode_machine=msg.mode_machine)
    out.motor_cmd = [
        MotorCmd_(m.mode, m.q, m.dq, m.tau, m.kp, m.kd, m.reserve) for m in msg.motor_cmd
    ]
    out.reserve = list(msg.reserve)
    touched = []
    for slot, name in enumerate(G1_MOTOR_ORDER):
        m, measured = out.motor_cmd[slot], state.motor_state[slot]
        q = m.q
        if previous is not None:
            step = max_speed * elapsed
            q = min(max(q, previous[slot] - step), previous[slot] + step)
        if m.kp > 0.0:
            reach = max(pd_torque_factor * G1_EFFORT_LIMITS[name] - m.kd * abs(measured.dq), 0.0)
            reach /= m.kp
            q = min(max(q, measured.q - reach), measured.q + reach)
        low, high = G1_JOINT_LIMITS[name]
        q = min(max(q, low), high)
        if q != m.q:
            m.q = q
            touched.append(name)
    return (crc.seal(out) if touched else msg), touched


def target_speed(msg: LowCmd_, previous: list[float], elapsed: float) -> tuple[float, str]:
    """The fastest target of ``msg`` (rad/s) since ``previous``, ``elapsed`` s of the robot's
    clock before, and its joint. Two commands on one tick compare as if 2 ms apart."""
    elapsed = max(elapsed, LOOP_PERIOD)
    speeds = [
        (abs(msg.motor_cmd[slot].q - previous[slot]) / elapsed, name)
        for slot, name in enumerate(G1_MOTOR_ORDER)
    ]
    return max(speeds)


def pd_torque_ratio(msg: LowCmd_, state: LowState_) -> tuple[float, str]:
    """The largest PD torque the command asks at the measured state, over the motor's peak,
    and its joint."""
    ratios = []
    for slot, name in enumerate(G1_MOTOR_ORDER):
        m, measured = msg.motor_cmd[slot], state.motor_state[slot]
        pd = m.kp * abs(m.q - measured.q) + m.kd * abs(m.dq - measured.dq)
        ratios.append((pd / G1_EFFORT_LIMITS[name], name))
    return max(ratios)


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
    _waiting_since: float | None = None  # first LowState the spine has not answered
    _answered: int = -1  # the LowState tick the last command forwarded answered
    _pending: LowCmd_ | None = None
    _seen: LowCmd_ | None = None  # the spine's latest while disarmed
    _spine_tick: int | None = None  # the LowState tick the spine's latest command answered
    _limited_joints: set[str] = field(default_factory=set)
    _start_q: list[float] = field(default_factory=list)
    _last_q: list[float] | None = None
    _last_tick: int = 0

    def _event(self, text: str) -> None:
        self.events.append(text)
        self.log(f"g1 guard: {text}")

    def on_state(self, msg: LowState_) -> None:
        """A LowState from the robot: kept if its CRC and values are sound."""
        try:
            crc.check(msg)
            bad = [m.q for m in msg.motor_state[: len(G1_MOTOR_ORDER)] if not math.isfinite(m.q)]
            if bad or len(msg.motor_state) != MOTOR_SLOTS:
                raise MalformedMessage(f"LowState_ tick {msg.tick} has non-finite positions")
        except MalformedMessage as error:
            with self._lock:
                self.refused += 1
            self._event(f"LowState ignored: {error}")
            return
        now = self.clock()
        with self._lock:
            self._state, self._state_at = msg, now
            # A state the spine has not answered yet (a repeat of an answered one is not).
            # Due an answer: 20 ms of the robot's clock after the tick last answered (not a
            # repeat, nor sooner: a host slower than real time stretches those 20 ms).
            if self._waiting_since is None and msg.tick >= self._answered + DUE_MS:
                self._waiting_since = now

    def on_command(self, msg: LowCmd_) -> None:
        """A command from the spine: checked now, forwarded by the next ``poll``."""
        with self._lock:
            state, mode = self._state, self.mode
            previous, last_tick = self._last_q, self._last_tick
            self._spine_tick = answered_tick(msg)
        if mode is not Mode.ARMED:
            with self._lock:
                self._seen = msg  # arming takes it if it answers the robot's latest state
            return
        problem = "no LowState from the robot yet" if state is None else command_problem(msg, state)
        if problem is not None or state is None:
            with self._lock:
                self.refused += 1
            self._event(f"command refused: {problem}")
            return
        elapsed = (state.tick - last_tick) / 1000.0
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
            self._pending = msg
            if touched:
                self.limited += 1
                first = [name for name in touched if name not in self._limited_joints]
                self._limited_joints.update(touched)
        if touched and first:
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

    def arm(self) -> str:
        """Arm (or re-arm after damping); returns what happened, refused without a state."""
        with self._lock:
            state = self._state
            fresh = state is not None and self.clock() - self._state_at <= self.state_timeout
            if not fresh:
                text = "arming refused: no recent LowState from the robot (is it on this network?)"
            else:
                assert state is not None  # fresh: a state has arrived
                self.mode, self.reason = Mode.ARMED, ""
                self._start_q = [m.q for m in state.motor_state[: len(G1_MOTOR_ORDER)]]
                self._last_q = list(self._start_q)
                self._last_tick = state.tick
                # The spine's deadline counts from now: the state may be older than that
                # (a host that stalled the guard), and its answer may come with the next.
                self._pending, self._waiting_since = None, self.clock()
                self._answered = -1
                seen, self._seen = self._seen, None
                text = f"armed at robot tick {state.tick}"
        self._event(text)
        if fresh and state is not None and seen is not None and answered_tick(seen) == state.tick:
            self.on_command(seen)  # the spine's answer to the state the robot is in
        return text

    def estop(self, reason: str = "e-stop") -> None:
        """Damping, latched until ``arm`` (also what the watchdog does)."""
        with self._lock:
            if self.mode is Mode.DAMPING:
                return
            self.mode, self.reason, self._pending = Mode.DAMPING, reason, None
        self._event(f"damping: {reason}")

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
                due = state is not None and state.tick >= self._answered + DUE_MS
                self._waiting_since = now if due else None
                self.forwarded += 1
            else:
                out = None
        if trip:
            self._event(f"damping: {trip}")
        return out
