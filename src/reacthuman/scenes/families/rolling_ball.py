"""rolling_ball: a ball rolls across a table, off its near edge and on toward the observer.

The ball starts rolling (spin matched to speed) on a table that stands beyond the reach zone;
it rolls off the near edge, bounces and rolls across the floor into reach. The roll speed is
the swept speed. A slow ball is still on the table when the window closes and arrives well
after (paper Figure 5b). The floor is the ball's path, not its outcome: only its arrival ends
the decision moment.
"""

from __future__ import annotations

from reacthuman.scenes.families.base import (
    FamilySampler,
    Layout,
    SampleContext,
    fly,
    long_table,
    register,
    resting_z,
    rolling_spin,
)
from reacthuman.scenes.spec import Family, ObjectRole, RoomType, SpeedBand

ROLL_SPEEDS = {
    SpeedBand.slow: (0.55, 0.65),
    SpeedBand.normal: (0.9, 1.0),
    SpeedBand.fast: (1.25, 1.35),
    SpeedBand.very_fast: (1.6, 1.8),
}


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    height = rng.uniform(0.72, 0.92)
    near_edge = rng.uniform(1.5, 1.9)
    table_y = rng.uniform(-0.3, 0.3)
    run = rng.uniform(0.55, 0.9)  # on the table, from the start to the near edge
    radius = ctx.hazard.shape.size[0] / 2.0
    start_x = near_edge + run
    table, top = long_table(
        ctx,
        "table",
        near_edge,
        start_x + radius + rng.uniform(0.05, 0.15),
        table_y,
        height,
        rng.uniform(0.4, 0.6),
    )
    y = table_y + rng.uniform(-0.25, 0.25)
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
        floor_resolves=False,
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
