"""The guard's rules on one message (``unitree.guard``'s module docstring, "Refusals" and
"No jumps"): what makes a LowState unusable and a LowCmd unfit for a robot, how a jump of the
targets is made a ramp, and what damping is. Pure functions of the messages: no clock, no
state between calls (the guard's state machine, the watchdog and arming, is ``unitree.guard``).
docs/physical-g1.md tables every refusal.
"""

from __future__ import annotations

import math

from reacthuman.unitree import crc
from reacthuman.unitree.messages import (
    ARMABLE,
    SPINE_WORD,
    LowCmd_,
    LowState_,
    MalformedMessage,
    MotorCmd_,
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
LOOP_PERIOD = 0.002  # s: the loop's rate is the robot's, 500 Hz
# A velocity target above the fastest G1 motor's speed is a jump too (``kd (dq* - dq)``).
MAX_VELOCITY_TARGET = MAX_TARGET_SPEED
STATE_FLOATS = ("q", "dq", "ddq", "tau_est", "vol")
IMU_FLOATS = ("quaternion", "gyroscope", "accelerometer", "rpy")


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
