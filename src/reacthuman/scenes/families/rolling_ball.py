"""rolling_ball: a ball rolls across a table, off its near edge and on toward the observer.

The ball starts rolling (spin matched to speed) at the table's far side; the roll speed is the
swept speed. A slow ball still arrives, only after the window has closed (paper Figure 5b).
"""

from __future__ import annotations

from reacthuman.scenes.families.base import (
    FamilySampler,
    Layout,
    SampleContext,
    fly,
    register,
    resting_z,
    rolling_spin,
    table_with_near_edge,
)
from reacthuman.scenes.spec import Family, ObjectRole, RoomType, SpeedBand

ROLL_SPEEDS = {
    SpeedBand.slow: (0.25, 0.4),
    SpeedBand.normal: (0.8, 1.1),
    SpeedBand.fast: (1.6, 2.0),
    SpeedBand.very_fast: (2.6, 3.2),
}


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    height = rng.uniform(0.72, 0.92)
    near_edge = rng.uniform(0.8, 1.3)
    table_y = rng.uniform(-0.3, 0.3)
    table, top = table_with_near_edge(ctx, "table", near_edge, table_y, height)
    depth = top.x_range[1] - top.x_range[0]
    radius = ctx.hazard.shape.size[0] / 2.0
    start_x = near_edge + depth - radius - rng.uniform(0.05, 0.15)
    y = table_y + rng.uniform(-0.3, 0.3)
    heading = rng.uniform(-0.12, 0.12)  # slightly off straight at the robot
    speed = ctx.speed(ROLL_SPEEDS)
    vel = (-speed, heading * speed, 0.0)
    pos = (start_x, y, resting_z(height, ctx.hazard))
    spin = rolling_spin(vel, radius)
    hazard = ctx.make_object(
        ctx.hazard, "hazard", ObjectRole.hazard, pos, lin_vel=vel, ang_vel=spin
    )
    path = fly(ctx, hazard, [top])
    return Layout(
        furniture=[table],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=pos,
        description=f"{ctx.hazard.looks_like} rolls across a table toward its edge and the robot",
    )


SAMPLER = register(
    FamilySampler(
        family=Family.rolling_ball,
        summary="rolls off and across",
        archetype="slide_roll",
        gravity_paced=False,
        pool=(
            "tennis_ball",
            "basketball",
            "soccer_ball",
            "beach_ball",
            "rubber_bouncy_ball",
            "baseball",
            "billiard_ball",
            "bowling_ball",
            "apple",
            "orange",
        ),
        rooms=(RoomType.living_room, RoomType.playroom, RoomType.kitchen, RoomType.dining_room),
        build=build,
    )
)
