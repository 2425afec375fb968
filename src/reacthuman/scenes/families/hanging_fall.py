"""hanging_fall: a wall fixture drops off its hook onto a shelf and tips off it (gravity-paced).

A mirror, picture, clock, notice board or TV hangs above head height on the front wall, just
over a narrow shelf (1.85-1.95 m). Hung from a hook behind its top, it leans forward a little,
as hung frames do. The hook lets go: the fixture drops 6-12 cm straight down onto the shelf,
lands on its front bottom edge 0.6-1.5 degrees past balance (the landing sets it turning,
``base.topple``), tips forward about the shelf's front edge, slowly at first (an inverted
pendulum), then falls off it and to the floor. The drop is what a person sees first; an
inverted pendulum released from rest moves a centimetre or two in the half second before a
decision that leaves time to act, too little to see. A free fall from a wall lasts about half a
second, so the tip is what leaves the decision moment its time; its top edge is the hazard
point. It starts above the reach zone and enters it falling. The shelf stands so that the top
edge comes down through chest height where a G1 standing still holds its hands
(``base.HANDS_MEET_*``): a fixture tipping off a wall lands within a few tens of centimetres of
it, so a catch a G1 could make (it walks 0.5 m/s) needs the wall close. One group in six stands
beyond reach (No_Action, ``plan``).
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    CATCH,
    DODGE,
    NO_ACTION,
    FamilySampler,
    Layout,
    SampleContext,
    register,
)
from reacthuman.scenes.families.blocks import (
    HANDS_MEET_AHEAD,
    HANDS_MEET_HEIGHT,
    WOOD_COLORS,
    furniture,
    topple,
)
from reacthuman.scenes.spec import Family, FurnitureKind, RoomType

RELEASE = math.radians(62.0)  # it pivots on the ledge's edge to about here, then flies
LEDGE_HEIGHT = (1.85, 1.95)  # m: its top edge starts above the reach zone (2.0 m)
DROP = (0.06, 0.12)  # m: how far it falls onto the shelf when the hook lets go
SHELF_GAP = (0.01, 0.03)  # m: the shelf is this much deeper than the fixture is thick
BOARD = 0.03  # m: the shelf board's thickness
# A fixture shorter than SHORT m stands higher by RAISE times the difference. Raised by the
# difference alone, no 30 cm wall clock that reached the robot left the decision moment its
# time (0.43-0.59 s of the 0.62 designed for): 16 of 120 groups past the default seeds found
# no design, none of 120 now. (Every fixture under 0.7 m raised by the difference did as well,
# but then the oracle's dodges of picture frames falling from higher were struck.)
SHORT = 0.45
RAISE = 2.5


def _comes_down_through(points: list[tuple[float, float]], z: float) -> float:
    """The x at which a path of (x, z) points first comes down through height ``z``."""
    for (ax, az), (bx, bz) in zip(points, points[1:], strict=False):
        if az >= z > bz:
            return ax + (bx - ax) * (az - z) / (az - bz)
    return points[-1][0]


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    far = ctx.out_of_reach
    thickness, width, height = ctx.hazard.shape.size
    # A short fixture tips off faster: it stands higher, so it falls longer before it reaches.
    ledge_z = rng.uniform(*LEDGE_HEIGHT) + RAISE * max(0.0, SHORT - height)
    meet = rng.uniform(*HANDS_MEET_AHEAD)
    meet_z = rng.uniform(*HANDS_MEET_HEIGHT)
    far_wall = rng.uniform(2.9, 3.3)
    ledge_depth = thickness + rng.uniform(*SHELF_GAP)
    y = rng.uniform(-0.3, 0.3)
    past = math.radians(rng.uniform(0.6, 1.5))
    color = rng.choice(WOOD_COLORS)
    drop = rng.uniform(*DROP)
    # The motion does not depend on where the ledge stands: tip the fixture off a front edge
    # at x = 0, then move both to where the ledge stands.
    hazard, path = topple(
        ctx, ctx.hazard, "hazard", 0.0, y, past, base_z=ledge_z, release=RELEASE, drop=drop
    )
    if far:
        front = far_wall - ledge_depth
    else:  # the top edge comes down through chest height at the hands
        front = meet - _comes_down_through([(s.pos[0], s.pos[2]) for s in path.samples], meet_z)
    x, hy, hz = hazard.pose.pos
    hazard = hazard.model_copy(
        update={"pose": hazard.pose.model_copy(update={"pos": (x + front, hy, hz)})}
    )
    path = path.moved_along_x(front)
    wall = front + ledge_depth
    ledge = furniture(
        "ledge",
        FurnitureKind.wall_shelf,
        (wall - ledge_depth / 2.0, y, ledge_z - BOARD / 2.0),
        (ledge_depth, max(width + 0.3, 0.8), BOARD),
        color,
        rng.uniform(0.4, 0.6),
    )
    return Layout(
        furniture=[ledge],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=(front, y, ledge_z + drop + height / 2.0),
        description=(
            f"{ctx.hazard.looks_like} hanging on the wall comes off its hook, drops onto the "
            "shelf below it and tips forward toward the robot"
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
        room_heights=(2.8, 3.2),  # the high ledge and the fixture on it
        # Glass fronts, faces and screens make most fixtures dodges; the cork board is caught.
        plan=(CATCH, DODGE, CATCH, DODGE, NO_ACTION, DODGE),
    )
)
