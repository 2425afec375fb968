"""object_drop: an object slides along a wet table and off its end toward the observer.

The trajectory is trivial, so the decision is dominated by what the object is (paper 3.2).
For the decision moment to come before the outcome, the fall must come after the window: an
object pushed across an ordinary table stops within a few centimetres at slow speeds, so the
table is wet glass (objects keep ``WET_FACTOR`` of their dry grip, each its own) and the
object glides toward the robot's end of it during the window. It enters the reach zone on the
table and tips off the near edge in front of the robot, at counter height and within arm's
reach, where a G1 standing still holds both hands (as in rolling_ball). The glide speed is the
swept speed.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import FamilySampler, Layout, SampleContext, register
from reacthuman.scenes.families.blocks import (
    HANDS_COUNTER_NEAR_EDGE,
    WET_FACTOR,
    WET_TOP_FRICTION,
    fly,
    hands_counter_height,
    is_ball,
    long_table,
    resting_z,
    rolling_spin,
)
from reacthuman.scenes.geometry import quat_from_yaw
from reacthuman.scenes.spec import Family, ObjectRole, RoomType, SpeedBand

SPEEDS = {  # m/s along the table at the start
    SpeedBand.slow: (0.72, 0.8),
    SpeedBand.normal: (1.0, 1.1),
    SpeedBand.fast: (1.25, 1.35),
    SpeedBand.very_fast: (1.48, 1.58),
}
# The table is base.HANDS_COUNTER_*: its near end is where a G1 standing still holds both hands.
# Where the push starts: far enough that the very fast band leaves its window and margin
# before the reach zone, near enough that the slow one tips off inside the horizon.
START = (2.33, 2.37)  # m


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    height = hands_counter_height(ctx, ctx.hazard)
    near_edge = rng.uniform(*HANDS_COUNTER_NEAR_EDGE)
    y = rng.uniform(-0.12, 0.12)
    start_x = rng.uniform(*START)
    yaw = 0.0 if is_ball(ctx.hazard) else rng.uniform(-math.pi / 2, math.pi / 2)
    drift = rng.uniform(-0.04, 0.04)  # a slightly skewed push
    wet = rng.uniform(*WET_FACTOR)
    speed = ctx.speed(SPEEDS)
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
        # A ball rolls the wet table keeping its speed (very fast / slow at least 1.85 at the
        # hands); whatever slides loses the same 0.1 m/s per second in every band (the
        # simulator's friction floor), which widens the ratio (2.1-2.3).
        design_speed_ratio=1.85,
    )


SAMPLER = register(
    FamilySampler(
        family=Family.object_drop,
        summary="glides along a wet table and off its end",
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
        # The slow band glides the table's 1.85 m losing 0.1 m/s per second and tips off its
        # end 3.2-3.5 s after the push: a catch and a landing inside the ground truth need 4.5 s.
        horizon=4.5,
        plan_phase=0,
    )
)
