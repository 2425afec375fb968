"""stack_collapse: a leaning stack of identical items collapses toward the observer.

Each level is offset toward the robot by 36-45 % of the item's depth; with four or more
levels the items above the bottom one have their combined centre of mass past its edge, so
the stack falls by gravity alone (gravity-paced). The top item is the primary hazard.
"""

from __future__ import annotations

from reacthuman.scenes.families.base import (
    FamilySampler,
    Layout,
    SampleContext,
    fly,
    register,
    table_with_near_edge,
)
from reacthuman.scenes.spec import Family, ObjectRole, RoomType

GAP = 0.002  # m between stacked items so none starts inside another


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    height = rng.uniform(0.72, 0.92)
    near_edge = rng.uniform(0.7, 1.2)
    table_y = rng.uniform(-0.3, 0.3)
    table, top = table_with_near_edge(ctx, "table", near_edge, table_y, height)
    size_x, _size_y, size_z = ctx.hazard.shape.size
    thin = size_z < 0.05
    levels = rng.integer(6, 9) if thin else rng.integer(4, 6)
    fits = int((ctx.room_height - 0.5 - height) / (size_z + GAP))  # keep clear of the ceiling
    levels = max(min(levels, fits), 4)
    offset = rng.uniform(0.36, 0.45) * size_x
    base_x = near_edge + size_x / 2.0 + rng.uniform(0.1, 0.3)
    y = table_y + rng.uniform(-0.2, 0.2)
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
    # The top item leaves the toppling stack with roughly the speed of a pivoting column.
    path = fly(ctx, hazard, [top], vel=(-0.4, 0.0, 0.0))
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
    )


SAMPLER = register(
    FamilySampler(
        family=Family.stack_collapse,
        summary="stacked items collapse",
        archetype="topple",
        gravity_paced=True,
        pool=(
            "tin_can",
            "soda_can",
            "cereal_box",
            "hardcover_book",
            "paperback_book",
            "toy_block",
            "brick",
            "ceramic_plate",
            "ceramic_bowl",
            "plastic_cup",
            "wooden_cutting_board",
        ),
        rooms=(RoomType.kitchen, RoomType.office, RoomType.playroom, RoomType.garage),
        build=build,
    )
)
