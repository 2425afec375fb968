"""stair_tumble: an object tumbles down a flight of stairs toward the observer at its foot.

The stairs rise away from the robot and their foot stands beyond the reach zone; the object
rolls across the top landing toward the first step at the swept speed (during the window),
hops down the steps and rolls on across the floor into reach. The floor is the ball's path,
not its outcome: only its arrival ends the decision moment.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    WOOD_COLORS,
    FamilySampler,
    Layout,
    SampleContext,
    fly,
    furniture,
    mu,
    register,
    resting_z,
    rolling_spin,
)
from reacthuman.scenes.kinematics import G, Support
from reacthuman.scenes.spec import Family, FurnitureKind, ObjectRole, RoomType, SpeedBand

# A ball nudged over the top step slower than about 0.7 m/s can settle on a tread.
EDGE_SPEEDS = {
    SpeedBand.slow: (0.8, 0.85),
    SpeedBand.normal: (1.4, 1.5),
    SpeedBand.fast: (2.2, 2.35),
    SpeedBand.very_fast: (3.5, 3.7),
}


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    steps = rng.integer(2, 3)
    landing_depth = rng.uniform(1.3, 1.6)
    roll = rng.uniform(0.9, 1.2)  # along the landing, from the start to the top step
    rise = rng.uniform(0.16, 0.19)
    run = rng.uniform(0.26, 0.30)
    width = rng.uniform(0.9, 1.2)
    bottom = rng.uniform(1.6, 2.2)  # the stairs' foot, beyond the reach zone
    y = rng.uniform(-0.3, 0.3)
    color = rng.choice(WOOD_COLORS)
    friction = rng.uniform(0.4, 0.6)
    obj_y = y + rng.uniform(-0.2, 0.2) * width
    edge_speed = ctx.speed(EDGE_SPEEDS)

    total_rise = steps * rise
    stairs = furniture(
        "stairs",
        FurnitureKind.stairs,
        (bottom + steps * run / 2.0, y, total_rise / 2.0),
        (steps * run, width, total_rise),
        color,
        friction,
        steps=steps,
    )
    landing_x = bottom + steps * run
    landing = furniture(
        "landing",
        FurnitureKind.platform,
        (landing_x + landing_depth / 2.0, y, total_rise / 2.0),
        (landing_depth, width, total_rise),
        color,
        friction,
    )
    y_range = (y - width / 2.0, y + width / 2.0)
    # Objects tumble over the treads rather than slide to a stop on one: they keep their speed.
    supports = [
        Support(
            i * rise, (bottom + (i - 1) * run, bottom + i * run), y_range, friction, tumble=True
        )
        for i in range(1, steps + 1)
    ]
    supports.append(Support(total_rise, (landing_x, landing_x + landing_depth), y_range, friction))
    half_x = ctx.hazard.shape.size[0] / 2.0
    gap = min(roll, landing_depth - 2.0 * half_x - 0.05)
    pos = (landing_x + half_x + gap, obj_y, resting_z(total_rise, ctx.hazard))
    hazard = ctx.make_object(ctx.hazard, "hazard", ObjectRole.hazard, pos)
    rolling = ctx.hazard.shape.kind.value == "sphere"
    travel = half_x + gap  # until the centre of mass is over the first step's edge
    decel = 0.0 if rolling else mu(hazard, friction) * G
    speed = math.sqrt(edge_speed**2 + 2.0 * decel * travel)
    vel = (-speed, 0.0, 0.0)
    spin = rolling_spin(vel, half_x) if rolling else (0.0, 0.0, 0.0)
    hazard = hazard.model_copy(update={"lin_vel": vel, "ang_vel": spin})
    path = fly(ctx, hazard, supports)
    return Layout(
        furniture=[stairs, landing],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=(landing_x, obj_y, total_rise),
        description=f"{ctx.hazard.looks_like} tumbles down the stairs toward the robot",
        floor_resolves=False,
    )


SAMPLER = register(
    FamilySampler(
        family=Family.stair_tumble,
        summary="tumbles down the stairs",
        archetype="fall",
        gravity_paced=False,
        # Round things: boxes and bags tumbling down stairs stop on a tread as often as not,
        # which no sampler can design for (the simulation would reject them).
        pool=("basketball", "soccer_ball", "tennis_ball", "bowling_ball", "beach_ball", "orange"),
        rooms=(RoomType.hallway,),
        build=build,
    )
)
