"""sliding_object: an object slides down a ramp toward the observer and on across the floor.

The ramp's angle is floored 5-12 degrees above the friction cone (paper 3.4), so sliding is
guaranteed; the push it starts with is the swept speed. Slow pushes may stop short of the
robot, which makes No_Action the right answer there.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    WOOD_COLORS,
    FamilySampler,
    Layout,
    SampleContext,
    fly,
    furniture,
    mu,
    register,
)
from reacthuman.scenes.geometry import quat_from_axis_angle
from reacthuman.scenes.kinematics import DT, G, Path
from reacthuman.scenes.spec import Family, FurnitureKind, ObjectRole, RoomType, SpeedBand

PUSH_SPEEDS = {
    SpeedBand.slow: (0.0, 0.15),
    SpeedBand.normal: (0.5, 0.8),
    SpeedBand.fast: (1.2, 1.6),
    SpeedBand.very_fast: (2.0, 2.6),
}


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    low_end = rng.uniform(1.0, 1.6)
    ramp_y = rng.uniform(-0.3, 0.3)
    width = rng.uniform(0.5, 0.8)
    ramp_friction = rng.uniform(0.25, 0.4)
    margin = math.radians(rng.uniform(5.0, 12.0))
    length = rng.uniform(1.0, 1.5)
    start_from_top = rng.uniform(0.12, 0.25)
    color = rng.choice(WOOD_COLORS)
    push = ctx.speed(PUSH_SPEEDS)

    half_h = ctx.hazard.shape.size[2] / 2.0
    hazard = ctx.make_object(ctx.hazard, "hazard", ObjectRole.hazard, (0.0, 0.0, 0.0))
    friction = mu(hazard, ramp_friction)
    angle = min(math.atan(friction) + margin, math.radians(55.0))
    height = length * math.tan(angle)
    if height > 1.3:  # keep the ramp's top at a household height
        length, height = 1.3 / math.tan(angle), 1.3
    ramp = furniture(
        "ramp",
        FurnitureKind.ramp,
        (low_end + length / 2.0, ramp_y, height / 2.0),
        (length, width, height),
        color,
        ramp_friction,
    )
    # Place the object on the incline, tilted with it, its centre half a height off the surface.
    along = length / math.cos(angle) - start_from_top  # distance up the slope from the low end
    down = (-math.cos(angle), 0.0, -math.sin(angle))
    normal = (-math.sin(angle), 0.0, math.cos(angle))
    surface = (low_end + along * math.cos(angle), ramp_y, along * math.sin(angle))
    pos = tuple(surface[i] + half_h * normal[i] for i in range(3))
    quat = quat_from_axis_angle((0.0, 1.0, 0.0), -angle)
    vel = tuple(push * d for d in down)
    hazard = hazard.model_copy(
        update={"pose": hazard.pose.model_copy(update={"pos": pos, "quat": quat}), "lin_vel": vel}
    )

    # Down the incline under gravity and friction, then across the floor.
    accel = G * (math.sin(angle) - friction * math.cos(angle))
    path = Path()
    t, s, v = 0.0, 0.0, push
    while s < along and t < ctx.horizon:
        path.append(t, tuple(pos[i] + s * down[i] for i in range(3)), tuple(v * d for d in down))
        t += DT
        v += accel * DT
        s += v * DT
    bottom = (low_end - half_h * math.sin(angle), ramp_y, half_h)
    # Meeting the floor is an inelastic impact: the normal part v sin(angle) is lost, and the
    # friction impulse it brings takes mu v sin(angle) off the horizontal part v cos(angle).
    floor_mu = max(hazard.friction, ctx.floor_friction)
    across = max(v * (math.cos(angle) - floor_mu * math.sin(angle)), 0.0)
    fly(ctx, hazard, [], start_t=t, pos=bottom, vel=(-across, 0.0, 0.0), path=path)
    if path.floor_time is None or path.floor_time > t:
        path.floor_time = t
    return Layout(
        furniture=[ramp],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=surface,
        description=f"{ctx.hazard.looks_like} slides down a ramp toward the robot",
    )


SAMPLER = register(
    FamilySampler(
        family=Family.sliding_object,
        summary="slides down a ramp",
        archetype="slide_roll",
        gravity_paced=False,
        pool=(
            "paperback_book",
            "hardcover_book",
            "wooden_cutting_board",
            "laptop",
            "toolbox",
            "brick",
            "cardboard_box",
            "tv_remote",
            "smartphone",
            "cast_iron_pan",
            "ceramic_plate",
            "cast_iron_anvil",
            "laundry_basket",
            "dumbbell",
            "chef_knife",
            "frisbee",
            "folded_towel",
        ),
        rooms=(RoomType.garage, RoomType.playroom, RoomType.living_room, RoomType.hallway),
        build=build,
    )
)
