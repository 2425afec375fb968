"""bouncing_object: a ball bounces across the floor toward the observer.

Launched 2.5-3.8 m away with a horizontal speed toward the robot (the swept speed) and a
random vertical one, it bounces with its restitution; where it meets the robot depends on
the bounce sequence, which is what the family tests (paper 3.2).
"""

from __future__ import annotations

from reacthuman.scenes.families.base import FamilySampler, Layout, SampleContext, fly, register
from reacthuman.scenes.spec import Family, ObjectRole, RoomType, SpeedBand

BOUNCE_SPEEDS = {
    SpeedBand.slow: (1.0, 1.5),
    SpeedBand.normal: (2.0, 2.8),
    SpeedBand.fast: (3.5, 4.5),
    SpeedBand.very_fast: (5.5, 6.5),
}


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    start = (rng.uniform(2.5, 3.8), rng.uniform(-0.5, 0.5), rng.uniform(0.8, 1.5))
    aim_y = rng.uniform(-0.3, 0.3)
    vz = rng.uniform(-1.5, 1.0)
    spin = (rng.uniform(-4.0, 4.0), rng.uniform(-4.0, 4.0), rng.uniform(-2.0, 2.0))
    speed = ctx.speed(BOUNCE_SPEEDS)
    dx, dy = -start[0], aim_y - start[1]
    horizontal = (dx * dx + dy * dy) ** 0.5
    vel = (speed * dx / horizontal, speed * dy / horizontal, vz)
    hazard = ctx.make_object(
        ctx.hazard, "hazard", ObjectRole.hazard, start, lin_vel=vel, ang_vel=spin
    )
    path = fly(ctx, hazard, [])
    return Layout(
        furniture=[],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=start,
        description=f"{ctx.hazard.looks_like} comes bouncing across the floor toward the robot",
    )


SAMPLER = register(
    FamilySampler(
        family=Family.bouncing_object,
        summary="bounces toward observer",
        archetype="ballistic",
        gravity_paced=False,
        pool=(
            "tennis_ball",
            "basketball",
            "soccer_ball",
            "rubber_bouncy_ball",
            "beach_ball",
            "baseball",
        ),
        rooms=(RoomType.playroom, RoomType.living_room, RoomType.garage, RoomType.hallway),
        build=build,
    )
)
