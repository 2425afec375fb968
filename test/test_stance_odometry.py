"""Leg odometry of the spine (spine.hands.StanceOdometry): hands hold their place in the room
while the body sways and shuffles under them, from joint angles and the IMU alone."""

from __future__ import annotations

import math

import pytest

from reacthuman import robot
from reacthuman.spine.hands import StanceOdometry


def feet_from(pelvis: tuple[float, float], yaw: float, left, right):
    """Where a pelvis at ``pelvis`` facing ``yaw`` sees two feet standing at world points."""
    c, s = math.cos(yaw), math.sin(yaw)
    out = []
    for fx, fy in (left, right):
        dx, dy = fx - pelvis[0], fy - pelvis[1]
        out.append((c * dx + s * dy, -s * dx + c * dy))
    return out


def test_the_pelvis_is_tracked_over_a_planted_foot_and_across_a_step():
    left, right = (0.0, 0.12), (0.0, -0.12)
    odo = StanceOdometry.anchored(0.0, feet_from((0.0, 0.0), 0.0, left, right), [0.0, 0.0])
    # Sway 4 cm to the right over both feet.
    odo.update(0.0, feet_from((0.0, -0.04), 0.0, left, right), [0.0, 0.001])
    assert odo.base == pytest.approx((0.0, -0.04))
    # The left foot lifts and steps 10 cm to the right while the right one holds the body up.
    odo.update(0.0, feet_from((0.0, -0.06), 0.0, left, right), [0.05, 0.0])
    assert odo.stance == 1 and odo.base == pytest.approx((0.0, -0.06))
    left = (0.0, 0.02)
    odo.update(0.0, feet_from((0.0, -0.08), 0.0, left, right), [0.0, 0.004])
    assert odo.stance == 0 and odo.base == pytest.approx((0.0, -0.08))
    # Turning on the planted left foot.
    odo.update(0.2, feet_from((0.01, -0.09), 0.2, left, right), [0.0, 0.01])
    assert odo.turn == pytest.approx(0.2) and odo.base == pytest.approx((0.01, -0.09))


def test_a_hand_target_stays_put_in_the_room_while_the_body_moves():
    odo = StanceOdometry(yaw0=0.0, stance=0, planted=(0.0, 0.12), base=(0.05, -0.1), turn=0.3)
    target = (0.35, 0.0, -0.2)  # from the hand origin of the body at the anchor
    now = odo.to_body(target)
    ox, oy = robot.HAND_ORIGIN[0], robot.HAND_ORIGIN[1]
    c, s = math.cos(odo.turn), math.sin(odo.turn)
    x, y = now[0] + ox, now[1] + oy
    room = (odo.base[0] + c * x - s * y - ox, odo.base[1] + s * x + c * y - oy)
    assert room == pytest.approx(target[:2]) and now[2] == target[2]
