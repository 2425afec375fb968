"""stack_collapse: a leaning stack of identical items is nudged and collapses toward the robot.

The stack stands on a table beyond the reach zone. Each level is set a little further toward
the robot than the one below, so that the items above the bottom one have their combined
centre of mass just inside its front edge (8-12 % of the balancing offset): the stack stands
through a 0.5 s settling pre-roll. At t0 the upper stack is nudged toward the robot (it turns
about that edge at 0.12-0.3 rad/s, as from a bump against the table): it tips past balance,
teeters (an inverted pendulum, gravity-paced), then collapses, and its top item, the primary
hazard, is flung off toward the robot and falls into reach.

(A stack set past balance from rest, as first built, came down 0.3-0.7 s sooner in
simulation than the closed form said whatever the design: its 2 mm gaps close as the items
settle, and that jolt, not the design's tilt of a few thousandths of a radian, set when it
fell. Settled first and set turning by the nudge, the fall follows the closed form.)
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    CATCH,
    DODGE,
    FamilySampler,
    Layout,
    SampleContext,
    register,
)
from reacthuman.scenes.families.blocks import fly, long_table
from reacthuman.scenes.kinematics import G, MotionPath, integrate_angle
from reacthuman.scenes.spec import Family, ObjectRole, RoomType

GAP = 0.002  # m between stacked items so none starts inside another
RELEASE = math.radians(35.0)  # the top item leaves the teetering column about here
SETTLE = 0.5  # s of pre-roll: the standing stack settles before the nudge
INSIDE = (0.08, 0.12)  # the upper stack's centre inside the edge, as a share of the offset
# rad/s the upper stack still turns at as it passes balance after the nudge: what sets how
# fast it then comes down (the nudge itself is what it takes to get there, per stack).
OVER = (0.1, 0.2)
SLACK = 0.2  # s of the decision moment's slack (``Layout.design_slack``)
TALL_SLACK = 0.3  # ... for a stack of items taller than deep


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    height = rng.uniform(0.72, 0.9)
    size_x, _size_y, size_z = ctx.hazard.shape.size
    thin = size_z < 0.05
    # Beyond the reach zone; a low stack of thin things throws its top item less far.
    near_edge = rng.uniform(1.25, 1.4) if thin else rng.uniform(1.35, 1.6)
    table_y = rng.uniform(-0.3, 0.3)
    levels = rng.integer(7, 10) if thin else rng.integer(4, 6)
    fits = int((ctx.room_height - 0.5 - height) / (size_z + GAP))  # keep clear of the ceiling
    levels = max(min(levels, fits), 4)
    inside = rng.uniform(*INSIDE)
    offset = size_x / levels * (1.0 - inside)  # the upper stack's centre just inside the edge
    base_x = near_edge + size_x / 2.0 + rng.uniform(0.05, 0.15)
    y = table_y + rng.uniform(-0.15, 0.15)
    over = rng.uniform(*OVER)
    table, top = long_table(
        ctx, "table", near_edge, base_x + size_x / 2.0 + 0.2, table_y, height, 0.5
    )
    pivot_x, pivot_z = base_x - size_x / 2.0, height + GAP + size_z
    column = _Column(size_x, size_z, levels, offset)
    nudge = column.nudge_for(over)
    objects = []
    for level in range(levels):
        is_top = level == levels - 1
        pos = (
            base_x - level * offset,
            y,
            height + GAP + size_z / 2.0 + level * (size_z + GAP),
        )
        # The nudge: every item above the bottom one turns with the column about the bottom
        # item's front top edge, toward the robot (about -y): v = w x r.
        rx, rz = pos[0] - pivot_x, pos[2] - pivot_z
        moving = level > 0
        objects.append(
            ctx.make_object(
                ctx.hazard,
                "hazard" if is_top else f"stack_{level}",
                ObjectRole.hazard if is_top else ObjectRole.stack,
                pos,
                lin_vel=(-nudge * rz, 0.0, nudge * rx) if moving else (0.0, 0.0, 0.0),
                ang_vel=(0.0, -nudge, 0.0) if moving else (0.0, 0.0, 0.0),
                launch_at_t0=moving,
            )
        )
    hazard = objects[-1]
    path = _collapse(ctx, hazard, column, pivot_x, pivot_z, top, nudge)
    return Layout(
        furniture=[table],
        objects=objects,
        primary=hazard.id,
        path=path,
        event_origin=(base_x, y, height + levels * size_z / 2.0),
        description=(
            f"a leaning stack of {levels} {ctx.hazard.looks_like.removeprefix('a ')}s"
            " on a table starts to collapse toward the robot"
        ),
        t0=SETTLE,
        # Its items are not one rigid column: they slip on each other a little as it turns,
        # and items taller than they are deep (cereal boxes) tip one by one too, so their
        # stack came down up to 0.22 s sooner than the closed form (0.01-0.09 s for the
        # others; BENCHMARKS.md "Scene validity").
        design_slack=TALL_SLACK if size_z > size_x else SLACK,
    )


class _Column:
    """The items above the bottom one, as one rigid column turning about the bottom item's
    front top edge: per unit mass, its inertia about the edge, the distance of its centre
    from the edge, and its lean (< 0: the centre inside the edge, > 0 past it)."""

    def __init__(self, size_x: float, size_z: float, levels: int, offset: float) -> None:
        pitch = size_z + GAP
        n = levels - 1
        # Centres of the upper items relative to the pivot (x toward -x is negative).
        self.rel = [(size_x / 2.0 - (i + 1) * offset, pitch * (i + 0.5)) for i in range(n)]
        cx = sum(p[0] for p in self.rel) / n
        cz = sum(p[1] for p in self.rel) / n
        self.inertia = (
            sum(px * px + pz * pz for px, pz in self.rel) / n + (size_x**2 + size_z**2) / 12.0
        )
        self.radius = math.hypot(cx, cz)
        self.lean = math.atan2(-cx, cz)

    def accel(self, theta: float, _omega: float) -> float:
        return G * self.radius * math.sin(theta) / self.inertia

    def nudge_for(self, over: float) -> float:
        """The turning rate at t0 that leaves ``over`` as it passes balance (energy: what
        lifting its centre over the edge takes)."""
        lift = G * self.radius * (1.0 - math.cos(self.lean))
        return math.sqrt(over * over + 2.0 * lift / self.inertia)


def _collapse(ctx, hazard, column: _Column, pivot_x, pivot_z, table_top, nudge) -> MotionPath:
    """The top item's path: the upper stack turns as one rigid column about the bottom item's
    front edge (an inverted pendulum whose centre is just inside the edge, set turning at
    ``nudge``) until ``RELEASE``, then the top item flies off with the velocity it had and
    falls."""
    lean = column.lean
    angles = integrate_angle(
        column.accel, lean, nudge, stop=lambda th, _w: th >= lean + RELEASE, horizon=ctx.horizon
    )
    tx, tz = column.rel[-1]
    top_r, top_a = math.hypot(tx, tz), math.atan2(-tx, tz)
    path = MotionPath()
    for t, theta, omega in angles:
        a = top_a + (theta - lean)
        pos = (pivot_x - top_r * math.sin(a), hazard.pose.pos[1], pivot_z + top_r * math.cos(a))
        vel = (-top_r * math.cos(a) * omega, 0.0, -top_r * math.sin(a) * omega)
        path.append(t, pos, vel, 0.5 * hazard.mass_kg * (top_r * omega) ** 2)
    end = path.end
    fly(ctx, hazard, [table_top], start_t=end.t, pos=end.pos, vel=end.vel, path=path)
    return path


SAMPLER = register(
    FamilySampler(
        family=Family.stack_collapse,
        summary="stacked items collapse",
        archetype="topple",
        gravity_paced=True,
        # Tall boxes: stacked, they fall as the closed form says (0.02-0.11 s sooner,
        # measured). Stacks of short items (bricks, loaves, blocks, books) came down 0.1-0.8 s
        # sooner and stacks of cylinders (cans, cups, bowls) 0.3-0.5 s sooner: their items
        # slip and roll on each other, and no design could keep the decision moment.
        pool=(
            "cereal_box",
            "cardboard_box",
            "laundry_basket",
            "toolbox",
        ),
        rooms=(RoomType.kitchen, RoomType.office, RoomType.playroom, RoomType.garage),
        build=build,
        plan=(CATCH, CATCH, DODGE),
    )
)
