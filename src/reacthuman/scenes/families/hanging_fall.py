"""hanging_fall: a fixture hanging on the front wall detaches and falls (gravity-paced).

The fixture leaves the wall with a small outward speed and a forward pitch, so it topples
away from the wall as it falls. About one wall in seven stands beyond reach (No_Action).
"""

from __future__ import annotations

from reacthuman.scenes.families.base import FamilySampler, Layout, SampleContext, fly, register
from reacthuman.scenes.spec import Family, ObjectRole, RoomType

FAR_SHARE = 0.15


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    # Either clearly within reach or clearly out of it: a fixture topples forward as it falls
    # and can land up to half its height from the wall, so far walls are beyond reach plus that.
    far = rng.chance(FAR_SHARE)
    wall = rng.uniform(2.1, 2.5) if far else rng.uniform(0.8, 1.2)
    thickness = ctx.hazard.shape.size[0]
    half_h = ctx.hazard.shape.size[2] / 2.0
    center_z = rng.uniform(1.2, 1.8) + half_h * 0.5
    y = rng.uniform(-0.5, 0.5)
    out_speed = rng.uniform(0.1, 0.45)
    pitch_rate = rng.uniform(0.5, 1.5)
    pos = (wall - thickness / 2.0 - 0.004, y, min(center_z, ctx.room_height - half_h - 0.05))
    vel = (-out_speed, 0.0, 0.0)
    hazard = ctx.make_object(
        ctx.hazard, "hazard", ObjectRole.hazard, pos, lin_vel=vel, ang_vel=(0.0, -pitch_rate, 0.0)
    )
    # It lands flat on its back or face, so its centre ends half a thickness above the floor.
    path = fly(ctx, hazard, [], half_height=thickness / 2.0, rolling=False)
    return Layout(
        furniture=[],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=pos,
        description=f"{ctx.hazard.looks_like} comes loose from the wall in front of the robot",
        front_wall=wall,
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
