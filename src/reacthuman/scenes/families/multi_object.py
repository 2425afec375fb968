"""multi_object: momentum runs down a row of identical objects toward the observer.

The robot stands facing the near end of a long counter-height table, its edge within arm's
reach. A row of 2-3 touching balls lies at that end, pointing at the robot; a striker of the
same kind is released at t0 (after a 0.5 s settling pre-roll) at the swept speed and rolls
toward the row during the window. After the freeze the impulse travels down the row and the
ball nearest the robot rolls off the near edge, where a person catches it at counter height
(a ball rolling on along the floor would need a full crouch, which the G1 cannot hold with
its arms out). It is at rest until the strike, so the model must reason about the chain
(paper 3.2); it arrives when the strike sets it moving (``reach.starts_in_reach``).
"""

from __future__ import annotations

from reacthuman.scenes.families.base import FamilySampler, Layout, SampleContext, register
from reacthuman.scenes.families.blocks import (
    HANDS_COUNTER_CENTRE,
    fly,
    long_table,
    resting_z,
    rolling_spin,
)
from reacthuman.scenes.kinematics import SIM_MAX_RESTITUTION, MotionPath
from reacthuman.scenes.spec import Family, ObjectRole, RoomType, SpeedBand

STRIKE_SPEEDS = {
    SpeedBand.slow: (1.1, 1.2),
    SpeedBand.normal: (1.6, 1.7),
    SpeedBand.fast: (2.1, 2.2),
    SpeedBand.very_fast: (2.6, 2.8),
}
SETTLE = 0.5  # s
GAP = 0.003  # m between neighbours in the row
# The near edge and the top where a G1 standing still holds both hands (the reach map in
# assets/gaits.json: 0.35-0.4 m ahead of the chest, 0.15-0.25 m below it): the last ball rolls
# off slowly and drops almost straight down, into hands held just short of the edge.
NEAR_EDGE = (0.36, 0.42)  # m ahead of the robot's feet
HEIGHT = (0.88, 0.98)  # m: a kitchen counter or a bar
# The striker's run to the row: long enough that the very fast band still leaves a 0.3 s
# window and its margin before the strike sets the hazard moving.
APPROACH = (2.05, 2.25)  # m


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    height = min(rng.uniform(*HEIGHT), HANDS_COUNTER_CENTRE[1] - ctx.hazard.shape.size[2] / 2.0)
    near_edge = rng.uniform(*NEAR_EDGE)
    table_y = rng.uniform(-0.15, 0.15)
    count = rng.integer(2, 3)
    y = rng.uniform(-0.12, 0.12)
    behind = rng.uniform(0.03, 0.08)  # the first ball's centre this far behind the edge
    approach = rng.uniform(*APPROACH)
    speed = ctx.speed(STRIKE_SPEEDS)

    obj = ctx.hazard
    size_x = obj.shape.size[0]
    z = resting_z(height, obj)
    ball = obj.shape.kind.value == "sphere"
    objects = []
    first_x = near_edge + behind  # the item nearest the robot
    for i in range(count):
        x = first_x + i * (size_x + GAP)
        role = ObjectRole.hazard if i == 0 else ObjectRole.stack
        objects.append(ctx.make_object(obj, "hazard" if i == 0 else f"row_{i}", role, (x, y, z)))
    striker_x = first_x + (count - 1) * (size_x + GAP) + size_x + approach
    table, top = long_table(
        ctx, "table", near_edge, striker_x + size_x + 0.1, table_y, height, rng.uniform(0.4, 0.6)
    )
    striker_vel = (-speed, 0.0, 0.0)
    striker = ctx.make_object(
        obj,
        "striker",
        ObjectRole.trigger,
        (striker_x, y, z),
        lin_vel=striker_vel,
        ang_vel=rolling_spin(striker_vel, size_x / 2.0) if ball else (0.0, 0.0, 0.0),
        launch_at_t0=True,
    )
    hazard = objects[0]
    # Equal masses, restitution e per contact: each collision passes on (1 + e) / 2 of the speed.
    e = min(hazard.restitution, SIM_MAX_RESTITUTION)
    kick = speed * ((1.0 + e) / 2.0) ** count
    strike_time = approach / speed
    path = MotionPath()
    path.append(0.0, hazard.pose.pos, (0.0, 0.0, 0.0), 0.0)
    path.hold_until(strike_time)
    fly(ctx, hazard, [top], start_t=path.end.t, vel=(-kick, 0.0, 0.0), path=path)
    plural = obj.looks_like.removeprefix("a ").removeprefix("an ")
    return Layout(
        furniture=[table],
        objects=[*objects, striker],
        primary=hazard.id,
        path=path,
        event_origin=(first_x + count * size_x / 2.0, y, height),
        description=(
            f"one {plural} rolls into a row of {count} more lying on a table, and the "
            "push runs down the row toward the table's end, where the robot stands"
        ),
        t0=SETTLE,
        extra_frame_points=[striker.pose.pos],
    )


SAMPLER = register(
    FamilySampler(
        family=Family.multi_object,
        summary="momentum runs down a row",
        archetype="causal_chain",
        gravity_paced=False,
        # Lively balls, as in Newton's cradle: rows of cans or glasses shove along as a block
        # and stop, and in simulation a row of apples or oranges passes on too little of a
        # fast strike for the speed bands to differ (arrival speed x1.8, not x2).
        # A row of bowling balls (at a bowling alley's ball return) is the dodge.
        pool=("billiard_ball", "tennis_ball", "baseball", "bowling_ball"),
        rooms=(RoomType.kitchen, RoomType.dining_room, RoomType.playroom, RoomType.office),
        build=build,
        plan_phase=1,
    )
)
