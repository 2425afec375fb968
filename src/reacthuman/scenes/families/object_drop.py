"""object_drop: an object tips off a table edge toward the observer (paper Figure 1).

The trajectory is trivial, so the decision is dominated by what the object is. The object
starts with its centre of mass just past the near edge and a push toward the observer; the
push speed is the swept speed.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    FamilySampler,
    Layout,
    SampleContext,
    fly,
    is_ball,
    register,
    resting_z,
    table_with_near_edge,
)
from reacthuman.scenes.geometry import quat_from_yaw
from reacthuman.scenes.spec import Family, ObjectRole, RoomType, SpeedBand

SPEEDS = {
    SpeedBand.slow: (0.15, 0.3),
    SpeedBand.normal: (0.5, 0.8),
    SpeedBand.fast: (1.0, 1.4),
    SpeedBand.very_fast: (1.7, 2.3),
}


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    height = rng.uniform(0.72, 0.95)
    near_edge = rng.uniform(0.7, 1.1)
    table_y = rng.uniform(-0.3, 0.3)
    table, top = table_with_near_edge(ctx, "table", near_edge, table_y, height)
    obj_y = table_y + rng.uniform(-0.25, 0.25)
    yaw = 0.0 if is_ball(ctx.hazard) else rng.uniform(-math.pi / 2, math.pi / 2)
    overhang = rng.uniform(0.005, 0.03)
    lateral = rng.uniform(-0.1, 0.1)
    speed = ctx.speed(SPEEDS)
    pos = (near_edge - overhang, obj_y, resting_z(height, ctx.hazard))
    vel = (-speed, lateral * speed, 0.0)
    hazard = ctx.make_object(ctx.hazard, "hazard", ObjectRole.hazard, pos, quat_from_yaw(yaw), vel)
    path = fly(ctx, hazard, [top])
    return Layout(
        furniture=[table],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=(near_edge, obj_y, height),
        description=f"{ctx.hazard.looks_like} tips off the edge of a table toward the robot",
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
