"""rolling_ball: a ball rolls along a counter toward the robot, which stands at its end.

The robot stands facing the near end of a long counter, its edge within arm's reach; the ball
starts rolling (spin matched to speed) at the far end, beyond the reach zone, and rolls the
length of the counter toward the robot and off the near edge. A person catches it as it drops
off the edge, at counter height: where a G1 standing still can put both hands (a ball rolling
on along the floor would need a full crouch, which the G1 cannot hold with its arms out). The
roll speed is the swept speed. A slow ball is still far down the counter when the window closes
and arrives well after (paper Figure 5b).
"""

from __future__ import annotations

from reacthuman.scenes.families.base import FamilySampler, Layout, SampleContext, register
from reacthuman.scenes.families.blocks import (
    HANDS_COUNTER_NEAR_EDGE,
    fly,
    hands_counter_height,
    long_table,
    resting_z,
    rolling_spin,
)
from reacthuman.scenes.spec import Family, ObjectRole, RoomType, SpeedBand

ROLL_SPEEDS = {
    SpeedBand.slow: (0.6, 0.7),
    SpeedBand.normal: (0.95, 1.05),
    SpeedBand.fast: (1.25, 1.35),
    SpeedBand.very_fast: (1.5, 1.6),
}
# The counter is base.HANDS_COUNTER_*, where a G1 standing still holds both hands (the reach
# map in assets/gaits.json: 0.4-0.45 m ahead of the chest, 0.1-0.2 m below it): a slow ball
# drops off almost straight down, into hands held just short of the edge.
# The ball starts far enough down the table that the very fast band still leaves a 0.3 s window
# and its margin before it enters the reach zone, and near enough that the slow one reaches
# the edge about 3 s after t0, inside the ground-truth horizon.
START = (2.38, 2.46)  # m


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    height = hands_counter_height(ctx, ctx.hazard)
    near_edge = rng.uniform(*HANDS_COUNTER_NEAR_EDGE)
    table_y = rng.uniform(-0.15, 0.15)
    start_x = rng.uniform(*START)
    radius = ctx.hazard.shape.size[0] / 2.0
    table, top = long_table(
        ctx,
        "table",
        near_edge,
        start_x + radius + rng.uniform(0.05, 0.15),
        table_y,
        height,
        rng.uniform(0.4, 0.6),
    )
    y = rng.uniform(-0.12, 0.12)
    heading = rng.uniform(-0.04, 0.04)  # slightly off straight at the robot
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
        description=(
            f"{ctx.hazard.looks_like} rolls along a table toward its end, where the robot stands"
        ),
    )


SAMPLER = register(
    FamilySampler(
        family=Family.rolling_ball,
        summary="rolls along a table and off its end",
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
        # The slow ball rolls the 1.9-2.0 m of the counter in 2.8-3.3 s and drops off its end:
        # a heavy ball rolls a little slower than the closed form, and landed after 3.5 s.
        horizon=4.0,
        plan_phase=0,
    )
)
