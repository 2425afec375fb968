"""stair_tumble: an object tumbles down a flight of stairs toward the observer.

A split-level hall: a short flight (2-3 steps) comes down toward the robot from an upper
landing to a lower landing at counter height (``HANDS_COUNTER_*``), whose open near edge is
where a G1 standing on the hall floor holds both hands. The object rolls across the upper
landing toward the top step at the swept speed (during the window), hops down the steps, rolls
along the lower landing into reach and drops off its edge: a person catches it there. (Before,
the stairs came down to the floor and the object rolled on along it, where a G1, which cannot
crouch with its arms out, could never reach: 0 of 10 catches.) The floor is the object's
outcome, not its path.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import FamilySampler, Layout, SampleContext, register
from reacthuman.scenes.families.blocks import (
    HANDS_COUNTER_NEAR_EDGE,
    WOOD_COLORS,
    fly,
    furniture,
    hands_counter_height,
    mu,
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
    roll = rng.uniform(0.9, 1.2)  # along the upper landing, from the start to the top step
    rise = rng.uniform(0.16, 0.19)
    run = rng.uniform(0.26, 0.30)
    width = rng.uniform(0.9, 1.2)
    foot = rng.uniform(1.6, 2.2)  # the stairs' foot on the lower landing, beyond the reach zone
    y = rng.uniform(-0.1, 0.1)
    color = rng.choice(WOOD_COLORS)
    friction = rng.uniform(0.4, 0.6)
    obj_y = y + rng.uniform(-0.1, 0.1) * width
    level = hands_counter_height(ctx, ctx.hazard)  # the lower landing
    near_edge = rng.uniform(*HANDS_COUNTER_NEAR_EDGE)
    edge_speed = ctx.speed(EDGE_SPEEDS)

    total_rise = steps * rise
    landing_x = foot + steps * run  # where the upper landing begins
    lower = furniture(  # a solid block from the floor, under the stairs too
        "lower_landing",
        FurnitureKind.platform,
        ((near_edge + landing_x) / 2.0, y, level / 2.0),
        (landing_x - near_edge, width, level),
        color,
        friction,
    )
    stairs = furniture(
        "stairs",
        FurnitureKind.stairs,
        (foot + steps * run / 2.0, y, level + total_rise / 2.0),
        (steps * run, width, total_rise),
        color,
        friction,
        steps=steps,
    )
    top = level + total_rise
    upper = furniture(
        "landing",
        FurnitureKind.platform,
        (landing_x + landing_depth / 2.0, y, top / 2.0),
        (landing_depth, width, top),
        color,
        friction,
    )
    y_range = (y - width / 2.0, y + width / 2.0)
    # Objects tumble over the treads rather than slide to a stop on one: they keep their speed.
    supports = [Support(level, (near_edge, foot), y_range, friction)]
    supports += [
        Support(
            level + i * rise, (foot + (i - 1) * run, foot + i * run), y_range, friction, tumble=True
        )
        for i in range(1, steps + 1)
    ]
    supports.append(Support(top, (landing_x, landing_x + landing_depth), y_range, friction))
    half_x = ctx.hazard.shape.size[0] / 2.0
    gap = min(roll, landing_depth - 2.0 * half_x - 0.05)
    pos = (landing_x + half_x + gap, obj_y, resting_z(top, ctx.hazard))
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
        furniture=[lower, stairs, upper],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=(landing_x, obj_y, top),
        description=(
            f"{ctx.hazard.looks_like} tumbles down the stairs toward the robot and rolls to "
            "the landing's edge"
        ),
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
        horizon=5.0,  # the slow band drops off the lower landing 3.5-4.5 s after t0 (measured)
        plan_phase=2,
    )
)
