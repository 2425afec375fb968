"""Where a plan takes the robot: base pose from the walking command, hands in the world.

The walking command is a constant body-frame twist (vx, vy, yaw rate) held for
``walking_duration`` seconds after the freeze; the base then stands. Hands are at their
keyframe targets relative to the hand origin, which moves with the base.
"""

from __future__ import annotations

import math

from reacthuman import robot
from reacthuman.brain.plan import ReactionPlan

Vec3 = tuple[float, float, float]


def base_pose(plan: ReactionPlan, t: float) -> tuple[float, float, float]:
    """(x, y, yaw) of the base at ``t`` s after the freeze, in the robot's frame at the freeze."""
    vx, vy, wz = plan.walking_cmd
    tau = min(max(t, 0.0), plan.walking_duration)
    if abs(wz) < 1e-9:
        return (vx * tau, vy * tau, 0.0)
    s, c = math.sin(wz * tau), math.cos(wz * tau)
    # Integral of R(wz t) (vx, vy) dt from 0 to tau.
    x = (vx * s - vy * (1.0 - c)) / wz
    y = (vx * (1.0 - c) + vy * s) / wz
    return (x, y, wz * tau)


def hand_in_robot_frame(plan: ReactionPlan, hand: Vec3, t: float) -> Vec3:
    """A keyframe hand target at time ``t`` in the robot's frame at the freeze."""
    x, y, yaw = base_pose(plan, t)
    ox, oy, oz = robot.HAND_ORIGIN
    px, py, pz = ox + hand[0], oy + hand[1], oz + hand[2]
    c, s = math.cos(yaw), math.sin(yaw)
    return (x + c * px - s * py, y + s * px + c * py, pz)


def to_world(point: Vec3, robot_pos: Vec3, robot_yaw: float) -> Vec3:
    """A point in the robot frame (at the freeze) to the world frame."""
    c, s = math.cos(robot_yaw), math.sin(robot_yaw)
    return (
        robot_pos[0] + c * point[0] - s * point[1],
        robot_pos[1] + s * point[0] + c * point[1],
        robot_pos[2] + point[2],
    )


def to_robot(point: Vec3, robot_pos: Vec3, robot_yaw: float) -> Vec3:
    """A world point in the robot frame at the freeze."""
    dx, dy = point[0] - robot_pos[0], point[1] - robot_pos[1]
    c, s = math.cos(robot_yaw), math.sin(robot_yaw)
    return (c * dx + s * dy, -s * dx + c * dy, point[2] - robot_pos[2])
