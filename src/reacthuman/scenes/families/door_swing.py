"""door_swing: a hinged door swings violently toward the observer.

The door hangs on a vertical hinge in front of and beside the robot and is swinging toward it
from wide open (115-135 degrees from the robot's bearing): its free edge starts outside the
reach zone and sweeps an arc that passes within reach. The angular speed is the swept speed;
the hinge's damping slows a light door far more than a heavy one (a cue to what it weighs). A
door stop 25 degrees past the robot's bearing ends the swing.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import DODGE, FamilySampler, Layout, SampleContext, register
from reacthuman.scenes.families.blocks import furniture
from reacthuman.scenes.geometry import quat_from_yaw
from reacthuman.scenes.kinematics import DT, MotionPath
from reacthuman.scenes.spec import Family, FurnitureKind, Joint, ObjectRole, RoomType, SpeedBand

SWING_SPEEDS = {  # rad/s
    SpeedBand.slow: (0.7, 0.8),
    SpeedBand.normal: (1.05, 1.15),
    SpeedBand.fast: (1.4, 1.5),
    SpeedBand.very_fast: (1.8, 2.0),
}
HINGE_CLEARANCE = 0.035  # m between the hinge axis and the door's hinge-side edge
POST = 0.04  # m, square door post on the hinge axis


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    thickness, width, height = ctx.hazard.shape.size
    side = rng.sign()
    hinge = (rng.uniform(1.1, 1.5), side * rng.uniform(0.7, 1.0))
    toward_robot = math.atan2(-hinge[1], -hinge[0])
    direction = rng.sign()  # counter-clockwise (+1) or clockwise (-1) seen from above
    opening = math.radians(rng.uniform(115.0, 135.0))
    damping = rng.uniform(0.06, 0.2)  # N m s / rad at the hinge
    post_color = (0.9, 0.9, 0.88)
    omega0 = ctx.speed(SWING_SPEEDS)

    psi0 = toward_robot - direction * opening
    stop = toward_robot + direction * math.radians(25.0)
    reach = HINGE_CLEARANCE + width
    center_r = HINGE_CLEARANCE + width / 2.0
    bottom_gap = 0.01
    edge_height = bottom_gap + height / 2.0  # the hazard point: the free edge, half-way up
    center = (
        hinge[0] + center_r * math.cos(psi0),
        hinge[1] + center_r * math.sin(psi0),
        bottom_gap + height / 2.0,
    )
    spin = direction * omega0
    hazard = ctx.make_object(
        ctx.hazard,
        "hazard",
        ObjectRole.hazard,
        center,
        quat_from_yaw(psi0 - math.pi / 2.0),  # the panel's width (local y) points off the hinge
        lin_vel=(-spin * center_r * math.sin(psi0), spin * center_r * math.cos(psi0), 0.0),
        ang_vel=(0.0, 0.0, spin),
        joint=Joint(
            kind="hinge",
            anchor=(hinge[0], hinge[1], 0.0),
            axis=(0.0, 0.0, 1.0),
            damping=round(damping, 4),
        ),
    )
    hazard = hazard.model_copy(update={"hazard_point": (0.0, width / 2.0, 0.0)})
    post = furniture(
        "door_post",
        FurnitureKind.door_post,
        (hinge[0], hinge[1], (height + bottom_gap) / 2.0),
        (POST, POST, height + bottom_gap),
        post_color,
        0.5,
    )
    # A panel about its edge: I = m w^2 / 3 (w from the axis); hinge damping decays the spin.
    inertia = hazard.mass_kg * reach**2 / 3.0
    decay = damping / inertia
    path = MotionPath()
    t, psi, omega = 0.0, psi0, spin
    while t <= ctx.horizon + 1e-9:
        edge = (hinge[0] + reach * math.cos(psi), hinge[1] + reach * math.sin(psi), edge_height)
        vel = (-omega * reach * math.sin(psi), omega * reach * math.cos(psi), 0.0)
        path.append(t, edge, vel, 0.5 * inertia * omega * omega)
        if direction * (psi - stop) >= 0.0:
            break
        omega -= decay * omega * DT
        psi += omega * DT
        t += DT
    path.hold_until(ctx.horizon)
    return Layout(
        furniture=[post],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=(center[0], center[1], 1.0),
        description=f"{ctx.hazard.looks_like} on a hinge swings hard toward the robot",
        hinge=(hinge[0], hinge[1], edge_height),
    )


SAMPLER = register(
    FamilySampler(
        family=Family.door_swing,
        summary="door swings violently",
        archetype="articulated",
        gravity_paced=False,
        pool=("wooden_door", "glass_door"),
        rooms=(RoomType.hallway, RoomType.living_room, RoomType.bedroom, RoomType.office),
        build=build,
        # A slow, damped door reaches the robot 3-4 s after t0.
        horizon=4.5,
        plan=(DODGE,),  # a door is too large to hold, a hollow prop door as much as a wooden one
    )
)
