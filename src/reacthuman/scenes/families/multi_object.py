"""multi_object: momentum runs down a row of identical objects toward the observer.

A row of 2-3 touching balls lies on a table pointing at the robot; a striker of the same
kind is released at t0 (after a 0.5 s settling pre-roll) at the swept speed. The impulse
travels down the row and the last item, nearest the table edge, is knocked off toward the
robot. It is at rest until then, so the model must reason about the chain (paper 3.2).
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
from reacthuman.scenes.kinematics import SIM_MAX_RESTITUTION, Path
from reacthuman.scenes.spec import Family, ObjectRole, RoomType, SpeedBand

STRIKE_SPEEDS = {
    SpeedBand.slow: (0.8, 1.0),
    SpeedBand.normal: (1.3, 1.6),
    SpeedBand.fast: (1.9, 2.3),
    SpeedBand.very_fast: (2.7, 3.2),
}
SETTLE = 0.5  # s
GAP = 0.003  # m between neighbours in the row


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    height = rng.uniform(0.74, 0.92)
    near_edge = rng.uniform(0.7, 1.2)
    table_y = rng.uniform(-0.3, 0.3)
    table, top = table_with_near_edge(ctx, "table", near_edge, table_y, height)
    count = rng.integer(2, 3)
    y = table_y + rng.uniform(-0.2, 0.2)
    margin = rng.uniform(0.02, 0.06)
    approach = rng.uniform(0.2, 0.35)
    speed = ctx.speed(STRIKE_SPEEDS)

    obj = ctx.hazard
    size_x = obj.shape.size[0]
    z = resting_z(height, obj)
    ball = obj.shape.kind.value == "sphere"
    objects = []
    first_x = near_edge + size_x / 2.0 + margin  # the item nearest the robot
    for i in range(count):
        x = first_x + i * (size_x + GAP)
        role = ObjectRole.hazard if i == 0 else ObjectRole.stack
        objects.append(ctx.make_object(obj, "hazard" if i == 0 else f"row_{i}", role, (x, y, z)))
    striker_x = first_x + (count - 1) * (size_x + GAP) + size_x + approach
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
    path = Path()
    path.append(0.0, hazard.pose.pos, (0.0, 0.0, 0.0))
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
            "push runs down the row toward the table edge nearest the robot"
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
        # Balls, as in Newton's cradle: rows of cans or glasses shove along as a block and
        # stop, which the simulation rejects more often than not.
        pool=("billiard_ball", "tennis_ball", "baseball", "apple", "orange"),
        rooms=(RoomType.kitchen, RoomType.dining_room, RoomType.playroom, RoomType.office),
        build=build,
    )
)
