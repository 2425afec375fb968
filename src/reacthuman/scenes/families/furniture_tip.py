"""furniture_tip: a tall piece of furniture tips over toward the observer (gravity-paced).

It stands on its front bottom edge, tilted a few degrees past balance (an inverted pendulum
released from rest), its top 0.9-1.1 m outside the reach zone; the top sweeps down toward the
robot and lands 0.4-0.9 m ahead of it. One piece in seven stands so far
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
)
from reacthuman.scenes.families.blocks import topple
from reacthuman.scenes.reach import REACH_RADIUS
from reacthuman.scenes.spec import Family, RoomType

TOP_OUTSIDE = (0.9, 1.1)  # m: how far outside the reach zone the top starts


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    depth, _width, height = ctx.hazard.shape.size
    far = ctx.out_of_reach
    ahead = rng.uniform(1.9, 2.3) if far else rng.uniform(*TOP_OUTSIDE)
    y = rng.uniform(-0.5, 0.5)
    past_balance = math.radians(rng.uniform(1.0, 4.0))
    if far:  # its top lands about its height in front of the pivot, clearly beyond reach
        pivot_x = height + ahead
    else:
        # Its top starts outside the reach zone and enters it falling, late enough that the
        # decision moment comes while the tip shows (an inverted pendulum moves little until
        # late: one whose top started at the zone's edge arrived as soon as it moved). It
        # lands 0.4-0.9 m ahead of the robot, clearly within reach.
        lean = math.atan2(depth, height) + past_balance
        pivot_x = REACH_RADIUS + ahead + height * math.sin(lean)
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
        summary="tall object tips over",
        archetype="topple",
        gravity_paced=True,
        pool=("bookshelf", "floor_lamp", "coat_rack", "cardboard_standee"),
        rooms=(RoomType.living_room, RoomType.bedroom, RoomType.office, RoomType.hallway),
        build=build,
        plan=(DODGE, DODGE, DODGE, DODGE, DODGE, NO_ACTION),
    )
)
