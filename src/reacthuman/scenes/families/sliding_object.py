"""sliding_object: an object slides down a ramp toward the observer and onto the floor.

The ramp's angle is floored just above the friction cone (paper 3.4: 0.3-0.7 degree past the
angle at which the object's friction would hold it), so sliding is guaranteed and the object
keeps about the speed it was pushed with, gaining a little: the push is the swept speed. The
ramp's low end is inside the reach zone; the object starts on it outside the zone, clear of
the prop that holds up the ramp's high end, and enters the zone while still on the ramp.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    INCLINE_PUSH_SPEEDS,
    WOOD_COLORS,
    FamilyError,
    FamilySampler,
    Layout,
    SampleContext,
    entry_x,
    furniture,
    incline_accel,
    mu,
    register,
    slide_down,
)
from reacthuman.scenes.geometry import quat_from_axis_angle, quat_from_yaw, quat_mul
from reacthuman.scenes.spec import Family, FurnitureKind, ObjectRole, RoomType

PROP = 0.04  # m, the board that holds up the ramp's high end
MAX_HEIGHT = 1.3  # m: a ramp higher than this is not a household ramp


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    low_x = rng.uniform(0.8, 1.05)
    y = rng.uniform(-0.3, 0.3)
    width = rng.uniform(0.55, 0.8)
    ramp_friction = rng.uniform(0.25, 0.4)
    past = math.radians(rng.uniform(0.3, 0.7))
    run = rng.uniform(0.85, 1.0)  # down the ramp from the start to the reach zone's edge
    color = rng.choice(WOOD_COLORS)
    push = ctx.speed(INCLINE_PUSH_SPEEDS)

    size_x, size_y, size_z = ctx.hazard.shape.size
    yaw = 0.0 if size_x >= size_y else math.pi / 2.0  # long side down the ramp
    along = max(size_x, size_y) / 2.0
    hazard = ctx.make_object(ctx.hazard, "hazard", ObjectRole.hazard, (0.0, 0.0, 0.0))
    friction = mu(hazard, ramp_friction)
    angle = math.atan(friction) + past
    up = (math.cos(angle), 0.0, math.sin(angle))
    normal = (-math.sin(angle), 0.0, math.cos(angle))
    start_s = (entry_x(y) - low_x) / math.cos(angle) + run  # up the slope from the low end
    slope = start_s + along + PROP + 0.06
    length, height = slope * math.cos(angle), slope * math.sin(angle)
    if height > MAX_HEIGHT:
        raise FamilyError(f"the ramp would be {height:.2f} m high")
    ramp = furniture(
        "ramp",
        FurnitureKind.ramp,
        (low_x + length / 2.0, y, height / 2.0),
        (length, width, height),
        color,
        ramp_friction,
    )
    surface = (low_x + start_s * up[0], y, start_s * up[2])
    pos = tuple(surface[i] + (size_z / 2.0 + 0.002) * normal[i] for i in range(3))
    tilt = quat_from_axis_angle((0.0, 1.0, 0.0), -angle)
    down = (-up[0], 0.0, -up[2])
    hazard = hazard.model_copy(
        update={
            "pose": hazard.pose.model_copy(
                update={"pos": pos, "quat": quat_mul(tilt, quat_from_yaw(yaw))}
            ),
            "lin_vel": tuple(push * d for d in down),
        }
    )
    path = slide_down(ctx, hazard, down, incline_accel(angle, friction), start_s)
    return Layout(
        furniture=[ramp],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=surface,
        description=f"{ctx.hazard.looks_like} slides down a ramp toward the robot",
        design_speed_ratio=2.6,  # as shelf_slide: steep boards creep
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
        shows_mass=True,
    )
)
