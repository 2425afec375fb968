"""furniture_tip: a tall piece of furniture tips over toward the observer (gravity-paced).

It stands on its front bottom edge, tilted a few degrees past balance (an inverted pendulum
released from rest); the top sweeps down toward the robot. Pieces standing farther away than
their height plus the reach zone fall short (No_Action).
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import FamilySampler, Layout, SampleContext, register, topple
from reacthuman.scenes.spec import Family, RoomType


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    pivot_x = rng.uniform(1.0, 2.8)
    y = rng.uniform(-0.5, 0.5)
    past_balance = math.radians(rng.uniform(1.0, 4.0))
    hazard, path = topple(ctx, ctx.hazard, "hazard", pivot_x, y, past_balance)
    height = ctx.hazard.shape.size[2]
    return Layout(
        furniture=[],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=(pivot_x, y, height * 0.6),
        description=f"{ctx.hazard.looks_like} starts to tip over toward the robot",
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
    )
)
