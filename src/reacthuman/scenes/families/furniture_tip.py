"""furniture_tip: a tall piece of furniture tips over toward the observer (gravity-paced).

It stands on its front bottom edge, tilted a few degrees past balance (an inverted pendulum
released from rest); the top sweeps down toward the robot. One piece in seven stands so far
away that it falls well short (No_Action, ``plan``). Everything it stages is too large to
hold in two hands: every piece that reaches the robot is a dodge.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    DODGE,
    NO_ACTION,
    FamilySampler,
    Layout,
    SampleContext,
    register,
    topple,
)
from reacthuman.scenes.spec import Family, RoomType


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    height = ctx.hazard.shape.size[2]
    # Its top lands about its height in front of the pivot: either clearly within reach or,
    # for one piece in seven, clearly beyond it (No_Action), never on the edge.
    far = ctx.out_of_reach
    pivot_x = height + (rng.uniform(1.9, 2.3) if far else rng.uniform(-0.6, 0.6))
    pivot_x = max(pivot_x, 0.9)
    y = rng.uniform(-0.5, 0.5)
    past_balance = math.radians(rng.uniform(1.0, 4.0))
    hazard, path = topple(ctx, ctx.hazard, "hazard", pivot_x, y, past_balance)
    return Layout(
        furniture=[],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=(pivot_x, y, height * 0.6),
        description=f"{ctx.hazard.looks_like} starts to tip over toward the robot",
        reaches=not far,
    )


SAMPLER = register(
    FamilySampler(
        family=Family.furniture_tip,
        summary="tall furniture tips over",
        archetype="topple",
        gravity_paced=True,
        pool=("bookshelf", "floor_lamp", "coat_rack", "cardboard_standee"),
        rooms=(RoomType.living_room, RoomType.bedroom, RoomType.office, RoomType.hallway),
        build=build,
        plan=(DODGE, DODGE, DODGE, DODGE, DODGE, NO_ACTION),
    )
)
