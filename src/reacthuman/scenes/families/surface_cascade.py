"""surface_cascade: a ball rolls off a high table, hops onto a counter, and rolls on off its end.

The robot stands at the near end of a kitchen counter, its edge within arm's reach (as in
rolling_ball). Behind the counter's far end stands a high bar table; the ball rolls along it
toward the robot during the window, drops off its edge onto the counter (every band lands on
the counter, before the reach zone), rolls the counter's length and drops off the near edge:
into hands held just short of it, or on to the floor. The prediction the family asks for is
the hop from one surface to the next; the catch is made at counter height, where a G1 standing
still can put both hands. (The paper's cascade runs table, stool, floor; one that ends on the
floor would need a full crouch, which the G1 cannot hold with its arms out.) The roll speed is
the swept speed.
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
from reacthuman.scenes.spec import Family, FurnitureKind, ObjectRole, RoomType, SpeedBand

EDGE_SPEEDS = {
    SpeedBand.slow: (0.65, 0.75),
    SpeedBand.normal: (0.95, 1.05),
    SpeedBand.fast: (1.25, 1.35),
    SpeedBand.very_fast: (1.55, 1.65),
}
# The counter is base.HANDS_COUNTER_*: its near end is where a G1 standing still holds both hands.
# The bar table's near edge: far enough that every band lands on the counter and has done
# bouncing before the reach zone (a very fast ball flies 0.3 m forward in its drop), so each
# arrives rolling: a ball still hopping as it enters meets the hands with its hop's speed,
# whatever the band (measured). The bar stands 13-28 cm above the counter: a rolling ball
# comes off it bouncier in simulation than a dropped one (a baseball rose 17 cm off a 38 cm
# drop, against the 6 cm its restitution gives), and from a 1.3-1.4 m bar, as first built, a
# baseball still hopped into the hands at the normal band, faster there than at the fast one.
BAR_EDGE = (2.1, 2.2)  # m
BAR_HEIGHT = (1.12, 1.18)  # m
# How far along the bar the ball starts: the very fast band still leaves its window and margin
# before the reach zone, and the slow one drops off the counter 3.3-3.6 s after t0.
RUN = (0.55, 0.65)  # m


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    counter_h = hands_counter_height(ctx, ctx.hazard)
    near_edge = rng.uniform(*HANDS_COUNTER_NEAR_EDGE)
    bar_h = rng.uniform(*BAR_HEIGHT)
    bar_edge = rng.uniform(*BAR_EDGE)
    table_y = rng.uniform(-0.15, 0.15)
    y = rng.uniform(-0.12, 0.12)
    run = rng.uniform(*RUN)
    radius = ctx.hazard.shape.size[0] / 2.0
    start_x = bar_edge + run
    counter, counter_top = long_table(
        ctx,
        "counter",
        near_edge,
        bar_edge - 0.02,
        table_y,
        counter_h,
        rng.uniform(0.4, 0.6),
        FurnitureKind.counter,
    )
    bar, bar_top = long_table(
        ctx,
        "bar",
        bar_edge,
        start_x + radius + rng.uniform(0.05, 0.15),
        table_y,
        bar_h,
        rng.uniform(0.4, 0.6),
    )
    speed = ctx.speed(EDGE_SPEEDS)
    pos = (start_x, y, resting_z(bar_h, ctx.hazard))
    vel = (-speed, 0.0, 0.0)
    hazard = ctx.make_object(
        ctx.hazard, "hazard", ObjectRole.hazard, pos, lin_vel=vel, ang_vel=rolling_spin(vel, radius)
    )
    path = fly(ctx, hazard, [bar_top, counter_top])
    return Layout(
        furniture=[counter, bar],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=(bar_edge, y, bar_h),
        description=(
            f"{ctx.hazard.looks_like} rolls off a high table onto a counter and along it "
            "toward the robot at its end"
        ),
    )


SAMPLER = register(
    FamilySampler(
        family=Family.surface_cascade,
        summary="rolls off a table onto a lower counter",
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
        horizon=4.0,  # the slow ball rolls 2.2 m and hops once before it reaches the hands
        plan_phase=1,
    )
)
