"""Unitree's DDS interface of the G1: the CRC against Unitree's own values, messages over real
DDS on loopback, the guard's rules and the spine's pacing on a robot's LowState stream."""

from __future__ import annotations

import contextlib
import threading
import time

import fastcrc
import numpy as np
import pytest
from g1_messages import Clock, command, fresh_channel, standing_state

from reacthuman.brain.plan import Keyframe, ReactionPlan
from reacthuman.spine.controller import make_controller
from reacthuman.spine.g1 import DEFAULT_POSE
from reacthuman.unitree import crc
from reacthuman.unitree.bridge import BRIDGE_MODE_MACHINE, CommandInbox, joint_command_of
from reacthuman.unitree.channel import Channel, domain_config
from reacthuman.unitree.guard import SPINE_PRESENT_MS, Guard, Mode
from reacthuman.unitree.guard_rules import (
    DAMPING_KD,
    MAX_TARGET_SPEED,
    damping_command,
    is_damping,
)
from reacthuman.unitree.messages import (
    LowCmd_,
    LowState_,
    MalformedMessage,
    answered_tick,
    joint_state_of,
)
from reacthuman.unitree.motors import G1_JOINT_LIMITS, G1_MOTOR_ORDER
from reacthuman.unitree.robot_spine import HardwareSpine

# --- the CRC -------------------------------------------------------------------------------
# Golden values computed with Unitree's own crc32_core (unitree_sdk2py/utils/lib/crc_amd64.so
# of unitree_sdk2_python, called through ctypes on the words of each struct, outside this
# repository) for the frames built below.


def test_the_crc_library_is_crc32_mpeg2_by_the_catalogue_check_value():
    assert fastcrc.crc32.mpeg_2(b"123456789") == 0x0376E6E7


def test_an_all_zero_lowcmd_has_unitrees_crc():
    msg = LowCmd_()
    assert len(crc.packed(msg)) == 1004
    assert crc.crc_of(msg) == 4262932383


def test_a_lowcmd_with_targets_has_unitrees_crc():
    msg = LowCmd_(mode_pr=1)
    for slot in range(29):
        msg.motor_cmd[slot].q = 0.1 * slot
    assert crc.crc_of(msg) == 1479217965


def test_a_lowcmd_with_every_field_set_has_unitrees_crc():
    msg = LowCmd_(mode_machine=5)
    for slot in range(29):
        m = msg.motor_cmd[slot]
        m.mode, m.q, m.dq, m.tau = 1, -0.5 + 0.037 * slot, 0.01 * slot, 0.25 * (slot % 3)
        m.kp, m.kd = (100.0, 2.0) if slot < 12 else (40.0, 1.0)
    msg.reserve = [1234, 0, 0, 0]
    assert crc.crc_of(msg) == 3035114324


def test_lowstates_have_unitrees_crc():
    assert len(crc.packed(LowState_())) == 2092
    assert crc.crc_of(LowState_()) == 2099910124
    msg = LowState_(version=[1, 2], mode_machine=5, tick=987654)
    imu = msg.imu_state
    imu.quaternion, imu.gyroscope = [0.99, 0.01, -0.02, 0.1], [0.1, -0.2, 0.3]
    imu.accelerometer, imu.rpy, imu.temperature = [0.0, 0.1, 9.81], [0.02, -0.04, 0.2], 35
    for slot, m in enumerate(msg.motor_state):
        m.mode, m.q, m.dq, m.ddq = int(slot < 29), 0.02 * slot - 0.3, -0.01 * slot, 0.5
        m.tau_est, m.temperature, m.vol = 1.5 - 0.1 * slot, [30 + slot, 31 + slot], 48.0
        m.sensor, m.reserve = [slot, 2 * slot], [0, 0, 0, slot]
    msg.wireless_remote, msg.reserve = list(range(40)), [0, 0, 0, 7]
    assert crc.crc_of(msg) == 719096679


def test_a_changed_field_breaks_the_seal():
    msg = crc.seal(LowCmd_())
    crc.check(msg)
    msg.motor_cmd[3].q = 0.5
    with pytest.raises(MalformedMessage, match="CRC"):
        crc.check(msg)


def test_a_message_that_does_not_fit_unitrees_layout_is_named():
    msg = LowCmd_()
    msg.motor_cmd = msg.motor_cmd[:20]
    with pytest.raises(MalformedMessage, match="LowCmd_ does not fit"):
        crc.crc_of(msg)


# --- DDS on loopback -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def channel() -> Channel:
    return fresh_channel()


def test_the_loopback_configuration_stays_on_lo():
    config = domain_config("lo")
    assert 'NetworkInterface name="lo"' in config
    assert "<AllowMulticast>false</AllowMulticast>" in config
    assert '<Peer address="127.0.0.1"/>' in config


def test_a_sealed_lowcmd_arrives_over_dds_intact(channel):
    got: list[LowCmd_] = []
    arrived = threading.Event()

    def take(msg: LowCmd_) -> None:
        got.append(msg)
        arrived.set()

    reader = channel.reader("rt/test_lowcmd", LowCmd_, take)
    writer = channel.writer("rt/test_lowcmd", LowCmd_)
    sent = damping_command(5, answers=1240)
    deadline = time.monotonic() + 10
    while not arrived.is_set() and time.monotonic() < deadline:
        writer.write(sent)  # discovery takes a moment; the first writes may find no reader
        arrived.wait(0.05)
    assert got, "nothing arrived over DDS on loopback"
    crc.check(got[0])
    assert got[0] == sent and answered_tick(got[0]) == 1240
    del reader


# --- what a robot takes -------------------------------------------------------------------


def test_the_robot_drops_a_command_with_a_bad_crc_or_another_machine_mode():
    inbox = CommandInbox(log=lambda _t: None)
    bad = command(0)
    bad.crc ^= 1
    inbox.put(bad)
    inbox.put(command(20, mode_machine=4))
    assert len(inbox.rejected) == 2
    assert "CRC" in inbox.rejected[0] and "mode_machine 4" in inbox.rejected[1]
    assert inbox.latest is None and inbox.answer(0, 0.01) is None
    good = command(20)
    inbox.put(good)
    assert inbox.answer(20, 0.01) is good


def test_a_lowcmd_becomes_the_bodys_joint_command_with_its_gains():
    msg = command(40)
    msg.motor_cmd[3].mode = 0  # a motor that is off has no gains
    joint, extra = joint_command_of(crc.seal(msg))
    assert joint.names == G1_MOTOR_ORDER and not extra
    assert joint.kp[0] == 40.0 and joint.kp[3] == 0.0 and joint.kd[3] == 0.0
    msg.motor_cmd[5].tau = 1.0
    assert joint_command_of(msg)[1]  # feed-forward torque: the bridge computes PD itself


def test_a_malformed_lowstate_is_named_never_used():
    msg = standing_state()
    msg.motor_state[4].q = float("nan")
    with pytest.raises(MalformedMessage, match="non-finite"):
        joint_state_of(msg, 0, 0.0)
    short = standing_state()
    short.motor_state = short.motor_state[:29]
    with pytest.raises(MalformedMessage, match="29 motor slots"):
        joint_state_of(short, 0, 0.0)


# --- the guard -----------------------------------------------------------------------------


@pytest.fixture()
def guard() -> tuple[Guard, Clock]:
    clock = Clock()
    return Guard(clock=clock, log=lambda _t: None), clock


def armed(guard: Guard, clock: Clock) -> Guard:
    """Armed on tick 0 by a spine that waits to be armed, its answer forwarded."""
    guard.on_state(standing_state(0))
    guard.on_command(command(0, ready=True))
    assert guard.arm().startswith("armed")
    assert not is_damping(guard.poll())
    return guard


def test_the_spine_is_there_when_it_answers_a_recent_state_the_guard_has(guard):
    """Presence on the robot's clock: a lock-stepped robot waits for each answer, so a
    wall-clock window would arm on a state long answered or refuse one being answered."""
    g, clock = guard
    assert not g.spine_answering()
    g.on_state(standing_state(1500))
    g.on_command(command(1480))  # the spine answering the robot's last control period
    assert g.spine_answering()
    clock.now += 5.0  # the wall clock does not matter, the robot's does
    assert g.spine_answering()
    g.on_state(standing_state(1500 + SPINE_PRESENT_MS))
    assert not g.spine_answering()  # an answer 100 ms of the robot's clock old
    g.on_command(command(1700))  # an answer to a state that has not reached the guard yet
    assert not g.spine_answering()


def test_arming_on_a_stale_state_counts_the_spines_deadline_from_arming(guard):
    """CI: a host that stalled the guard let it arm on a state 529 ms old, and the spine's
    100 ms were counted from that state's arrival: damping at once."""
    g, clock = guard
    g.on_state(standing_state(0))
    g.on_command(command(0, ready=True))  # the spine answers an earlier state
    g.on_state(standing_state(20))
    clock.now += 0.09  # the robot's last state reached the guard 90 ms ago
    assert g.arm().startswith("armed")
    clock.now += 0.05
    g.on_state(standing_state(20))  # the robot reports again: a repeat, the same tick
    assert g.poll() is None and g.mode is Mode.ARMED  # 50 ms since arming: still waiting
    g.on_command(command(20))
    out = g.poll()
    assert out is not None and not is_damping(out)


def test_a_disarmed_guard_sends_nothing_and_will_not_arm_without_the_robot(guard):
    g, clock = guard
    g.on_command(command(0))
    assert g.poll() is None
    assert g.arm().startswith("arming refused") and g.mode is Mode.DISARMED
    g.on_state(standing_state(0))
    clock.now += 1.0  # a state a second old is not the robot reporting
    assert g.arm().startswith("arming refused")


def test_arming_forwards_the_spines_answer_to_the_state_the_robot_is_in(guard):
    g, clock = guard
    g.on_state(standing_state(0))
    g.on_command(command(0, ready=True))  # answered while disarmed: not sent
    assert g.poll() is None
    g.arm()
    out = g.poll()
    assert out is not None and answered_tick(out) == 0 and not is_damping(out)
    crc.check(out)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda m: setattr(m, "crc", m.crc ^ 1), "CRC"),
        (lambda m: setattr(m, "mode_machine", 9), "mode_machine 9"),
        (lambda m: setattr(m.motor_cmd[3], "q", 3.5), "left_knee_joint: target 3.500 rad outside"),
        (lambda m: setattr(m.motor_cmd[0], "kp", 900.0), "left_hip_pitch_joint: kp 900"),
        (lambda m: setattr(m.motor_cmd[20], "tau", 9.0), "left_wrist_pitch_joint: feed-forward"),
        (lambda m: setattr(m.motor_cmd[1], "q", float("nan")), "non-finite"),
        (lambda m: setattr(m.motor_cmd[6], "mode", 0), "right_hip_pitch_joint: motor mode 0"),
        (lambda m: setattr(m.motor_cmd[2], "kd", 25.0), "left_hip_yaw_joint: kp 40.0, kd 25"),
    ],
)
def test_a_command_outside_the_limits_is_refused_by_name(guard, change, problem):
    g = armed(*guard)
    msg = command(0)
    change(msg)
    if "CRC" not in problem:
        crc.seal(msg)
    g.on_command(msg)
    assert g.poll() is None and g.refused == 1
    assert problem in g.events[-1]


def test_a_target_clipped_to_its_range_end_passes_in_float32(guard):
    g, _clock = guard
    name = "left_shoulder_yaw_joint"
    slot = G1_MOTOR_ORDER.index(name)
    state = standing_state(0)
    state.motor_state[slot].q = 2.61  # the arm turned almost to its stop
    g.on_state(crc.seal(state))
    g.on_command(command(0, ready=True))
    g.arm()
    g.poll()
    end = float(np.float32(G1_JOINT_LIMITS[name][1]))  # as DDS carries it: 2.61800003
    assert end > G1_JOINT_LIMITS[name][1]
    g.on_state(crc.seal(LowState_(**{**state.__dict__, "tick": 20})))
    g.on_command(command(20, {name: end}))
    assert g.refused == 0, g.events


def test_a_jump_becomes_a_ramp_limited_in_speed_and_torque(guard):
    g, clock = guard
    armed(g, clock)
    knee = DEFAULT_POSE["left_knee_joint"]
    g.on_state(standing_state(20))
    g.on_command(command(20, {"left_knee_joint": knee + 1.0}))  # 1 rad in one 20 ms tick
    out = g.poll()
    slot = G1_MOTOR_ORDER.index("left_knee_joint")
    assert out.motor_cmd[slot].q == pytest.approx(knee + MAX_TARGET_SPEED * 0.02)
    crc.check(out)
    assert g.limited == 1 and "left_knee_joint" in g.events[-1] and g.peak_speed == 50.0
    wrist = G1_MOTOR_ORDER.index("left_wrist_yaw_joint")  # 5 N m peak, kp 40 here
    g.on_state(standing_state(40))
    g.on_command(command(40, {"left_wrist_yaw_joint": 0.5}))
    out = g.poll()
    assert out.motor_cmd[wrist].q == pytest.approx(3 * 5.0 / 40.0)  # 3 peaks of torque
    assert not is_damping(out) and g.refused == 0


def test_a_silent_spine_brings_latched_damping_within_the_command_timeout(guard):
    g, clock = guard
    armed(g, clock)
    g.on_state(standing_state(20))
    clock.now += 0.05
    g.on_state(standing_state(20))  # a repeat of the same tick changes nothing
    assert g.poll() is None
    clock.now += g.command_timeout - 0.049
    out = g.poll()
    assert out is not None and is_damping(out) and g.mode is Mode.DAMPING
    assert "the spine has not answered" in g.reason
    assert [m.kd for m in out.motor_cmd[:29]] == [DAMPING_KD[n] for n in G1_MOTOR_ORDER]
    assert all(m.kp == 0.0 and m.mode == 1 for m in out.motor_cmd[:29])
    crc.check(out)
    g.on_command(command(20))  # the spine is back: damping holds until armed again
    assert is_damping(g.poll())
    g.on_state(standing_state(40))
    assert g.arm().startswith("arming refused: the spine does not say it waits")
    g.on_command(command(40, ready=True))  # it saw the damping: holds, and waits
    g.arm()
    assert g.mode is Mode.ARMED


def test_a_robot_that_stops_reporting_or_an_estop_brings_damping(guard):
    g, clock = guard
    armed(g, clock)
    clock.now += g.state_timeout + 0.01
    assert is_damping(g.poll()) and "no LowState" in g.reason
    g.on_state(standing_state(40))
    g.arm()
    g.estop()
    assert is_damping(g.poll()) and g.reason == "e-stop"


def test_a_lowstate_with_a_bad_crc_is_not_taken_for_the_robot(guard):
    g, _clock = guard
    bad = standing_state(0)
    bad.crc ^= 1
    g.on_state(bad)
    assert g.arm().startswith("arming refused") and "LowState ignored" in g.events[0]


# --- the spine on a robot's stream ---------------------------------------------------------


@pytest.fixture(scope="module")
def controller():
    return make_controller("g1")


def test_the_spine_answers_every_control_period_of_the_robots_clock(controller):
    sent: list[LowCmd_] = []
    spine = HardwareSpine(controller, sent.append, log=lambda _t: None, soft_start=0.0)
    for tick in range(0, 100, 2):  # a G1 reports every 2 ms
        spine.on_state(standing_state(tick))
    spine.on_state(standing_state(98))  # a repeat
    assert [answered_tick(m) for m in sent] == [0, 20, 40, 60, 80]
    for msg in sent:
        crc.check(msg)
        assert msg.mode_machine == BRIDGE_MODE_MACHINE and all(
            m.mode == 1 for m in msg.motor_cmd[:29]
        )


def test_the_soft_start_brings_the_measured_posture_to_the_standing_pose(controller):
    sent: list[LowCmd_] = []
    spine = HardwareSpine(controller, sent.append, log=lambda _t: None, soft_start=0.1)
    slumped = standing_state(0)
    for m in slumped.motor_state[:29]:
        m.q = 0.0
    crc.seal(slumped)
    spine.on_state(slumped)
    first = [m.q for m in sent[0].motor_cmd[:29]]
    assert first == pytest.approx([0.0] * 29)  # starts where the robot is
    spine.execute(None)  # a plan waits for the soft start
    for tick in (20, 40, 60, 80, 100):
        spine.on_state(crc.seal(LowState_(**{**slumped.__dict__, "tick": tick})))
    last = [m.q for m in sent[-1].motor_cmd[:29]]
    assert last == pytest.approx([DEFAULT_POSE[n] for n in G1_MOTOR_ORDER], abs=1e-6)
    assert spine.standing and spine._next is not None


def test_the_soft_start_waits_for_the_guard_to_arm_and_starts_again_after_damping(controller):
    """... and a brain's plan is taken only once the robot stands under the controller."""
    sent: list[LowCmd_] = []
    spine = HardwareSpine(
        controller, sent.append, log=lambda _t: None, soft_start=0.1, guard_armed=False
    )
    limp = standing_state(0)
    for m in limp.motor_state[:29]:
        m.q = 0.05
    for tick in range(0, 200, 20):  # disarmed: it asks for the posture the robot is in
        spine.on_state(crc.seal(LowState_(**{**limp.__dict__, "tick": tick})))
    assert all(m.q == pytest.approx(0.05) for msg in sent for m in msg.motor_cmd[:29])
    assert spine.not_ready() == "the guard is not armed"
    spine.set_guard_armed(True)
    assert spine.not_ready() == "the soft start has not finished"
    for tick in range(200, 320, 20):
        spine.on_state(crc.seal(LowState_(**{**limp.__dict__, "tick": tick})))
    assert spine.standing and spine.not_ready() is None
    spine.set_guard_armed(False)  # damping: the next arming stands it up again
    assert not spine.standing and spine.not_ready() == "the guard is not armed"


def test_a_plan_starts_at_the_next_state_and_targets_stay_in_range(controller):
    sent: list[LowCmd_] = []
    spine = HardwareSpine(controller, sent.append, log=lambda _t: None, soft_start=0.0)
    spine.on_state(standing_state(0))
    plan = ReactionPlan(
        object_identified="test",
        intent="walk forward",
        confidence=1.0,
        walking_cmd=(0.5, 0.0, 0.0),
        walking_duration=1.0,
        keyframes=[Keyframe(t=0.5, left_hand=(0.3, 0.2, 1.0), right_hand=(0.3, -0.2, 1.0))],
    )
    spine.execute(plan)
    spine.on_state(standing_state(20))
    assert spine.started_at == 20 and spine.walking == (0.5, 0.0, 0.0)
    for msg in sent:
        for slot, name in enumerate(G1_MOTOR_ORDER):
            low, high = G1_JOINT_LIMITS[name]
            assert low <= msg.motor_cmd[slot].q <= high


def test_the_spine_skips_a_lowstate_it_cannot_trust(controller):
    notes: list[str] = []
    spine = HardwareSpine(controller, lambda _m: None, log=notes.append, soft_start=0.0)
    bad = standing_state(0)
    bad.crc ^= 1
    assert spine.on_state(bad) is None and spine.skipped == 1 and "CRC" in notes[0]


# --- the guard's node: its services and its mode, over ROS 2 -------------------------------


def test_the_guard_node_refuses_to_arm_alone_and_its_estop_latches_damping(channel):
    import rclpy
    from rclpy.executors import SingleThreadedExecutor
    from std_msgs.msg import String
    from std_srvs.srv import Trigger

    from reacthuman.ros import contract
    from reacthuman.ros.guard_node import GuardNode

    context = rclpy.Context()
    rclpy.init(context=context)
    try:
        guard = GuardNode({"dds_domain": channel.domain}, context=context)
        client_node = rclpy.create_node("guard_client", context=context)
        modes: list[str] = []
        client_node.create_subscription(
            String, contract.GUARD_MODE, lambda m: modes.append(m.data), contract.LATCHED
        )
        executor = SingleThreadedExecutor(context=context)
        executor.add_node(guard)
        executor.add_node(client_node)

        def call(name: str):
            client = client_node.create_client(Trigger, f"/g1_guard/{name}")
            assert client.wait_for_service(timeout_sec=10)
            future = client.call_async(Trigger.Request())
            executor.spin_until_future_complete(future, timeout_sec=10)
            return future.result()

        def spin_until(mode: str) -> None:
            deadline = time.monotonic() + 10
            while mode not in modes and time.monotonic() < deadline:
                executor.spin_once(timeout_sec=0.05)

        spin_until("disarmed")  # latched: what a late subscriber is told first
        armed = call("arm")  # no robot and no spine on this domain
        assert not armed.success and "refused" in armed.message
        assert call("estop").success
        spin_until("damping")
        assert modes == ["disarmed", "damping"]
        assert guard.guard.mode is Mode.DAMPING and guard.guard.reason == "e-stop service"
        guard.destroy_node()
        client_node.destroy_node()
    finally:
        rclpy.shutdown(context=context)


def test_the_simulators_link_ends_an_execution_the_guard_answers_with_damping():
    """A benchmark execution answered by damping measures the guard, not the plan: the link
    takes the spine's command and refuses damping by name."""
    from reacthuman.spine.command import JointState
    from reacthuman.spine.g1 import G1_JOINTS
    from reacthuman.unitree.link import GuardDamped, SimulatorLink, SpineSilent
    from reacthuman.unitree.messages import LOWCMD_TOPIC, LOWSTATE_TOPIC

    channel = fresh_channel()  # its own: closed with its listeners below
    writer = channel.writer(LOWCMD_TOPIC, LowCmd_)
    answers = {1020: command(1020), 1040: damping_command(BRIDGE_MODE_MACHINE, 1040)}

    def answer(msg: LowState_) -> None:
        if msg.tick in answers:
            writer.write(answers[msg.tick])

    channel.reader(LOWSTATE_TOPIC, LowState_, answer)
    link = SimulatorLink(channel, log=lambda _text: None)
    state = JointState(
        51, 1.02, G1_JOINTS, tuple(DEFAULT_POSE[n] for n in G1_JOINTS), (0.0,) * len(G1_JOINTS)
    )
    try:
        deadline = time.monotonic() + 10  # discovery: the first LowStates may find no reader
        taken = None
        while taken is None and time.monotonic() < deadline:
            with contextlib.suppress(SpineSilent):  # while the two ends discover each other
                taken = link.command(state, 1020, timeout=0.2)
        assert taken is not None and taken.names and max(taken.kp) > 0
        with pytest.raises(GuardDamped, match="tick 1040 with damping"):
            link.command(state, 1040, timeout=5.0)
    finally:
        link.close()
        channel.close()
