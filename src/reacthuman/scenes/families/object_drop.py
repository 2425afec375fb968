"""object_drop: an object slides along a wet table and off its end toward the observer.

The trajectory is trivial, so the decision is dominated by what the object is (paper 3.2).
For the decision moment to come before the outcome, the fall must come after the window: an
object pushed across an ordinary table stops within a few centimetres at slow speeds, so the
table is wet glass (objects keep ``WET_FACTOR`` of their dry grip, each its own) and the
object glides toward the robot's end of it during the window. It enters the reach zone on the
table and tips off the near edge in front of the robot. The glide speed is the swept speed.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    WET_FACTOR,
    WET_TOP_FRICTION,
    FamilySampler,
    Layout,
    SampleContext,
    entry_x,
    fly,
    is_ball,
    long_table,
    register,
    resting_z,
    rolling_spin,
)
from reacthuman.scenes.geometry import quat_from_yaw
from reacthuman.scenes.spec import Family, ObjectRole, RoomType, SpeedBand

SPEEDS = {  # m/s along the table at the start
    SpeedBand.slow: (0.6, 0.7),
    SpeedBand.normal: (0.95, 1.05),
    SpeedBand.fast: (1.3, 1.4),
    SpeedBand.very_fast: (1.7, 1.85),
}


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    height = rng.uniform(0.72, 0.95)
    near_edge = rng.uniform(0.75, 1.0)  # inside the reach zone: it drops in front of the robot
    y = rng.uniform(-0.3, 0.3)
    run = rng.uniform(1.1, 1.4)  # from the start to the reach zone's edge
    yaw = 0.0 if is_ball(ctx.hazard) else rng.uniform(-math.pi / 2, math.pi / 2)
    drift = rng.uniform(-0.04, 0.04)  # a slightly skewed push
    wet = rng.uniform(*WET_FACTOR)
    speed = ctx.speed(SPEEDS)
    start_x = entry_x(y) + run
    half = max(ctx.hazard.shape.size[0], ctx.hazard.shape.size[1]) / 2.0
    table, top = long_table(
        ctx, "table", near_edge, start_x + half + 0.15, y, height, WET_TOP_FRICTION
    )
    vel = (-speed, drift * speed, 0.0)
    spin = rolling_spin(vel, ctx.hazard.shape.size[0] / 2.0) if is_ball(ctx.hazard) else None
    hazard = ctx.make_object(
        ctx.hazard,
        "hazard",
        ObjectRole.hazard,
        (start_x, y, resting_z(height, ctx.hazard)),
        quat_from_yaw(yaw),
        vel,
        spin or (0.0, 0.0, 0.0),
        surface_factor=wet,
    )
    path = fly(ctx, hazard, [top])
    return Layout(
        furniture=[table],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=(start_x, y, height),
        description=(
            f"{ctx.hazard.looks_like} slides along a wet table toward its end and the robot"
        ),
    )


SAMPLER = register(
    FamilySampler(
        family=Family.object_drop,
        summary="tips off a table edge",
        archetype="fall",
        gravity_paced=False,
        pool=(
            "ceramic_plate",
            "ceramic_bowl",
            "ceramic_mug",
            "wine_glass",
            "glass_bottle",
            "plastic_water_bottle",
            "plastic_cup",
            "chef_knife",
            "kitchen_scissors",
            "cast_iron_pan",
            "pot_of_hot_soup",
            "hot_kettle",
            "hot_coffee_cup",
            "apple",
            "orange",
            "bread_loaf",
            "soda_can",
            "tin_can",
            "tv_remote",
            "smartphone",
            "laptop",
            "glass_vase",
            "table_lamp",
            "cast_iron_anvil",
            "brick",
            "paperback_book",
        ),
        rooms=(RoomType.kitchen, RoomType.dining_room, RoomType.living_room, RoomType.office),
        build=build,
    )
)
