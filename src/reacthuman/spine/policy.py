"""Pre-trained G1 walking policies: the spine's legs.

Two policies are supported, each with the observation built exactly as it was trained
(docs/spine.md):

* ``holosoma`` (default): holosoma-inference's 29-DoF G1 locomotion policy, ONNX run with
  onnxruntime. The files come out of the pinned wheel during set-up (``scripts/setup.sh``);
  gains and joint names are read from the ONNX metadata.
* ``unitree``: Unitree's ``motion.pt`` (unitree_rl_gym, 12 leg joints, an LSTM whose state is
  reset per episode) from a path the user gives.

A policy is stepped once per 50 Hz control tick with the body's state and a walking command
(vx, vy, yaw rate in the robot frame) and returns joint targets and PD gains for the joints
it drives. The spine holds the other joints itself.

holosoma's gait clock (two phases, one per foot) is also the spine's to set. As in holosoma's
own controller, a zero command holds both phases at pi (stance: the G1 stands still instead
of marking time on the spot), and a walk starts its clock on the foot that leads the way
(``HolosomaPolicy.start_gait``). Started from the fixed phase holosoma-inference uses, every
walk's first step went to the right: commanded left the G1 had moved 0.01 m after 0.5 s,
commanded right 0.11 m; started on the leading foot, 0.23 and 0.24 m (BENCHMARKS.md, "Gait
start"). A G1 that leans ``STEP_TILT`` from upright steps (its clock runs) until it has stood
upright a while (BENCHMARKS.md, "Standing still, stepping when pushed").
"""

from __future__ import annotations

import json
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from reacthuman.spine.command import JointState
from reacthuman.spine.g1 import DEFAULT_POSE, G1_JOINTS, LEG_JOINTS

HOLOSOMA_VARIANTS = ("fastsac", "ppo")
HOLOSOMA_DIR_ENV = "REACTHUMAN_HOLOSOMA_DIR"
UNITREE_POLICY_ENV = "REACTHUMAN_UNITREE_POLICY"


class PolicyMissing(RuntimeError):
    """A policy's files are not where they should be."""


@dataclass(frozen=True)
class PolicyAction:
    """Joint targets (rad) and PD gains for the joints a policy drives."""

    names: tuple[str, ...]
    targets: np.ndarray
    kp: np.ndarray
    kd: np.ndarray


class WalkingPolicy(Protocol):
    name: str
    joint_names: tuple[str, ...]
    kp: np.ndarray
    kd: np.ndarray
    # How the joints the policy does not drive stand while it walks: (target, kp, kd) by name.
    # Empty: the G1's default pose with the spine's gains.
    upper_body: dict[str, tuple[float, float, float]]

    def reset(self) -> None:
        """Forget everything (last action, gait phase, recurrent state): a new episode."""

    def act(self, state: JointState, command: tuple[float, float, float]) -> PolicyAction:
        """One control step."""


def _gravity_in_body(quat: tuple[float, float, float, float]) -> np.ndarray:
    """The unit gravity vector in the base frame, from the base quaternion (w, x, y, z)."""
    w, x, y, z = quat
    # R^T (0, 0, -1), R from the quaternion.
    return np.array(
        [-2.0 * (x * z - w * y), -2.0 * (y * z + w * x), -(1.0 - 2.0 * (x * x + y * y))],
        dtype=np.float32,
    )


def _by_name(state: JointState, names: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    index = {name: i for i, name in enumerate(state.names)}
    try:
        rows = [index[name] for name in names]
    except KeyError as exc:
        raise ValueError(f"joint state lacks joint {exc.args[0]!r}") from None
    positions = np.asarray(state.positions, dtype=np.float64)[rows]
    velocities = (
        np.asarray(state.velocities, dtype=np.float64)[rows]
        if state.velocities
        else np.zeros(len(rows))
    )
    return positions, velocities


def _imu(state: JointState) -> tuple[np.ndarray, np.ndarray]:
    if state.imu_quat is None or state.imu_gyro is None:
        raise ValueError("a walking policy needs the base IMU (orientation and angular velocity)")
    return _gravity_in_body(state.imu_quat), np.asarray(state.imu_gyro, dtype=np.float32)


def holosoma_dir() -> Path:
    """Where set-up put the holosoma ONNX files: $REACTHUMAN_HOLOSOMA_DIR, else the venv's
    ``share/reacthuman/holosoma``."""
    configured = os.environ.get(HOLOSOMA_DIR_ENV)
    return (
        Path(configured) if configured else Path(sys.prefix) / "share" / "reacthuman" / "holosoma"
    )


STAND_COMMAND = 0.01  # holosoma's stand mask: a command below this (m/s, rad/s) stands
# A G1 in stance does not step of itself: leaning this far from upright (the IMU's gravity:
# a caught object's impact, its weight at arm's length) it starts stepping, and it stands
# still again once it has stood upright a while. Measured on the whole set, not on plain
# shoves (those it takes the same either way, benchmarks/push_recovery.py).
STEP_TILT = 0.12  # rad
CALM_TILT = 0.05  # rad
CALM_TICKS = 25  # control ticks (0.5 s)


def stands(command: tuple[float, float, float]) -> bool:
    """Whether holosoma stands in stance under this command (its controller's stand mask)."""
    return math.hypot(*command) < STAND_COMMAND and abs(command[2]) < STAND_COMMAND


class HolosomaPolicy:
    """holosoma-inference's G1 29-DoF locomotion policy (ONNX)."""

    ACTION_SCALE = 0.25
    ACTION_CLIP = 100.0
    PHASE_STEP = 2.0 * math.pi / 50.0  # a 1 s gait period at 50 Hz

    def __init__(self, variant: str = "fastsac", folder: Path | None = None) -> None:
        if variant not in HOLOSOMA_VARIANTS:
            raise ValueError(f"unknown holosoma variant {variant!r} (known: {HOLOSOMA_VARIANTS})")
        path = (folder or holosoma_dir()) / f"{variant}_g1_29dof.onnx"
        if not path.is_file():
            raise PolicyMissing(
                f"{path} not found: run scripts/setup.sh (it takes the G1 policies out of the "
                f"holosoma-inference wheel), or set {HOLOSOMA_DIR_ENV} to a folder with it"
            )
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(
            str(path), options, providers=["CPUExecutionProvider"]
        )
        meta = self.session.get_modelmeta().custom_metadata_map
        self.name = f"holosoma-{variant}"
        self.joint_names = tuple(json.loads(meta["dof_names"]))
        self.kp = np.asarray(json.loads(meta["kp"]), dtype=np.float64)
        self.kd = np.asarray(json.loads(meta["kd"]), dtype=np.float64)
        self.default = np.asarray([DEFAULT_POSE[n] for n in self.joint_names], dtype=np.float64)
        self.path = path
        self.upper_body: dict[str, tuple[float, float, float]] = {}
        # While the spine drives the waist and arms itself (hand tracking), the policy sees
        # them at its default pose and at rest, so tracking does not take it out of the states
        # it was trained in (mask_upper, set by the controller).
        self.upper = np.asarray([n not in LEG_JOINTS for n in self.joint_names])
        self.mask_upper = False
        self.reset()

    def reset(self) -> None:
        """Forget the last action; the gait clock stands in stance until a walk starts it."""
        self.last_action = np.zeros(len(self.joint_names), dtype=np.float32)
        self.phase = np.array([math.pi, math.pi])
        self.stance = True
        self.recovering = False
        self._calm = 0

    def _balance(self, gravity: np.ndarray) -> None:
        """Whether the body leans far enough to step (``STEP_TILT``), from the IMU's gravity."""
        tilt = math.acos(min(max(-float(gravity[2]), -1.0), 1.0))
        if tilt > STEP_TILT:
            self.recovering, self._calm = True, 0
        elif self.recovering:
            self._calm = self._calm + 1 if tilt < CALM_TILT else 0
            self.recovering = self._calm < CALM_TICKS

    def start_gait(self, command: tuple[float, float, float]) -> None:
        """Run the clock from the phase whose first swing is the leading foot's: the left foot
        for a walk to the left, the right for one to the right, the gait's usual start for
        one straight ahead or back (measured, BENCHMARKS.md "Gait start")."""
        self.stance = False
        vx, vy = command[0], command[1]
        lead = 0.0 if vx == 0.0 and vy == 0.0 else -2.0 * math.atan2(vy, abs(vx))
        lead = min(max(lead, -math.pi / 2), math.pi / 2)
        # observation() advances the clock before it reads it: the first tick sees ``lead``.
        self.phase = np.array([lead, lead + math.pi]) - self.PHASE_STEP

    def observation(self, state: JointState, command: tuple[float, float, float]) -> np.ndarray:
        """The 100 values in the policy's key order (alphabetical): actions, base_ang_vel,
        command_ang_vel, command_lin_vel, cos_phase, dof_pos, dof_vel, projected_gravity,
        sin_phase. Advances the gait phase first, as holosoma does: held at pi in stance
        (``stands``), started on the leading foot when a walk begins."""
        gravity, gyro = _imu(state)
        self._balance(gravity)
        if stands(command) and not self.recovering:
            self.stance = True
            self.phase = np.array([math.pi, math.pi])
        else:
            if self.stance:  # a step toward where it is falling, if it is not walking
                lean = (float(gravity[0]), float(gravity[1]), 0.0)
                self.start_gait(lean if stands(command) else command)
            self.phase = np.mod(self.phase + self.PHASE_STEP + math.pi, 2.0 * math.pi) - math.pi
        q, dq = _by_name(state, self.joint_names)
        if self.mask_upper:
            q = np.where(self.upper, self.default, q)
            dq = np.where(self.upper, 0.0, dq)
        return np.concatenate(
            [
                self.last_action,
                gyro * 0.25,
                [command[2]],
                [command[0], command[1]],
                np.cos(self.phase),
                q - self.default,
                dq * 0.05,
                gravity,
                np.sin(self.phase),
            ]
        ).astype(np.float32)[None, :]

    def act(self, state: JointState, command: tuple[float, float, float]) -> PolicyAction:
        obs = self.observation(state, command)
        (action,) = self.session.run(None, {"actor_obs": obs})
        action = np.clip(action[0], -self.ACTION_CLIP, self.ACTION_CLIP).astype(np.float32)
        self.last_action = action
        targets = self.default + self.ACTION_SCALE * action.astype(np.float64)
        return PolicyAction(self.joint_names, targets, self.kp, self.kd)


class UnitreePolicy:
    """Unitree's ``motion.pt`` (unitree_rl_gym): 12 leg joints, an LSTM, 50 Hz."""

    ACTION_SCALE = 0.25
    GAIT_PERIOD = 0.8  # s
    COMMAND_SCALE = np.array([2.0, 2.0, 0.25], dtype=np.float32)
    _KP = (100.0, 100.0, 100.0, 150.0, 40.0, 40.0)
    _KD = (2.0, 2.0, 2.0, 4.0, 2.0, 2.0)
    _DEFAULT = (-0.1, 0.0, 0.0, 0.3, -0.2, 0.0)
    UPPER_GAINS = (200.0, 5.0)

    def __init__(self, path: Path | str | None = None) -> None:
        configured = path or os.environ.get(UNITREE_POLICY_ENV)
        if not configured:
            raise PolicyMissing(
                f"the unitree policy needs the path of Unitree's motion.pt (unitree_rl_gym): "
                f"give it as the policy path or set {UNITREE_POLICY_ENV}"
            )
        self.path = Path(configured)
        if not self.path.is_file():
            raise PolicyMissing(f"{self.path}: no such file (Unitree's motion.pt)")
        import torch

        self._torch = torch
        self.module = torch.jit.load(str(self.path), map_location="cpu")
        self.module.eval()
        self.name = "unitree-motion"
        self.joint_names = LEG_JOINTS
        self.kp = np.asarray(self._KP * 2, dtype=np.float64)
        self.kd = np.asarray(self._KD * 2, dtype=np.float64)
        self.default = np.asarray(self._DEFAULT * 2, dtype=np.float64)
        # Trained with the upper body welded straight (g1_12dof.xml): arms hanging, stiff.
        # With the holosoma arm pose and soft gains it walks off under a zero command.
        self.upper_body = {
            name: (0.0, *self.UPPER_GAINS) for name in G1_JOINTS if name not in LEG_JOINTS
        }
        self.reset()

    def reset(self) -> None:
        for name in ("hidden_state", "cell_state"):
            buffer = getattr(self.module, name, None)
            if buffer is not None:
                buffer.zero_()
        self.last_action = np.zeros(12, dtype=np.float32)
        self.steps = 0

    def observation(self, state: JointState, command: tuple[float, float, float]) -> np.ndarray:
        gravity, gyro = _imu(state)
        q, dq = _by_name(state, self.joint_names)
        phase = (self.steps * 0.02 % self.GAIT_PERIOD) / self.GAIT_PERIOD
        return np.concatenate(
            [
                gyro * 0.25,
                gravity,
                np.asarray(command, dtype=np.float32) * self.COMMAND_SCALE,
                q - self.default,
                dq * 0.05,
                self.last_action,
                [math.sin(2 * math.pi * phase), math.cos(2 * math.pi * phase)],
            ]
        ).astype(np.float32)[None, :]

    def act(self, state: JointState, command: tuple[float, float, float]) -> PolicyAction:
        obs = self.observation(state, command)
        with self._torch.inference_mode():
            action = self.module(self._torch.from_numpy(obs)).numpy()[0].astype(np.float32)
        self.last_action = action
        self.steps += 1
        targets = self.default + self.ACTION_SCALE * action.astype(np.float64)
        return PolicyAction(self.joint_names, targets, self.kp, self.kd)


def make_policy(name: str, path: Path | str | None = None) -> WalkingPolicy:
    """``holosoma-fastsac`` (default), ``holosoma-ppo`` or ``unitree-motion`` (``path``)."""
    if name.startswith("holosoma-"):
        return HolosomaPolicy(name.removeprefix("holosoma-"))
    if name == "unitree-motion":
        return UnitreePolicy(path)
    raise ValueError(
        f"unknown walking policy {name!r} (known: holosoma-fastsac, holosoma-ppo, unitree-motion)"
    )
