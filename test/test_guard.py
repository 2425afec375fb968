"""The guard's refusal table (docs/physical-g1.md, "What the guard refuses"), row by row: each
hostile input a spine or a robot can send, what the guard does with it, in the guard's rules
alone and over real DDS through the guard node. And the arming handshake with the spine."""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from g1_messages import Clock, command, fresh_channel, standing_state

from reacthuman.spine.controller import make_controller
from reacthuman.spine.g1 import DEFAULT_POSE
from reacthuman.unitree import crc
from reacthuman.unitree.guard import COMMAND_TIMEOUT, Guard, Mode
from reacthuman.unitree.guard_rules import LOOP_PERIOD, damping_command, is_damping
from reacthuman.unitree.messages import (
    ARMABLE,
    LOWCMD_TOPIC,
    LOWSTATE_TOPIC,
    SPINE_LOWCMD_TOPIC,
    SPINE_WORD,
    LowCmd_,
    LowState_,
    answered_tick,
)
from reacthuman.unitree.motors import G1_MOTOR_ORDER
from reacthuman.unitree.robot_spine import HardwareSpine

DOCS = Path(__file__).resolve().parents[1] / "docs" / "physical-g1.md"
KNEE = G1_MOTOR_ORDER.index("left_knee_joint")
WRIST = G1_MOTOR_ORDER.index("left_wrist_pitch_joint")


@dataclass(frozen=True)
class Row:
    """One row of the table: a command the guard refuses (``command``: the spine's answer to
    the robot's tick, changed) or a state it answers with damping (``state``)."""

    name: str
    says: str  # what the guard's message names
    event: str = "command refused"
    command: Callable[[LowCmd_], object] | None = None
    state: Callable[[LowState_, int], object] | None = None


def motor(slot: int, **values: float) -> Callable[[LowCmd_], None]:
    def change(msg: LowCmd_) -> None:
        for key, value in values.items():
            setattr(msg.motor_cmd[slot], key, value)

    return change


def answering(tick: int) -> Callable[[LowCmd_], None]:
    def change(msg: LowCmd_) -> None:
        msg.reserve[0] = tick

    return change


def state_motor(slot: int, **values: float) -> Callable[[LowState_, int], None]:
    def change(msg: LowState_, _tick: int) -> None:
        for key, value in values.items():
            setattr(msg.motor_state[slot], key, value)

    return change


def state_tick(offset: int) -> Callable[[LowState_, int], None]:
    def change(msg: LowState_, tick: int) -> None:
        msg.tick = tick - 20 + offset  # from the tick before, 20 ms earlier

    return change


NAN, INF = float("nan"), float("inf")
COMMAND_ROWS = [
    Row("bad CRC", "CRC", command=lambda m: setattr(m, "crc", m.crc ^ 1)),
    Row("another mode_machine", "mode_machine 9", command=lambda m: setattr(m, "mode_machine", 9)),
    Row("another mode_pr", "mode_pr 1", command=lambda m: setattr(m, "mode_pr", 1)),
    Row("a motor left off", "right_hip_pitch_joint: motor mode 0", command=motor(6, mode=0)),
    Row("a non-finite value", "non-finite", command=motor(1, dq=NAN)),
    Row(
        "a target outside the joint's range", "target 3.500 rad outside", command=motor(KNEE, q=3.5)
    ),
    Row("kp over its cap", "kp 900", command=motor(0, kp=900.0)),
    Row("kd over its cap", "kd 25", command=motor(2, kd=25.0)),
    Row("feed-forward torque over the peak", "feed-forward torque", command=motor(WRIST, tau=9.0)),
    Row("a velocity target over 40 rad/s", "velocity target 1000.0", command=motor(4, dq=1e3)),
    Row("a motor's reserve word set", "reserve word 7", command=motor(8, reserve=7)),
    Row("an unused slot's kp", "motor slot 31", command=motor(31, kp=1e6)),
    Row("an unused slot's torque", "motor slot 34", command=motor(34, tau=1e6)),
    Row("an unused slot enabled", "motor slot 29", command=motor(29, mode=1)),
    Row("reserve words 1-3", "reserve words", command=lambda m: m.reserve.__setitem__(2, 5)),
    Row("an answer to a tick answered", "is answered already", command=answering(0)),
    Row(
        "an answer far ahead",
        "ahead of the robot's latest",
        command=answering(1_000_000),
        event="command waits",
    ),
]
STATE_ROWS = [
    Row("a non-finite position", "left_knee_joint: q = nan", state=state_motor(KNEE, q=NAN)),
    Row("a non-finite velocity", "dq = nan", state=state_motor(3, dq=NAN)),
    Row("a non-finite torque", "tau_est = inf", state=state_motor(5, tau_est=INF)),
    Row("a non-finite unused slot", "motor slot 30: ddq = nan", state=state_motor(30, ddq=NAN)),
    Row(
        "a non-finite IMU",
        "IMU gyroscope",
        state=lambda m, _t: m.imu_state.gyroscope.__setitem__(1, NAN),
    ),
    Row("the tick going back", "went back", state=state_tick(-20)),
    Row("the tick jumping past the window", "jumped 1000000 ms", state=state_tick(1_000_000)),
]
# Watchdog rows: no hostile message, a silence (tested below and in test_unitree.py).
WATCHDOG_ROWS = [
    "a silent spine",
    "a spine repeating old commands",
    "a silent robot",
    "the e-stop service",
    "the guard stopped",
]


def documented_rows() -> list[str]:
    """The first column of docs/physical-g1.md's table of what the guard refuses."""
    text = DOCS.read_text()
    table = text.split("### What the guard refuses", 1)[1].split("\n\n", 2)[1]
    rows = [line for line in table.splitlines() if line.startswith("|")][2:]
    return [re.sub(r"[`*]", "", row.split("|")[1]).strip() for row in rows]


def test_every_row_of_the_documented_table_has_a_test():
    tested = [r.name for r in COMMAND_ROWS + STATE_ROWS] + WATCHDOG_ROWS
    assert documented_rows() == tested


# --- the rules alone -----------------------------------------------------------------------


def armed_at_20() -> tuple[Guard, Clock]:
    """A guard armed on tick 0 (its spine's answer forwarded), the robot now at tick 20."""
    clock = Clock()
    guard = Guard(clock=clock, log=lambda _t: None)
    guard.on_state(standing_state(0))
    guard.on_command(command(0, ready=True))
    assert guard.arm().startswith("armed")
    assert not is_damping(guard.poll())
    guard.on_state(standing_state(20))
    return guard, clock


def hostile_command(row: Row, tick: int) -> LowCmd_:
    msg = command(tick)
    assert row.command is not None
    row.command(msg)
    if row.says != "CRC":
        crc.seal(msg)
    return msg


@pytest.mark.parametrize("row", COMMAND_ROWS, ids=lambda r: r.name)
def test_a_refused_command_is_named_never_forwarded_and_its_silence_is_damping(row):
    guard, clock = armed_at_20()
    guard.on_command(hostile_command(row, 20))
    assert guard.poll() is None and guard.refused == (row.event == "command refused")
    assert row.says in guard.events[-1] and row.event in guard.events[-1]
    clock.now += COMMAND_TIMEOUT / 2
    guard.on_state(standing_state(20))  # the robot keeps reporting: a repeat of its tick
    clock.now += COMMAND_TIMEOUT / 2 + LOOP_PERIOD
    assert is_damping(guard.poll()) and "the spine has not answered" in guard.reason


@pytest.mark.parametrize("row", STATE_ROWS, ids=lambda r: r.name)
def test_a_state_the_guard_cannot_trust_is_damping_at_once(row):
    guard, _clock = armed_at_20()
    guard.on_command(command(20))
    assert not is_damping(guard.poll())
    state = standing_state(40)
    assert row.state is not None
    row.state(state, 40)
    guard.on_state(crc.seal(state))
    out = guard.poll()
    assert out is not None and is_damping(out) and guard.mode is Mode.DAMPING
    assert row.says in guard.reason, guard.reason


@pytest.mark.parametrize("row", STATE_ROWS[:5], ids=lambda r: r.name)
def test_a_state_with_non_finite_values_is_never_armed_on(row):
    clock = Clock()
    guard = Guard(clock=clock, log=lambda _t: None)
    state = standing_state(0)
    assert row.state is not None
    row.state(state, 0)
    guard.on_state(crc.seal(state))
    guard.on_command(command(0, ready=True))
    assert guard.arm().startswith("arming refused: no recent LowState")
    assert "LowState ignored" in guard.events[0] and row.says in guard.events[0]


def test_a_spine_repeating_its_last_command_is_damped_as_a_silent_one():
    """A spine that keeps re-sending its last command is not answering the robot: 52 stale
    commands forwarded over 2.1 s kept the guard armed on old targets."""
    guard, clock = armed_at_20()
    guard.on_command(command(20))
    assert not is_damping(guard.poll())
    first_unanswered = None
    for tick in range(22, 400, 2):  # the robot reports every 2 ms; the spine repeats itself
        clock.now += 0.002
        guard.on_state(standing_state(tick))
        if tick == 40:
            first_unanswered = clock.now
        if tick % 20 == 0:
            guard.on_command(command(20))
        out = guard.poll()
        if out is not None:
            break
    assert out is not None and is_damping(out) and first_unanswered is not None
    assert clock.now - first_unanswered <= COMMAND_TIMEOUT + 2 * LOOP_PERIOD
    assert guard.forwarded == 2 and guard.refused >= 4


def test_an_answer_to_a_state_the_guard_has_not_read_yet_waits_for_it():
    """The spine may read a LowState before the guard does (in the benchmark's runs over
    Unitree's interface, the first tick of an execution, 1.3 s of the simulator's clock after
    the last): the answer is forwarded once its state is here, checked against it."""
    guard, _clock = armed_at_20()
    guard.on_command(command(100))
    assert guard.poll() is None and guard.refused == 0
    guard.on_state(standing_state(100))
    out = guard.poll()
    assert out is not None and answered_tick(out) == 100 and not is_damping(out)


def test_answers_to_old_ticks_do_not_reset_the_watchdog():
    """A command for a tick older than the one the robot waits on is forwarded (it is sound)
    but the deadline still counts from the first state due an answer."""
    guard, clock = armed_at_20()
    guard.on_command(command(20))
    guard.poll()
    guard.on_state(standing_state(40))  # due an answer from now
    start = clock.now
    for old in (21, 22, 23, 24, 25, 26):  # each newer than the last, none an answer to 40
        clock.now += 0.02
        guard.on_command(command(old))
        out = guard.poll()
        if clock.now - start > COMMAND_TIMEOUT:
            assert is_damping(out)
            break
        assert not is_damping(out)
    else:
        raise AssertionError("no damping")


# --- the arming handshake ------------------------------------------------------------------


def test_the_guard_arms_only_on_a_spine_that_waits_to_be_armed():
    """arm:=true armed at robot tick 0 before the spine had started: the spine's soft start
    ended 2 s late, after the gantry had let go, and the G1 fell."""
    clock = Clock()
    guard = Guard(clock=clock, log=lambda _t: None)
    guard.on_state(standing_state(0))
    assert "the spine is silent" in guard.arm()
    guard.on_command(command(0))  # a spine that does not say it waits (running, or another)
    assert "does not say it waits to be armed" in guard.arm()
    assert guard.mode is Mode.DISARMED
    guard.on_command(command(0, ready=True))
    assert guard.arm() == "armed at robot tick 0"


@pytest.fixture(scope="module")
def controller():
    return make_controller("g1")


def test_the_spines_soft_start_counts_from_the_tick_the_guard_armed_on(controller):
    """The spine hears of the arming from rt/lowcmd, late or not: its soft start ends
    ``soft_start`` s of the robot's clock after the tick armed on."""
    sent: list[LowCmd_] = []
    spine = HardwareSpine(
        controller, sent.append, log=lambda _t: None, soft_start=0.2, guard_armed=False
    )
    slumped = standing_state(0)
    for m in slumped.motor_state[:29]:
        m.q = 0.0

    def at(tick: int) -> LowState_:
        return crc.seal(LowState_(**{**slumped.__dict__, "tick": tick}))

    for tick in range(0, 100, 20):
        spine.on_state(at(tick))
    assert all(m.reserve[SPINE_WORD] == ARMABLE for m in sent)  # waiting, holding
    assert all(m.motor_cmd[0].q == 0.0 for m in sent)
    # The guard armed on tick 40 and forwarded the answer to it; the spine answers 100 and
    # 120 before it reads that on rt/lowcmd.
    forwarded = next(m for m in sent if answered_tick(m) == 40)
    for tick in (100, 120):
        spine.on_state(at(tick))
    spine.on_guard_output(forwarded)
    assert spine.guard_armed
    spine.on_state(at(140))
    assert sent[-1].reserve[SPINE_WORD] == 0
    alpha = (140 - 40) / 200
    for slot, name in enumerate(G1_MOTOR_ORDER):
        assert sent[-1].motor_cmd[slot].q == pytest.approx(alpha * DEFAULT_POSE[name], abs=1e-6)
    spine.on_state(at(220))
    assert not spine.standing
    spine.on_state(at(240))  # 200 ms after tick 40
    assert spine.standing
    # Damping on rt/lowcmd: it waits to be armed again, holding the posture it measures.
    spine.on_guard_output(damping_command(5, 240))
    assert not spine.guard_armed and not spine.standing
    spine.on_state(at(260))
    assert sent[-1].reserve[SPINE_WORD] == ARMABLE
    assert math.isclose(sent[-1].motor_cmd[0].q, 0.0, abs_tol=1e-6)


def test_a_frame_on_rt_lowcmd_with_a_bad_crc_is_not_taken_for_the_guards(controller):
    spine = HardwareSpine(
        controller, lambda _m: None, log=lambda _t: None, soft_start=0.2, guard_armed=False
    )
    spine.on_state(standing_state(0))
    forged = command(0)
    forged.crc ^= 1
    spine.on_guard_output(forged)
    assert not spine.guard_armed


# --- over DDS, through the guard node ------------------------------------------------------


class Wire:
    """The guard node on a DDS domain of its own on loopback, a robot reporting every 2 ms
    (``current``, its tick moving on when ``moving``) and a spine writing to it; what the
    guard writes on rt/lowcmd is kept with its arrival time."""

    def __init__(self) -> None:
        import rclpy

        from reacthuman.ros.guard_node import GuardNode

        self.channel = fresh_channel()
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        self.node = GuardNode({"dds_domain": self.channel.domain}, context=self.context)
        self.guard = self.node.guard
        self.robot = self.channel.writer(LOWSTATE_TOPIC, LowState_)
        self.spine = self.channel.writer(SPINE_LOWCMD_TOPIC, LowCmd_)
        self.out: list[tuple[float, LowCmd_]] = []
        self.lock = threading.Lock()
        self.reader = self.channel.reader(LOWCMD_TOPIC, LowCmd_, self._take)
        self.current: LowState_ | None = None
        self.moving = False
        self.written: dict[int, float] = {}  # tick -> when first written
        self.stop = threading.Event()
        self.base = 0
        self.reporter = threading.Thread(target=self._report, daemon=True)
        self.reporter.start()

    def _take(self, msg: LowCmd_) -> None:
        with self.lock:
            self.out.append((time.monotonic(), msg))

    def report(self, state: LowState_ | None, moving: bool = False) -> None:
        """What the robot reports from now on."""
        with self.lock:
            self.current, self.moving = state, moving

    def _report(self) -> None:
        while not self.stop.wait(0.002):
            with self.lock:
                state = self.current
                if state is None:
                    continue
                if self.moving:
                    state = self.current = standing_state(state.tick + 2)
                self.written.setdefault(int(state.tick), time.monotonic())
            self.robot.write(state)

    def since(self, start: float) -> list[tuple[float, LowCmd_]]:
        with self.lock:
            return [(t, m) for t, m in self.out if t >= start]

    def wait_damping(self, start: float, timeout: float = 30.0) -> float:
        """When damping first came on rt/lowcmd after ``start``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            damped = [t for t, m in self.since(start) if is_damping(m)]
            if damped:
                return damped[0]
            time.sleep(0.002)
        raise AssertionError(f"no damping within {timeout} s: {list(self.guard.events)[-3:]}")

    def arm(self) -> int:
        """Armed on a fresh tick, the spine's answer to it forwarded; that tick."""
        self.base += 10_000
        tick = self.base
        self.report(standing_state(tick))
        with self.lock:
            self.written.clear()
        deadline = time.monotonic() + 20  # DDS discovery, the first time
        while self.guard.mode is not Mode.ARMED:
            assert time.monotonic() < deadline, list(self.guard.events)[-3:]
            self.spine.write(command(tick, ready=True))
            time.sleep(0.01)
            if self.guard.reporting() and self.guard.spine_not_ready() is None:
                assert self.guard.arm() == f"armed at robot tick {tick}"
        start = time.monotonic() - 1.0
        while not any(
            answered_tick(m) == tick and not is_damping(m) for _t, m in self.since(start)
        ):
            assert time.monotonic() < deadline, "the answer armed on was not forwarded"
            time.sleep(0.002)
        return tick

    def close(self) -> None:
        import rclpy

        self.stop.set()
        self.reporter.join(timeout=1)
        self.node.destroy_node()
        rclpy.shutdown(context=self.context)


@pytest.fixture(scope="module")
def wire():
    wire = Wire()
    yield wire
    wire.close()


# How soon damping comes is the guard's promise, measured by benchmarks/bench_guard_damping.py
# (a busy host stretches it); these tests hold what comes: the refusal, damping, the reason.


@pytest.mark.parametrize("row", COMMAND_ROWS, ids=lambda r: r.name)
def test_over_dds_a_refused_command_never_reaches_the_robot(wire, row):
    tick = wire.arm()
    wire.report(standing_state(tick + 20))
    start = time.monotonic()
    hostile = hostile_command(row, tick + 20)
    wire.spine.write(hostile)
    wire.wait_damping(start)
    forwarded = [m for _t, m in wire.since(start) if not is_damping(m)]
    assert not forwarded, [answered_tick(m) for m in forwarded]
    assert any(row.says in e and row.event in e for e in wire.guard.events)


@pytest.mark.parametrize("row", STATE_ROWS, ids=lambda r: r.name)
def test_over_dds_a_state_the_guard_cannot_trust_is_damping_at_once(wire, row):
    tick = wire.arm()
    state = standing_state(tick + 20)
    assert row.state is not None
    row.state(state, tick + 20)
    start = time.monotonic()
    wire.report(crc.seal(state))
    wire.wait_damping(start)
    assert row.says in wire.guard.reason


@pytest.mark.parametrize("repeating", [False, True], ids=["silent", "repeating"])
def test_over_dds_a_spine_repeating_old_commands_is_damped_as_a_silent_one(wire, repeating):
    """Damping, counted from the first LowState left unanswered (not from the last command):
    how soon is benchmarks/bench_guard_damping.py's figure."""
    tick = wire.arm()
    damped = stale_spine_damping(wire, tick, repeating)
    due = min(t for k, t in wire.written.items() if k >= tick + 19)
    assert damped > due  # never before a state went unanswered
    found = re.fullmatch(r"the spine has not answered for (\d+) ms", wire.guard.reason)
    assert found, wire.guard.reason
    assert int(found[1]) >= 1000 * COMMAND_TIMEOUT  # the watchdog's own window, at least
    assert wire.guard.refused >= (4 if repeating else 0)


def stale_spine_damping(wire: Wire, tick: int, repeating: bool) -> float:
    """The robot's clock runs on from ``tick`` while the spine stays silent or repeats its
    answer to ``tick`` every 20 ms; when damping came."""
    start = time.monotonic()
    wire.report(standing_state(tick), moving=True)  # its clock runs on, 2 ms a state
    stale = command(tick)
    while repeating and wire.guard.mode is Mode.ARMED and time.monotonic() < start + 30:
        wire.spine.write(stale)
        time.sleep(0.02)
    return wire.wait_damping(start)


def test_over_dds_a_silent_robot_is_damping(wire):
    wire.arm()
    wire.report(None)  # the robot stops reporting
    wire.wait_damping(time.monotonic())
    assert "no LowState" in wire.guard.reason
