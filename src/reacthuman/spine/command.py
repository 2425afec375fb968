"""What travels between the simulator and the spine once per control tick.

The simulator reports the body's joint state at a tick; the spine answers with the joint
targets for that tick and the walking command (a body-frame twist). Both are plain named
vectors so that the same contract carries the stand-in's joints today and the G1's 29 motors
later, over ROS 2 (``sensor_msgs/JointState`` and ``geometry_msgs/Twist``) or in process.
"""

from __future__ import annotations

from dataclasses import dataclass

CONTROL_RATE = 50  # Hz of simulated time
CONTROL_PERIOD = 1.0 / CONTROL_RATE


@dataclass(frozen=True)
class JointState:
    """The body at the start of control tick ``tick`` (``t`` s after the freeze)."""

    tick: int
    t: float
    names: tuple[str, ...]
    positions: tuple[float, ...]
    velocities: tuple[float, ...] = ()  # rad/s per joint; empty for the kinematic stand-in
    imu_quat: tuple[float, float, float, float] | None = None  # base orientation, w x y z
    imu_gyro: tuple[float, float, float] | None = None  # base angular velocity, body frame


@dataclass(frozen=True)
class JointCommand:
    """Joint targets for tick ``tick`` and the walking command held during it."""

    tick: int
    t: float
    names: tuple[str, ...]
    positions: tuple[float, ...]
    walking_cmd: tuple[float, float, float]  # vx, vy (m/s), yaw rate (rad/s), robot frame
    kp: tuple[float, ...] = ()  # PD stiffness per joint (N m/rad); empty: kinematic targets
    kd: tuple[float, ...] = ()  # PD damping per joint (N m s/rad)

    def position(self, name: str) -> float:
        return self.positions[self.names.index(name)]


def tick_time(tick: int) -> float:
    """Seconds after the freeze at which control tick ``tick`` starts."""
    return tick * CONTROL_PERIOD


def ticks_in(duration: float) -> int:
    """Control ticks in ``duration`` seconds of execution."""
    return round(duration * CONTROL_RATE)
