"""surface_cascade: a ball rolls off a counter, hops onto a stool below it, then to the floor.

The stool stands under the counter's near edge, its top spanning every landing point the four
speed bands produce, so the cascade happens whatever the band.
"""

from __future__ import annotations

from reacthuman.scenes.families.base import (
    WOOD_COLORS,
    FamilySampler,
    Layout,
    SampleContext,
    fly,
    furniture,
    register,
    resting_z,
    rolling_spin,
    table_with_near_edge,
)
from reacthuman.scenes.kinematics import Support
from reacthuman.scenes.spec import Family, FurnitureKind, ObjectRole, RoomType, SpeedBand

EDGE_SPEEDS = {
    SpeedBand.slow: (0.1, 0.2),
    SpeedBand.normal: (0.35, 0.5),
    SpeedBand.fast: (0.6, 0.75),
    SpeedBand.very_fast: (0.85, 1.0),
}
STOOL_TOP = 0.42  # m, square seat


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    counter_h = rng.uniform(0.88, 1.02)
    near_edge = rng.uniform(1.1, 1.5)
    counter_y = rng.uniform(-0.2, 0.2)
    counter, top = table_with_near_edge(
        ctx, "counter", near_edge, counter_y, counter_h, FurnitureKind.counter
    )
    stool_h = rng.uniform(0.45, 0.58)
    y = counter_y + rng.uniform(-0.15, 0.15)
    stool_x = near_edge + 0.03 - STOOL_TOP / 2.0
    stool = furniture(
        "stool",
        FurnitureKind.stool,
        (stool_x, y, stool_h / 2.0),
        (STOOL_TOP, STOOL_TOP, stool_h),
        rng.choice(WOOD_COLORS),
        rng.uniform(0.4, 0.6),
    )
    seat = Support(
        stool_h,
        (stool_x - STOOL_TOP / 2.0, stool_x + STOOL_TOP / 2.0),
        (y - STOOL_TOP / 2.0, y + STOOL_TOP / 2.0),
        stool.friction,
    )
    radius = ctx.hazard.shape.size[0] / 2.0
    speed = ctx.speed(EDGE_SPEEDS)
    pos = (near_edge + radius * 0.2, y, resting_z(counter_h, ctx.hazard))
    vel = (-speed, 0.0, 0.0)
    hazard = ctx.make_object(
        ctx.hazard, "hazard", ObjectRole.hazard, pos, lin_vel=vel, ang_vel=rolling_spin(vel, radius)
    )
    path = fly(ctx, hazard, [top, seat])
    return Layout(
        furniture=[counter, stool],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=(near_edge, y, counter_h),
        description=(
            f"{ctx.hazard.looks_like} rolls off a counter toward a stool below it and the robot"
        ),
    )


SAMPLER = register(
    FamilySampler(
        family=Family.surface_cascade,
        summary="hops table, stool, floor",
        archetype="fall",
        gravity_paced=False,
        pool=(
            "tennis_ball",
            "basketball",
            "soccer_ball",
            "rubber_bouncy_ball",
            "baseball",
            "billiard_ball",
            "bowling_ball",
            "apple",
            "orange",
        ),
        rooms=(RoomType.kitchen, RoomType.dining_room, RoomType.playroom),
        build=build,
    )
)
