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
    ARMABLE,
    SPINE_WORD,
    LowCmd_,
    LowState_,
    MalformedMessage,
    MotorCmd_,
    answered_tick,
    armable,
)
from reacthuman.unitree.motors import (
    G1_EFFORT_LIMITS,
    G1_JOINT_LIMITS,
    G1_MOTOR_ORDER,
    KP_CAP,
    MODE_PR,
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
# A velocity target above the fastest G1 motor's speed is a jump too (``kd (dq* - dq)``).
MAX_VELOCITY_TARGET = MAX_TARGET_SPEED
ARRIVALS_KEPT = 4096  # LowState arrivals remembered for the watchdog: 8 s at 500 Hz
STATE_FLOATS = ("q", "dq", "ddq", "tau_est", "vol")
IMU_FLOATS = ("quaternion", "gyroscope", "accelerometer", "rpy")


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


def slot_name(slot: int) -> str:
    """A motor slot by its G1 joint, or by number for the six a 29-DoF G1 leaves unused."""
    return G1_MOTOR_ORDER[slot] if slot < len(G1_MOTOR_ORDER) else f"motor slot {slot}"


def state_problem(msg: LowState_) -> str | None:
    """What makes a LowState_ (its CRC sound) unusable: a non-finite value in any motor
    slot or in the IMU. None: it may be used."""
    if len(msg.motor_state) != MOTOR_SLOTS:
        return f"{len(msg.motor_state)} motor slots, not {MOTOR_SLOTS}"
    for slot, m in enumerate(msg.motor_state):
        for name in STATE_FLOATS:
            value = getattr(m, name)
            if not math.isfinite(value):
                return f"{slot_name(slot)}: {name} = {value}"
    for name in IMU_FLOATS:
        values = list(getattr(msg.imu_state, name))
        if not all(math.isfinite(v) for v in values):
            return f"IMU {name} = {values}"
    return None


def command_problem(msg: LowCmd_, state: LowState_) -> str | None:
    """Why ``msg`` must not reach a robot in ``state`` at all (None: it may). Every field of
    every motor slot is checked, the six a 29-DoF G1 does not use included."""
    try:
        crc.check(msg)
    except MalformedMessage as error:
        return str(error)
    if len(msg.motor_cmd) != MOTOR_SLOTS:
        return f"{len(msg.motor_cmd)} motor slots, not {MOTOR_SLOTS}"
    if msg.mode_machine != state.mode_machine:
        return f"mode_machine {msg.mode_machine} is not the robot's ({state.mode_machine})"
    if msg.mode_pr != MODE_PR:
        return f"mode_pr {msg.mode_pr}: the guard's limits are for pitch/roll ankles ({MODE_PR})"
    words = list(msg.reserve)
    if len(words) != 4 or words[SPINE_WORD] not in (0, ARMABLE) or any(words[2:]):
        return f"reserve words {words}: [answered tick, 0 or {ARMABLE}, 0, 0] expected"
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
        if abs(m.dq) > MAX_VELOCITY_TARGET:
            return f"{name}: velocity target {m.dq:.1f} rad/s above {MAX_VELOCITY_TARGET}"
        if m.reserve:
            return f"{name}: reserve word {m.reserve}, a G1 command leaves it 0"
    for slot in range(len(G1_MOTOR_ORDER), MOTOR_SLOTS):
        m = msg.motor_cmd[slot]
        unused = (m.mode, m.q, m.dq, m.tau, m.kp, m.kd, m.reserve)
        if any(v != 0 for v in unused):
            return (
                f"motor slot {slot}: (mode, q, dq, tau, kp, kd, reserve) = {unused}; a 29-DoF "
                "G1 uses slots 0-28, and the rest must be all zero"
            )
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
    over ``elapsed`` s of the robot's clock) and no further from the measured state than a
    torque of ``pd_torque_factor`` peaks asks (feed-forward, PD on position and on velocity
    together), resealed; and the joints it limited. A jump becomes a ramp; a motor saturates
    at its peak anyway. The state is sound (``state_problem``): an unsound one is damping."""
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
        budget = max(pd_torque_factor * G1_EFFORT_LIMITS[name] - abs(m.tau), 0.0)
        dq = m.dq
        if m.kd > 0.0 and dq != 0.0:  # a zero velocity target only damps: safe at any speed
            swing = budget / m.kd
            dq = min(max(dq, measured.dq - swing), measured.dq + swing)
        if m.kp > 0.0:
            reach = max(budget - m.kd * abs(dq - measured.dq), 0.0) / m.kp
            q = min(max(q, measured.q - reach), measured.q + reach)
        low, high = G1_JOINT_LIMITS[name]
        q = min(max(q, low), high)
        if q != m.q or dq != m.dq:
            m.q, m.dq = q, dq
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
