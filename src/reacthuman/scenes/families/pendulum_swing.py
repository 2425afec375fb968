"""pendulum_swing: a mass hanging from the ceiling swings in toward the observer.

Released from 18-26 degrees on the far side of its pivot with an extra push toward the robot
(the swept speed), it swings through the bottom and up toward the robot. The pivot stands
beyond the reach zone, so the bob enters reach late in its swing: a slow swing comes in near
its turning point, a fast one earlier and faster. The rope is a rigid, massless link; its
hinge and the air damp the swing a little, a light bob more than a heavy one.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    FamilySampler,
    Layout,
    SampleContext,
    entry_x,
    furniture,
    register,
)
from reacthuman.scenes.geometry import quat_from_axis_angle
from reacthuman.scenes.kinematics import G, Path, integrate_angle, principal_inertia
from reacthuman.scenes.spec import Family, FurnitureKind, Joint, ObjectRole, RoomType, SpeedBand

PUSH_RATES = {  # rad/s toward the robot at release
    SpeedBand.slow: (0.0, 0.05),
    SpeedBand.normal: (0.35, 0.4),
    SpeedBand.fast: (0.6, 0.65),
    SpeedBand.very_fast: (0.85, 0.9),
}


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    half_h = ctx.hazard.shape.size[2] / 2.0
    pivot_y = rng.uniform(-0.3, 0.3)
    pivot_z = ctx.room_height - 0.03
    rest_height = max(rng.uniform(0.8, 1.2), half_h + 0.35)
    length = pivot_z - rest_height
    release = math.radians(rng.uniform(18.0, 26.0))
    # The pivot stands so that a barely pushed bob enters reach at this share of its swing's
    # reach toward the robot: late in its swing, near where it would turn back.
    share = rng.uniform(0.9, 0.95)
    damping = rng.uniform(0.15, 0.4)  # N m s / rad: the rope's mount; a light bob feels it
    push = ctx.speed(PUSH_RATES)
    pivot = (entry_x(pivot_y) + share * length * math.sin(release), pivot_y, pivot_z)

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
        joint=Joint(kind="pendulum", anchor=pivot, axis=(0.0, 1.0, 0.0), damping=round(damping, 4)),
    )
    mount = furniture(
        "mount",
        FurnitureKind.ceiling_mount,
        (pivot[0], pivot[1], ctx.room_height - 0.015),
        (0.12, 0.12, 0.03),
        (0.8, 0.8, 0.8),
        0.5,
    )
    # A physical pendulum: the bob's own inertia about its centre (it hangs along the rope,
    # its z axis) adds to m L^2 about the pivot.
    spin_inertia = principal_inertia(hazard.shape, hazard.mass_kg)[0]
    inertia = hazard.mass_kg * length * length + spin_inertia
    stiffness = hazard.mass_kg * G * length / inertia
    angles = integrate_angle(
        lambda th, w: -stiffness * math.sin(th) - damping / inertia * w,
        release,
        theta_dot,
        stop=lambda _th, _w: False,
        horizon=ctx.horizon,
    )
    path = Path()
    for t, theta, omega in angles:
        vel = (length * omega * math.cos(theta), 0.0, length * omega * math.sin(theta))
        path.append(t, bob(theta), vel, 0.5 * inertia * omega * omega)
    return Layout(
        furniture=[mount],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=start,
        description=f"{ctx.hazard.looks_like} hanging from the ceiling swings toward the robot",
        design_speed_ratio=2.1,
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
        shows_mass=True,
        room_heights=(3.0, 3.5),  # a long rope swings slowly enough to leave time
    )
)
