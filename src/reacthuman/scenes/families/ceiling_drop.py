"""ceiling_drop: something falls from the ceiling (gravity-paced).

A fall from an ordinary ceiling reaches head height in under half a second, before any
window could close with time left to act, so these scenes are double-height halls and
stairwells (5.8-6.4 m): the fixture is seen leaving the ceiling in a short window and is still
above the reach zone at the freeze. Air does not slow the fall (the rigid-body simulation has
no drag), so the flight is exact. Most drops land within reach; about one in six is placed
farther away so that the right response is No_Action.
"""

from __future__ import annotations

from reacthuman.scenes.families.base import (
    FamilySampler,
    Layout,
    SampleContext,
    fly,
    furniture,
    register,
)
from reacthuman.scenes.spec import Family, FurnitureKind, ObjectRole, RoomType


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    far = ctx.meant(0.17)
    x = rng.uniform(1.9, 2.6) if far else rng.uniform(0.6, 1.05)
    y = rng.uniform(-1.2, 1.2) if far else rng.uniform(-0.45, 0.45)
    half_h = ctx.hazard.shape.size[2] / 2.0
    mount_h = 0.03
    pos = (x, y, ctx.room_height - mount_h - half_h - 0.004)
    tilt_rate = (rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), 0.0)
    hazard = ctx.make_object(ctx.hazard, "hazard", ObjectRole.hazard, pos, ang_vel=tilt_rate)
    mount_size = max(ctx.hazard.shape.size[0], ctx.hazard.shape.size[1]) * 0.6
    mount = furniture(
        "mount",
        FurnitureKind.ceiling_mount,
        (x, y, ctx.room_height - mount_h / 2.0),
        (mount_size, mount_size, mount_h),
        (0.85, 0.85, 0.85),
        0.5,
    )
    path = fly(ctx, hazard, [], rolling=False)
    return Layout(
        furniture=[mount],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=pos,
        description=f"{ctx.hazard.looks_like} falls from the high ceiling of a hall",
        reaches=not far,
        design_slack=0.05,
    )


SAMPLER = register(
    FamilySampler(
        family=Family.ceiling_drop,
        summary="falls from the ceiling",
        archetype="fall",
        gravity_paced=True,
        pool=("ceiling_panel", "pendant_lamp", "smoke_detector", "ceiling_fan"),
        rooms=(RoomType.living_room, RoomType.hallway, RoomType.office),
        build=build,
        room_heights=(5.8, 6.4),
    )
)
