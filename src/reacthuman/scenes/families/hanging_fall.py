"""hanging_fall: a wall fixture standing on a ledge tips forward off it (gravity-paced).

A mirror, picture, clock, notice board or TV stands on a high ledge (a tall sideboard or a
mantel shelf, 1.2-1.5 m) against the front wall, held at the top by a hook. The hook has let
go: the fixture leans 0.3-0.9 degrees past balance and tips forward about the ledge's front
edge, slowly at first (an inverted pendulum), then falls off the ledge and to the floor. A
free fall from a wall lasts about half a second, so the tip is what leaves the decision moment
its time; its top edge is the hazard point. About one wall in seven stands beyond reach
(No_Action).
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    WOOD_COLORS,
    FamilySampler,
    Layout,
    SampleContext,
    furniture,
    register,
    topple,
)
from reacthuman.scenes.spec import Family, FurnitureKind, RoomType

FAR_SHARE = 0.15
RELEASE = math.radians(62.0)  # it pivots on the ledge's edge to about here, then flies


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    far = ctx.meant(FAR_SHARE)
    wall = rng.uniform(2.9, 3.3) if far else rng.uniform(1.5, 1.75)
    ledge_z = rng.uniform(1.2, 1.5)
    thickness, width, height = ctx.hazard.shape.size
    ledge_depth = max(rng.uniform(0.18, 0.28), thickness + 0.04)
    y = rng.uniform(-0.3, 0.3)
    past = math.radians(rng.uniform(0.3, 0.9))
    color = rng.choice(WOOD_COLORS)
    front = wall - ledge_depth
    ledge = furniture(
        "ledge",
        FurnitureKind.counter,
        (wall - ledge_depth / 2.0, y, ledge_z / 2.0),
        (ledge_depth, max(width + 0.3, 0.8), ledge_z),
        color,
        rng.uniform(0.4, 0.6),
    )
    hazard, path = topple(
        ctx, ctx.hazard, "hazard", front, y, past, base_z=ledge_z, release=RELEASE
    )
    return Layout(
        furniture=[ledge],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=(front, y, ledge_z + height / 2.0),
        description=(
            f"{ctx.hazard.looks_like} standing on a ledge against the wall tips forward "
            "toward the robot"
        ),
        front_wall=wall,
        reaches=not far,
    )


SAMPLER = register(
    FamilySampler(
        family=Family.hanging_fall,
        summary="wall fixture detaches",
        archetype="fall",
        gravity_paced=True,
        pool=("wall_mirror", "picture_frame", "wall_clock", "cork_board", "flat_screen_tv"),
        rooms=(RoomType.living_room, RoomType.bedroom, RoomType.hallway, RoomType.office),
        build=build,
    )
)
