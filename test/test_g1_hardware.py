"""The G1's motors as Unitree addresses them (name-to-slot mapping, ranges and peak torques
against Menagerie's g1.xml, safety refusals) and the ROS 2 ``unitree_hg`` route. The CRC's
golden values are in test_unitree.py."""

from __future__ import annotations

import dataclasses
import random
import sys
import types
from dataclasses import dataclass, field
from xml.etree import ElementTree

import pytest

from reacthuman.spine.command import JointCommand
from reacthuman.spine.g1 import g1_folder
from reacthuman.unitree.motors import (
    G1_EFFORT_LIMITS,
    G1_JOINT_LIMITS,
    G1_MOTOR_ORDER,
    G1_SLOT,
    KP_CAP,
    MOTOR_SLOTS,
    MotorCmdFields,
    joint_state_from_lowstate,
    lowcmd_fields,
)
from reacthuman.unitree.ros2_route import (
    LOWCMD_TOPIC,
    LOWSTATE_TOPIC,
    G1HardwareBackend,
    HardwareNotReady,
    HardwareUnavailable,
    lowcmd_crc,
)

# --- fixtures ---------------------------------------------------------------------------


def full_command(order: tuple[str, ...] | None = None) -> JointCommand:
    """A valid 29-joint command with a distinct target and gains per joint, in any order."""
    names = order or G1_MOTOR_ORDER
    positions, kp, kd = [], [], []
    for i, name in enumerate(names):
        low, high = G1_JOINT_LIMITS[name]
        positions.append(low + (high - low) * (0.2 + 0.02 * i))
        kp.append(20.0 + i)
        kd.append(0.5 + 0.05 * i)
    return JointCommand(
        tick=3,
        t=0.06,
        names=tuple(names),
        positions=tuple(positions),
        walking_cmd=(0.0, 0.0, 0.0),
        kp=tuple(kp),
        kd=tuple(kd),
    )


def shuffled_order(seed: int = 7) -> tuple[str, ...]:
    names = list(G1_MOTOR_ORDER)
    random.Random(seed).shuffle(names)
    return tuple(names)


def replace(command: JointCommand, name: str, **changes: float) -> JointCommand:
    """``command`` with one joint's position / kp / kd changed."""
    i = command.names.index(name)
    seqs = {"positions": list(command.positions), "kp": list(command.kp), "kd": list(command.kd)}
    for key, value in changes.items():
        seqs[key][i] = value
    return JointCommand(
        tick=command.tick,
        t=command.t,
        names=command.names,
        positions=tuple(seqs["positions"]),
        walking_cmd=command.walking_cmd,
        kp=tuple(seqs["kp"]),
        kd=tuple(seqs["kd"]),
    )


# --- slot order -------------------------------------------------------------------------


def test_slot_order_is_unitree_g1_29dof():
    assert len(G1_MOTOR_ORDER) == 29 and len(set(G1_MOTOR_ORDER)) == 29
    assert set(G1_JOINT_LIMITS) == set(G1_MOTOR_ORDER)
    expected = {
        0: "left_hip_pitch_joint",
        3: "left_knee_joint",
        5: "left_ankle_roll_joint",
        6: "right_hip_pitch_joint",
        11: "right_ankle_roll_joint",
        12: "waist_yaw_joint",
        13: "waist_roll_joint",
        14: "waist_pitch_joint",
        15: "left_shoulder_pitch_joint",
        18: "left_elbow_joint",
        21: "left_wrist_yaw_joint",
        22: "right_shoulder_pitch_joint",
        28: "right_wrist_yaw_joint",
    }
    for slot, name in expected.items():
        assert G1_MOTOR_ORDER[slot] == name
    assert (LOWCMD_TOPIC, LOWSTATE_TOPIC, MOTOR_SLOTS) == ("/lowcmd", "/lowstate", 35)


def test_every_joint_lands_in_its_slot_and_round_trips_through_a_lowstate():
    command = full_command(shuffled_order())
    fields = lowcmd_fields(command, mode_machine=5)
    assert (fields.mode_pr, fields.mode_machine) == (0, 5)
    for name, q, kp, kd in zip(
        command.names, command.positions, command.kp, command.kd, strict=True
    ):
        assert fields.motors[G1_SLOT[name]] == MotorCmdFields(1, q, 0.0, 0.0, kp, kd)

    velocities = [0.01 * slot for slot in range(MOTOR_SLOTS)]
    state = joint_state_from_lowstate(
        tick=9,
        t=1.5,
        motor_q=[m.q for m in fields.motors],
        motor_dq=velocities,
        imu_quaternion=(1.0, 0.0, 0.0, 0.0),
        imu_gyroscope=(0.1, 0.2, 0.3),
    )
    assert state.names == G1_MOTOR_ORDER
    by_name = dict(zip(state.names, state.positions, strict=True))
    assert by_name == dict(zip(command.names, command.positions, strict=True))
    assert state.velocities == pytest.approx(velocities[:29])
    assert (state.tick, state.t) == (9, 1.5)
    assert state.imu_quat == (1.0, 0.0, 0.0, 0.0) and state.imu_gyro == (0.1, 0.2, 0.3)


def test_unused_slots_are_off_and_zero():
    fields = lowcmd_fields(full_command(), mode_machine=5)
    for slot in range(29, MOTOR_SLOTS):
        assert fields.motors[slot] == MotorCmdFields(0, 0.0, 0.0, 0.0, 0.0, 0.0)
    assert all(m.mode == 1 for m in fields.motors[:29])


def test_joint_state_from_lowstate_rejects_a_short_lowstate():
    with pytest.raises(ValueError, match="motor_q has 29 values"):
        joint_state_from_lowstate(0, 0.0, [0.0] * 29, [0.0] * 35, (1, 0, 0, 0), (0, 0, 0))


# --- refusals ---------------------------------------------------------------------------


def test_unknown_joint_is_named():
    command = full_command()
    bad = dataclasses.replace(command, names=(*command.names[:-1], "tail_joint"))
    with pytest.raises(ValueError, match="unknown joint 'tail_joint'"):
        lowcmd_fields(bad, mode_machine=5)


def test_missing_joint_is_named():
    command = full_command()
    short = dataclasses.replace(
        command,
        names=command.names[1:],
        positions=command.positions[1:],
        kp=command.kp[1:],
        kd=command.kd[1:],
    )
    with pytest.raises(ValueError, match="missing G1 joint.*left_hip_pitch_joint"):
        lowcmd_fields(short, mode_machine=5)


def test_missing_gains_are_refused():
    command = full_command()
    kinematic = dataclasses.replace(command, kp=(), kd=())
    with pytest.raises(ValueError, match="missing kp/kd.*kinematic"):
        lowcmd_fields(kinematic, mode_machine=5)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"positions": float("nan")}, "'left_knee_joint': target is nan"),
        ({"kp": float("inf")}, "'left_knee_joint': kp is inf"),
        ({"kd": float("nan")}, "'left_knee_joint': kd is nan"),
        ({"positions": -0.5}, r"'left_knee_joint': target -0.5000 rad is outside its limits"),
        ({"positions": 3.0}, r"'left_knee_joint': target 3.0000 rad is outside its limits"),
        ({"kp": KP_CAP + 1.0}, r"'left_knee_joint': kp 501.0 is outside \[0, 500.0\]"),
        ({"kp": -1.0}, r"'left_knee_joint': kp -1.0 is outside"),
        ({"kd": -0.1}, r"'left_knee_joint': kd -0.1 is negative"),
    ],
)
def test_unsafe_values_are_refused_naming_the_joint(change, message):
    with pytest.raises(ValueError, match=message):
        lowcmd_fields(replace(full_command(), "left_knee_joint", **change), mode_machine=5)


def test_limits_are_inclusive():
    low, high = G1_JOINT_LIMITS["left_knee_joint"]
    for target in (low, high):
        fields = lowcmd_fields(
            replace(full_command(), "left_knee_joint", positions=target), mode_machine=5
        )
        assert fields.motors[G1_SLOT["left_knee_joint"]].q == target


# --- the ROS backend --------------------------------------------------------------------


def test_backend_refuses_to_start_without_unitree_hg(monkeypatch):
    monkeypatch.setitem(sys.modules, "unitree_hg", None)  # import fails even if installed
    monkeypatch.setitem(sys.modules, "unitree_hg.msg", None)
    with pytest.raises(HardwareUnavailable) as error:
        G1HardwareBackend(node=None)
    text = str(error.value)
    assert "unitree_hg" in text
    assert "unitree_ros2" in text
    assert "colcon" in text and "install/setup.bash" in text
    assert "simulation backend is the default" in text


# Boundary fakes for Unitree's generated messages, which cannot be installed here.
@dataclass
class FakeMotorCmd:
    mode: int = 0
    q: float = 0.0
    dq: float = 0.0
    tau: float = 0.0
    kp: float = 0.0
    kd: float = 0.0
    reserve: int = 0


@dataclass
class FakeLowCmd:
    mode_pr: int = 0
    mode_machine: int = 0
    motor_cmd: list[FakeMotorCmd] = field(
        default_factory=lambda: [FakeMotorCmd() for _ in range(35)]
    )
    reserve: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    crc: int = 0


@dataclass
class FakeMotorState:
    q: float = 0.0
    dq: float = 0.0


@dataclass
class FakeImuState:
    quaternion: tuple[float, ...] = (1.0, 0.0, 0.0, 0.0)
    gyroscope: tuple[float, ...] = (0.0, 0.0, 0.0)


@dataclass
class FakeLowState:
    mode_machine: int = 0
    imu_state: FakeImuState = field(default_factory=FakeImuState)
    motor_state: list[FakeMotorState] = field(
        default_factory=lambda: [FakeMotorState() for _ in range(35)]
    )


class FakeNode:
    def __init__(self) -> None:
        self.published: list[FakeLowCmd] = []
        self.publishers: list[tuple] = []
        self.subscriptions: list[tuple] = []

    def create_publisher(self, msg_type, topic, qos):
        self.publishers.append((msg_type, topic, qos))
        return types.SimpleNamespace(publish=self.published.append)

    def create_subscription(self, msg_type, topic, callback, qos):
        self.subscriptions.append((msg_type, topic, callback, qos))
        return object()

    def get_clock(self):
        return types.SimpleNamespace(now=lambda: types.SimpleNamespace(nanoseconds=2_500_000_000))


@pytest.fixture()
def fake_unitree_hg(monkeypatch):
    pytest.importorskip("rclpy")
    package = types.ModuleType("unitree_hg")
    msg = types.ModuleType("unitree_hg.msg")
    msg.LowCmd = FakeLowCmd
    msg.LowState = FakeLowState
    package.msg = msg
    monkeypatch.setitem(sys.modules, "unitree_hg", package)
    monkeypatch.setitem(sys.modules, "unitree_hg.msg", msg)


def test_backend_waits_for_a_lowstate_then_sends_a_sealed_lowcmd(fake_unitree_hg):
    node = FakeNode()
    backend = G1HardwareBackend(node)
    assert [(t, topic) for t, topic, _ in node.publishers] == [(FakeLowCmd, "/lowcmd")]
    [(state_type, topic, callback, _)] = node.subscriptions
    assert (state_type, topic) == (FakeLowState, "/lowstate")

    command = full_command(shuffled_order(11))
    assert backend.latest_state() is None
    with pytest.raises(HardwareNotReady, match="no LowState received"):
        backend.send(command)
    assert node.published == []

    report = FakeLowState(mode_machine=6, imu_state=FakeImuState(gyroscope=(0.0, 0.0, 0.4)))
    for slot in range(35):
        report.motor_state[slot] = FakeMotorState(q=0.01 * slot, dq=-0.02 * slot)
    callback(report)
    state = backend.latest_state()
    assert state is not None and backend.mode_machine == 6
    assert state.names == G1_MOTOR_ORDER and state.t == 2.5
    assert state.positions[G1_SLOT["left_elbow_joint"]] == pytest.approx(0.18)
    assert state.velocities[28] == pytest.approx(-0.56)
    assert state.imu_gyro == (0.0, 0.0, 0.4)

    backend.send(command)
    [sent] = node.published
    assert (sent.mode_pr, sent.mode_machine) == (0, 6)
    for name, q, kp, kd in zip(
        command.names, command.positions, command.kp, command.kd, strict=True
    ):
        slot = sent.motor_cmd[G1_SLOT[name]]
        assert (slot.mode, slot.q, slot.dq, slot.tau, slot.kp, slot.kd) == (1, q, 0, 0, kp, kd)
    assert all(m == FakeMotorCmd() for m in sent.motor_cmd[29:])
    assert sent.crc == lowcmd_crc(lowcmd_fields(command, 6)) != 0


def test_backend_sends_nothing_unsafe(fake_unitree_hg):
    node = FakeNode()
    backend = G1HardwareBackend(node)
    node.subscriptions[0][2](FakeLowState(mode_machine=6))
    with pytest.raises(ValueError, match="left_knee_joint"):
        backend.send(replace(full_command(), "left_knee_joint", positions=float("nan")))
    assert node.published == []


def test_the_hardware_slot_order_is_the_simulated_g1s_joint_order():
    from reacthuman.spine.g1 import G1_JOINTS

    assert G1_MOTOR_ORDER == G1_JOINTS


def test_ranges_and_peak_torques_are_menageries():
    root = ElementTree.parse(g1_folder() / "g1.xml").getroot()
    hinges = {j.get("name"): j for j in root.iter("joint") if j.get("name") in G1_SLOT}
    assert set(hinges) == set(G1_MOTOR_ORDER)
    for name, joint in hinges.items():
        low, high = (float(v) for v in joint.get("range").split())
        assert G1_JOINT_LIMITS[name] == (low, high), name
        force = [abs(float(v)) for v in joint.get("actuatorfrcrange").split()]
        assert G1_EFFORT_LIMITS[name] == force[0] == force[1], name
