"""pendulum_swing: a mass hanging from the ceiling swings in toward the observer.

Released from 20-45 degrees on the far side of its pivot with an extra push toward the robot
(the swept speed), it swings through the bottom toward the robot; slow swings may turn back
before they are within reach (No_Action). The rope is a rigid, massless link.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    FamilySampler,
    Layout,
    SampleContext,
    furniture,
    register,
)
from reacthuman.scenes.geometry import quat_from_axis_angle
from reacthuman.scenes.kinematics import G, Path, integrate_angle
from reacthuman.scenes.spec import Family, FurnitureKind, Joint, ObjectRole, RoomType, SpeedBand

PUSH_RATES = {  # rad/s toward the robot at release
    SpeedBand.slow: (0.0, 0.2),
    SpeedBand.normal: (0.5, 0.8),
    SpeedBand.fast: (1.0, 1.4),
    SpeedBand.very_fast: (1.6, 2.0),
}
AIR_DAMPING = 0.05  # 1/s


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    half_h = ctx.hazard.shape.size[2] / 2.0
    pivot = (rng.uniform(1.1, 1.8), rng.uniform(-0.3, 0.3), ctx.room_height - 0.03)
    rest_height = max(rng.uniform(0.9, 1.5), half_h + 0.35)
    length = pivot[2] - rest_height
    release = math.radians(rng.uniform(20.0, 45.0))
    push = ctx.speed(PUSH_RATES)

    def bob(theta: float) -> tuple[float, float, float]:
        return (
            pivot[0] + length * math.sin(theta),
            pivot[1],
            pivot[2] - length * math.cos(theta),
        )

    start = bob(release)
    theta_dot = -push  # toward the robot, which stands on the -x side
    hazard = ctx.make_object(
        ctx.hazard,
        "hazard",
        ObjectRole.hazard,
        start,
        quat_from_axis_angle((0.0, 1.0, 0.0), -release),  # hangs along the rope
        lin_vel=(
            length * theta_dot * math.cos(release),
            0.0,
            length * theta_dot * math.sin(release),
        ),
        ang_vel=(0.0, -theta_dot, 0.0),
        joint=Joint(kind="pendulum", anchor=pivot, axis=(0.0, 1.0, 0.0), damping=0.0),
    )
    mount = furniture(
        "mount",
        FurnitureKind.ceiling_mount,
        (pivot[0], pivot[1], ctx.room_height - 0.015),
        (0.12, 0.12, 0.03),
        (0.8, 0.8, 0.8),
        0.5,
    )
    angles = integrate_angle(
        lambda th, w: -G / length * math.sin(th) - AIR_DAMPING * w,
        release,
        theta_dot,
        stop=lambda _th, _w: False,
        horizon=ctx.horizon,
    )
    path = Path()
    for t, theta, omega in angles:
        vel = (length * omega * math.cos(theta), 0.0, length * omega * math.sin(theta))
        path.append(t, bob(theta), vel)
    return Layout(
        furniture=[mount],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=start,
        description=f"{ctx.hazard.looks_like} hanging from the ceiling swings toward the robot",
    )


SAMPLER = register(
    FamilySampler(
        family=Family.pendulum_swing,
        summary="suspended mass swings in",
        archetype="articulated",
        gravity_paced=False,
        pool=(
            "punching_bag",
            "pendant_lamp",
            "potted_plant",
            "bean_bag",
            "teddy_bear",
            "basketball",
        ),
        rooms=(RoomType.garage, RoomType.living_room, RoomType.playroom, RoomType.dining_room),
        build=build,
    )
)
