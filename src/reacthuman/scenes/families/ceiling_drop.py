"""ceiling_drop: something falls from the ceiling (gravity-paced).

A fall from an ordinary ceiling reaches head height in under half a second, before any
window could close with time left to act, so these scenes are double-height halls and
stairwells (5.8-6.4 m): the fixture is seen leaving the ceiling in a short window and is still
above the reach zone at the freeze. Air does not slow the fall (the rigid-body simulation has
no drag), so the flight is exact. Most drops fall just in front of the robot, the fixture's
near edge within arm's reach of a G1 standing still (so a light one falls into hands held out
at chest height, and a heavy one is a step back away from a strike); about one in six is
placed farther away so that the right response is No_Action (``plan``). A fall from a
double-height ceiling comes through chest height at 9 m/s and more: every drop that reaches
the robot is a dodge (labels.MAX_CATCH_SPEED).
"""

from __future__ import annotations

from reacthuman.scenes.families.base import (
    DODGE,
    NO_ACTION,
    FamilySampler,
    Layout,
    SampleContext,
    register,
)
from reacthuman.scenes.families.blocks import fly, furniture
from reacthuman.scenes.spec import Family, FurnitureKind, ObjectRole, RoomType

# How far ahead of the robot's feet the fixture's near edge falls: where the reach map in
# assets/gaits.json has both hands of a G1 standing still, 0.25-0.45 m ahead at chest height.
# It depends on the fixture's size alone, which the model sees, never on what it should do.
NEAR_EDGE = (0.2, 0.33)  # m
NEAR_SIDE = 0.2  # m either side of straight ahead


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    far = ctx.out_of_reach
    half_w = max(ctx.hazard.shape.size[0], ctx.hazard.shape.size[1]) / 2.0
    x = rng.uniform(1.9, 2.6) if far else half_w + rng.uniform(*NEAR_EDGE)
    y = rng.uniform(-1.2, 1.2) if far else rng.uniform(-NEAR_SIDE, NEAR_SIDE)
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
        plan=(DODGE, DODGE, NO_ACTION, DODGE, DODGE, DODGE),
    )
)
