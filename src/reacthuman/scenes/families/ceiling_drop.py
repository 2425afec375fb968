"""ceiling_drop: something falls from the ceiling (gravity-paced).

Most drops land within reach; about one in six is placed farther away so that the right
response is No_Action.
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
    far = rng.chance(0.17)
    x = rng.uniform(1.7, 2.6) if far else rng.uniform(0.5, 1.1)
    y = rng.uniform(-1.2, 1.2) if far else rng.uniform(-0.5, 0.5)
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
        description=f"{ctx.hazard.looks_like} falls from the ceiling",
    )


SAMPLER = register(
    FamilySampler(
        family=Family.ceiling_drop,
        summary="falls from the ceiling",
        archetype="fall",
        gravity_paced=True,
        pool=("ceiling_panel", "pendant_lamp", "smoke_detector", "ceiling_fan"),
        rooms=(RoomType.living_room, RoomType.kitchen, RoomType.office, RoomType.hallway),
        build=build,
    )
)
