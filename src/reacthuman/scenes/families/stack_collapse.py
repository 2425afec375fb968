"""stack_collapse: a leaning stack of identical items collapses toward the observer.

The stack stands on a table beyond the reach zone. Each level is set a little further toward
the robot than the one below, just enough (0.3-0.8 % past balance, 0.2-0.6 % for thin things)
that the items above the bottom one have their combined centre of mass past its front edge:
the upper stack teeters about that edge, slowly at first (an inverted pendulum,
gravity-paced), then collapses, and its top item, the primary hazard, is flung off toward
the robot and falls into reach.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    FamilySampler,
    Layout,
    SampleContext,
    fly,
    long_table,
    register,
)
from reacthuman.scenes.kinematics import G, MotionPath, integrate_angle
from reacthuman.scenes.spec import Family, ObjectRole, RoomType

GAP = 0.002  # m between stacked items so none starts inside another
RELEASE = math.radians(35.0)  # the top item leaves the teetering column about here


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
    # How far past balance, as a share of the balancing offset; a short stack of thin things
    # is a quicker pendulum and starts closer to balance.
    past = rng.uniform(0.002, 0.006) if thin else rng.uniform(0.003, 0.008)
    offset = size_x / levels * (1.0 + past)  # the upper stack's centre just past the edge
    base_x = near_edge + size_x / 2.0 + rng.uniform(0.05, 0.15)
    y = table_y + rng.uniform(-0.15, 0.15)
    table, top = long_table(
        ctx, "table", near_edge, base_x + size_x / 2.0 + 0.2, table_y, height, 0.5
    )
    objects = []
    for level in range(levels):
        is_top = level == levels - 1
        pos = (
            base_x - level * offset,
            y,
            height + GAP + size_z / 2.0 + level * (size_z + GAP),
        )
        objects.append(
            ctx.make_object(
                ctx.hazard,
                "hazard" if is_top else f"stack_{level}",
                ObjectRole.hazard if is_top else ObjectRole.stack,
                pos,
            )
        )
    hazard = objects[-1]
    path = _collapse(ctx, hazard, levels, base_x - size_x / 2.0, height + size_z, offset, top)
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
        # A leaning stack does not turn as one rigid column: its items slide and roll on each
        # other and it comes down sooner than the model says (measured: 0.3-0.7 s sooner),
        # so it is set closer to balance and the design aims further past the margin.
        design_slack=0.35,
    )


def _collapse(ctx, hazard, levels, pivot_x, pivot_z, offset, table_top) -> MotionPath:
    """The top item's path: the upper stack turns as one rigid column about the bottom item's
    front edge (an inverted pendulum whose centre is just past the edge) until ``RELEASE``,
    then the top item flies off with the velocity it had and falls."""
    size_x, _y, size_z = hazard.shape.size
    pitch = size_z + 0.002
    n = levels - 1  # items above the bottom one
    # Centres of the upper items relative to the pivot (x toward -x is negative).
    rel = [(size_x / 2.0 - (i + 1) * offset, pitch * (i + 0.5)) for i in range(n)]
    cx = sum(p[0] for p in rel) / n
    cz = sum(p[1] for p in rel) / n
    inertia = sum(px * px + pz * pz for px, pz in rel) / n + (size_x**2 + size_z**2) / 12.0
    radius = math.hypot(cx, cz)
    lean = math.atan2(-cx, cz)  # > 0: the centre is past the edge, toward the robot

    def accel(theta: float, _omega: float) -> float:
        return G * radius * math.sin(theta) / inertia

    angles = integrate_angle(
        accel, lean, 0.0, stop=lambda th, _w: th >= lean + RELEASE, horizon=ctx.horizon
    )
    tx, tz = rel[-1]
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
        # Thin things (books, plates, boards) stack too low: in simulation their stacks come
        # down within half a second, whatever the design, too soon for a decision moment.
        pool=(
            "tin_can",
            "soda_can",
            "cereal_box",
            "toy_block",
            "brick",
            "ceramic_bowl",
            "plastic_cup",
        ),
        rooms=(RoomType.kitchen, RoomType.office, RoomType.playroom, RoomType.garage),
        build=build,
    )
)
