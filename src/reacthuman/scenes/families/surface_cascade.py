"""surface_cascade: a ball rolls along a counter, off it onto a bench below, then the floor.

The counter stands beyond the reach zone; the ball rolls along it toward the robot during the
window, drops onto a low bench at the counter's foot, hops to the floor and rolls on into
reach. The bench's seat spans every landing point the four speed bands produce, so the
cascade happens whatever the band; the floor is the ball's path, not its outcome.
"""

from __future__ import annotations

from reacthuman.scenes.families.base import (
    WOOD_COLORS,
    FamilySampler,
    Layout,
    SampleContext,
    fly,
    furniture,
    long_table,
    register,
    resting_z,
    rolling_spin,
)
from reacthuman.scenes.kinematics import Support
from reacthuman.scenes.spec import Family, FurnitureKind, ObjectRole, RoomType, SpeedBand

EDGE_SPEEDS = {
    SpeedBand.slow: (0.55, 0.65),
    SpeedBand.normal: (0.9, 1.0),
    SpeedBand.fast: (1.25, 1.35),
    SpeedBand.very_fast: (1.6, 1.75),
}
SEAT = (0.55, 0.42)  # m, the bench seat: along the roll, across it


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    counter_h = rng.uniform(0.88, 1.02)
    near_edge = rng.uniform(1.6, 1.9)
    counter_y = rng.uniform(-0.2, 0.2)
    run = rng.uniform(0.5, 0.8)
    radius = ctx.hazard.shape.size[0] / 2.0
    start_x = near_edge + run
    counter, top = long_table(
        ctx,
        "counter",
        near_edge,
        start_x + radius + rng.uniform(0.05, 0.15),
        counter_y,
        counter_h,
        rng.uniform(0.4, 0.6),
        FurnitureKind.counter,
    )
    stool_h = rng.uniform(0.45, 0.55)
    y = counter_y + rng.uniform(-0.12, 0.12)
    stool_x = near_edge + 0.02 - SEAT[0] / 2.0
    stool = furniture(
        "stool",
        FurnitureKind.stool,
        (stool_x, y, stool_h / 2.0),
        (SEAT[0], SEAT[1], stool_h),
        rng.choice(WOOD_COLORS),
        rng.uniform(0.4, 0.6),
    )
    seat = Support(
        stool_h,
        (stool_x - SEAT[0] / 2.0, stool_x + SEAT[0] / 2.0),
        (y - SEAT[1] / 2.0, y + SEAT[1] / 2.0),
        stool.friction,
    )
    speed = ctx.speed(EDGE_SPEEDS)
    pos = (start_x, y, resting_z(counter_h, ctx.hazard))
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
        event_origin=(near_edge + run / 2.0, y, counter_h),
        description=(
            f"{ctx.hazard.looks_like} rolls along a counter toward a bench below its edge "
            "and the robot"
        ),
        floor_resolves=False,
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
