"""bouncing_object: a ball bounces across the floor toward the observer.

Launched 4.0-4.6 m away, low, with a horizontal speed toward the robot (the swept speed) and
a small vertical one, it bounces with its restitution during the window (a lead-cored or
concrete-filled look-alike hardly bounces at all); where it meets the robot depends on the
bounce sequence, which is what the family tests (paper 3.2). The floor is the ball's path,
not its outcome: only its arrival ends the decision moment.
"""

from __future__ import annotations

from reacthuman.scenes.families.base import (
    FamilySampler,
    Layout,
    SampleContext,
    fly,
    register,
    rolling_spin,
)
from reacthuman.scenes.spec import Family, ObjectRole, RoomType, SpeedBand

BOUNCE_SPEEDS = {
    SpeedBand.slow: (1.25, 1.4),
    SpeedBand.normal: (2.0, 2.2),
    SpeedBand.fast: (2.8, 3.0),
    SpeedBand.very_fast: (3.7, 4.0),
}


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    start = (rng.uniform(4.0, 4.6), rng.uniform(-0.5, 0.5), rng.uniform(0.35, 0.6))
    aim_y = rng.uniform(-0.3, 0.3)
    vz = rng.uniform(-1.2, 0.3)
    twist = rng.uniform(-2.0, 2.0)  # about the vertical: it does not change the bounces
    speed = ctx.speed(BOUNCE_SPEEDS)
    dx, dy = -start[0], aim_y - start[1]
    horizontal = (dx * dx + dy * dy) ** 0.5
    vel = (speed * dx / horizontal, speed * dy / horizontal, vz)
    # Topspin matched to its roll, so a bounce's friction neither brakes nor speeds it.
    roll = rolling_spin(vel, ctx.hazard.shape.size[0] / 2.0)
    hazard = ctx.make_object(
        ctx.hazard, "hazard", ObjectRole.hazard, start, lin_vel=vel, ang_vel=(*roll[:2], twist)
    )
    path = fly(ctx, hazard, [])
    return Layout(
        furniture=[],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=start,
        description=f"{ctx.hazard.looks_like} comes bouncing across the floor toward the robot",
        floor_resolves=False,
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
        shows_mass=True,
    )
)
