"""The G1's 29 motors as Unitree's low-level interface addresses them: slot order, joint
ranges, peak torques, and the mapping between the spine's joint commands and states and a
LowCmd's motor fields (refusing anything unsafe to send).

Sources (read, not copied): Unitree's ``unitree_ros2`` repository (the slot order in
``example/src/src/g1/lowlevel/g1_low_level_example.cpp``), the G1 joint motor order on
support.unitree.com (``G1_developer/joint_motor_sequence``) and MuJoCo Menagerie's
unitree_g1/g1.xml (ranges and ``actuatorfrcrange``; test_g1_hardware checks both tables).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from reacthuman.spine.command import JointCommand, JointState

MOTOR_SLOTS = 35  # LowCmd.motor_cmd / LowState.motor_state length; a 29-DoF G1 uses 0-28

# Motor slot order of the G1 29-DoF on the HG protocol (slot i is the i-th name here).
G1_MOTOR_ORDER: tuple[str, ...] = (
    "left_hip_pitch_joint",  # 0
    "left_hip_roll_joint",
    "left_hip_yaw_joint",
    "left_knee_joint",
    "left_ankle_pitch_joint",
    "left_ankle_roll_joint",
    "right_hip_pitch_joint",  # 6
    "right_hip_roll_joint",
    "right_hip_yaw_joint",
    "right_knee_joint",
    "right_ankle_pitch_joint",
    "right_ankle_roll_joint",
    "waist_yaw_joint",  # 12
    "waist_roll_joint",  # not actuated on G1 units with a locked waist
    "waist_pitch_joint",
    "left_shoulder_pitch_joint",  # 15
    "left_shoulder_roll_joint",
    "left_shoulder_yaw_joint",
    "left_elbow_joint",
    "left_wrist_roll_joint",
    "left_wrist_pitch_joint",
    "left_wrist_yaw_joint",
    "right_shoulder_pitch_joint",  # 22
    "right_shoulder_roll_joint",
    "right_shoulder_yaw_joint",
    "right_elbow_joint",
    "right_wrist_roll_joint",
    "right_wrist_pitch_joint",
    "right_wrist_yaw_joint",  # 28
)
G1_SLOT: dict[str, int] = {name: slot for slot, name in enumerate(G1_MOTOR_ORDER)}

# Joint position limits (rad) of the G1 29-DoF, the ``range`` of each hinge in MuJoCo
# Menagerie's unitree_g1/g1.xml (they agree with Unitree's published joint table). A target
# outside them would drive a motor into its hard stop, so it never reaches the robot.
G1_JOINT_LIMITS: dict[str, tuple[float, float]] = {
    "left_hip_pitch_joint": (-2.5307, 2.8798),
    "left_hip_roll_joint": (-0.5236, 2.9671),
    "left_hip_yaw_joint": (-2.7576, 2.7576),
    "left_knee_joint": (-0.087267, 2.8798),
    "left_ankle_pitch_joint": (-0.87267, 0.5236),
    "left_ankle_roll_joint": (-0.2618, 0.2618),
    "right_hip_pitch_joint": (-2.5307, 2.8798),
    "right_hip_roll_joint": (-2.9671, 0.5236),
    "right_hip_yaw_joint": (-2.7576, 2.7576),
    "right_knee_joint": (-0.087267, 2.8798),
    "right_ankle_pitch_joint": (-0.87267, 0.5236),
    "right_ankle_roll_joint": (-0.2618, 0.2618),
    "waist_yaw_joint": (-2.618, 2.618),
    "waist_roll_joint": (-0.52, 0.52),
    "waist_pitch_joint": (-0.52, 0.52),
    "left_shoulder_pitch_joint": (-3.0892, 2.6704),
    "left_shoulder_roll_joint": (-1.5882, 2.2515),
    "left_shoulder_yaw_joint": (-2.618, 2.618),
    "left_elbow_joint": (-1.0472, 2.0944),
    "left_wrist_roll_joint": (-1.97222, 1.97222),
    "left_wrist_pitch_joint": (-1.61443, 1.61443),
    "left_wrist_yaw_joint": (-1.61443, 1.61443),
    "right_shoulder_pitch_joint": (-3.0892, 2.6704),
    "right_shoulder_roll_joint": (-2.2515, 1.5882),
    "right_shoulder_yaw_joint": (-2.618, 2.618),
    "right_elbow_joint": (-1.0472, 2.0944),
    "right_wrist_roll_joint": (-1.97222, 1.97222),
    "right_wrist_pitch_joint": (-1.61443, 1.61443),
    "right_wrist_yaw_joint": (-1.61443, 1.61443),
}

# Peak torque (N m) of each motor, the ``actuatorfrcrange`` of each hinge in the same g1.xml
# (Unitree's joint table: 88/139 N m hips and knees, 50 ankles, 25 shoulders, elbows and wrist
# roll, 5 wrist pitch and yaw). test_g1_hardware checks both tables against the file.
G1_EFFORT_LIMITS: dict[str, float] = {
    **dict.fromkeys(("left_hip_pitch_joint", "left_hip_yaw_joint"), 88.0),
    **dict.fromkeys(("right_hip_pitch_joint", "right_hip_yaw_joint", "waist_yaw_joint"), 88.0),
    **dict.fromkeys(("left_hip_roll_joint", "left_knee_joint"), 139.0),
    **dict.fromkeys(("right_hip_roll_joint", "right_knee_joint"), 139.0),
    **dict.fromkeys(
        (f"{s}_ankle_{a}_joint" for s in ("left", "right") for a in ("pitch", "roll")), 50.0
    ),
    **dict.fromkeys(("waist_roll_joint", "waist_pitch_joint"), 50.0),
    **dict.fromkeys(
        (
            f"{s}_{j}_joint"
            for s in ("left", "right")
            for j in ("shoulder_pitch", "shoulder_roll", "shoulder_yaw", "elbow", "wrist_roll")
        ),
        25.0,
    ),
    **dict.fromkeys(
        (f"{s}_wrist_{j}_joint" for s in ("left", "right") for j in ("pitch", "yaw")), 5.0
    ),
}

# Stiffness cap (N m/rad). Unitree's G1 examples and walking deployments use gains of about
# 40-150; a policy asking for more than this cap is broken, and a very stiff PD loop on a real
# motor can oscillate hard enough to damage the robot or hurt someone nearby.
KP_CAP = 500.0

MODE_PR = 0  # LowCmd.mode_pr: ankles (and waist) commanded as pitch/roll, as Menagerie names them
MOTOR_OFF = 0  # MotorCmd.mode: motor disabled (free)
MOTOR_ENABLE = 1  # MotorCmd.mode: motor enabled, PD + feed-forward torque


class MotorCmdFields(NamedTuple):
    """One ``MotorCmd`` slot: (mode, q, dq, tau, kp, kd); the reserve word is always 0."""

    mode: int
    q: float
    dq: float
    tau: float
    kp: float
    kd: float


MOTOR_OFF_FIELDS = MotorCmdFields(MOTOR_OFF, 0.0, 0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class LowCmdFields:
    """The content of an HG ``LowCmd`` without ROS: what is sent, and what the CRC covers.

    Both reserve arrays are zero, as Unitree's examples leave them.
    """

    mode_pr: int
    mode_machine: int
    motors: tuple[MotorCmdFields, ...]

    def __post_init__(self) -> None:
        if len(self.motors) != MOTOR_SLOTS:
            raise ValueError(f"a LowCmd has {MOTOR_SLOTS} motor slots, got {len(self.motors)}")
        for label, value in (("mode_pr", self.mode_pr), ("mode_machine", self.mode_machine)):
            if not 0 <= value <= 0xFF:
                raise ValueError(f"{label} {value} does not fit in a uint8")
        for slot, motor in enumerate(self.motors):
            if not 0 <= motor.mode <= 0xFF:
                raise ValueError(f"motor slot {slot}: mode {motor.mode} does not fit in a uint8")


def _check_finite(joint: str, label: str, value: float) -> None:
    if not math.isfinite(value):
        raise ValueError(f"joint {joint!r}: {label} is {value}, not a finite number")


def lowcmd_fields(command: JointCommand, mode_machine: int, mode_pr: int = MODE_PR) -> LowCmdFields:
    """Map a joint command into the G1's 35 motor slots, refusing anything unsafe to send.

    Named joints are enabled (mode 1) with ``q`` the target, ``dq`` and ``tau`` zero and the
    command's ``kp``/``kd``; the unused slots 29-34 are off with all zeros. ``mode_machine``
    is the robot's own (read from a LowState); sending a different one is rejected by the
    robot. The command's ``walking_cmd`` does not travel in a LowCmd: on hardware the walking
    policy has already turned it into leg targets.

    Raises ValueError, naming the joint, for an unknown or repeated joint name, a G1 joint the
    command leaves out (a real body cannot leave a motor unspecified), a command without PD
    gains (a kinematic command has no meaning to a motor), a non-finite value, a target
    outside the joint's limits, or a negative gain or a ``kp`` above ``KP_CAP``.
    """
    names = command.names
    if len(command.positions) != len(names):
        raise ValueError(f"{len(names)} joint names but {len(command.positions)} positions")
    seen: set[str] = set()
    for name in names:
        if name not in G1_SLOT:
            raise ValueError(f"unknown joint {name!r}: not one of the G1's 29 motors")
        if name in seen:
            raise ValueError(f"joint {name!r} appears twice in the command")
        seen.add(name)
    missing = [name for name in G1_MOTOR_ORDER if name not in seen]
    if missing:
        raise ValueError(
            f"missing G1 joint(s) {', '.join(missing)}: hardware needs a target for all 29"
        )
    if not command.kp or not command.kd:
        raise ValueError("missing kp/kd: a kinematic command (no PD gains) cannot go to hardware")
    if len(command.kp) != len(names) or len(command.kd) != len(names):
        raise ValueError(
            f"kp/kd must give one gain per joint: {len(names)} joints, "
            f"{len(command.kp)} kp, {len(command.kd)} kd"
        )

    motors = [MOTOR_OFF_FIELDS] * MOTOR_SLOTS
    for name, q, kp, kd in zip(names, command.positions, command.kp, command.kd, strict=True):
        q, kp, kd = float(q), float(kp), float(kd)
        _check_finite(name, "target", q)
        _check_finite(name, "kp", kp)
        _check_finite(name, "kd", kd)
        low, high = G1_JOINT_LIMITS[name]
        if not low <= q <= high:
            raise ValueError(
                f"joint {name!r}: target {q:.4f} rad is outside its limits [{low}, {high}]"
            )
        if not 0.0 <= kp <= KP_CAP:
            raise ValueError(f"joint {name!r}: kp {kp} is outside [0, {KP_CAP}] (safety cap)")
        if kd < 0.0:
            raise ValueError(f"joint {name!r}: kd {kd} is negative")
        motors[G1_SLOT[name]] = MotorCmdFields(MOTOR_ENABLE, q, 0.0, 0.0, kp, kd)
    return LowCmdFields(mode_pr=mode_pr, mode_machine=mode_machine, motors=tuple(motors))


def joint_state_from_lowstate(
    tick: int,
    t: float,
    motor_q: Sequence[float],
    motor_dq: Sequence[float],
    imu_quaternion: Sequence[float],
    imu_gyroscope: Sequence[float],
) -> JointState:
    """The spine's joint state from a LowState's contents: ``motor_state[i].q``/``.dq`` for the
    35 slots (29-34 ignored), ``imu_state.quaternion`` (w, x, y, z) and ``imu_state.gyroscope``
    (rad/s, body frame)."""
    for label, values, size in (
        ("motor_q", motor_q, MOTOR_SLOTS),
        ("motor_dq", motor_dq, MOTOR_SLOTS),
        ("imu_quaternion", imu_quaternion, 4),
        ("imu_gyroscope", imu_gyroscope, 3),
    ):
        if len(values) != size:
            raise ValueError(f"{label} has {len(values)} values, a LowState has {size}")
    joints = len(G1_MOTOR_ORDER)
    w, x, y, z = (float(v) for v in imu_quaternion)
    gx, gy, gz = (float(v) for v in imu_gyroscope)
    return JointState(
        tick=tick,
        t=t,
        names=G1_MOTOR_ORDER,
        positions=tuple(float(motor_q[i]) for i in range(joints)),
        velocities=tuple(float(motor_dq[i]) for i in range(joints)),
        imu_quat=(w, x, y, z),
        imu_gyro=(gx, gy, gz),
    )
