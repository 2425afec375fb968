"""shelf_slide: one bracket of a long wall shelf gives way and an object slides off its end.

The shelf runs along a side wall toward the robot. Its near bracket has failed, so it hangs
from the far one, tilted down toward the robot just past the angle at which the object's
friction holds it (0.3-0.7 degree past: it keeps its speed, gaining a little; the simulator
matches the closed-form incline within millimetres, BENCHMARKS.md), and the object slides
down it, off the low end in front of the robot and to the floor. How hard it was knocked when
the shelf dropped, its speed along the shelf at the start, is the swept speed; the shelf's
tilt is the same in every band.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    INCLINE_PUSH_SPEEDS,
    WOOD_COLORS,
    FamilyError,
    FamilySampler,
    Layout,
    SampleContext,
    entry_x,
    furniture,
    incline_accel,
    mu,
    register,
    slide_down,
)
from reacthuman.scenes.geometry import quat_from_axis_angle, quat_from_yaw, quat_mul
from reacthuman.scenes.spec import Family, FurnitureKind, ObjectRole, RoomType

THICKNESS = 0.03


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    side = rng.sign()
    depth = rng.uniform(0.26, 0.34)
    lateral = rng.uniform(0.35, 0.55)  # the shelf's centre line
    low_x = rng.uniform(0.65, 0.95)  # the low end, inside the reach zone
    low_z = rng.uniform(1.25, 1.5)
    run = rng.uniform(0.75, 0.95)  # along the shelf from the start to the reach zone's edge
    past = math.radians(rng.uniform(0.3, 0.7))
    shelf_friction = rng.uniform(0.3, 0.45)
    color = rng.choice(WOOD_COLORS)
    push = ctx.speed(INCLINE_PUSH_SPEEDS)

    y = side * lateral
    size_x, size_y, size_z = ctx.hazard.shape.size
    yaw = 0.0 if size_x >= size_y else math.pi / 2.0  # long objects lie along the shelf
    along = max(size_x, size_y) / 2.0
    hazard = ctx.make_object(ctx.hazard, "hazard", ObjectRole.hazard, (0.0, 0.0, 0.0))
    friction = mu(hazard, shelf_friction)
    angle = math.atan(friction) + past
    up = (math.cos(angle), 0.0, math.sin(angle))
    normal = (-math.sin(angle), 0.0, math.cos(angle))
    tilt = quat_from_axis_angle((0.0, 1.0, 0.0), -angle)
    low_end = (low_x, y, low_z)
    start_s = (entry_x(y) - low_x) / math.cos(angle) + run  # up the shelf from the low end
    length = start_s + along + 0.06
    center = tuple(
        low_end[i] + length / 2.0 * up[i] - THICKNESS / 2.0 * normal[i] for i in range(3)
    )
    shelf = furniture(
        "shelf",
        FurnitureKind.hanging_shelf,
        center,  # type: ignore[arg-type]
        (length, depth, THICKNESS),
        color,
        shelf_friction,
    )
    shelf = shelf.model_copy(update={"pose": shelf.pose.model_copy(update={"quat": tilt})})
    top = low_z + length * math.sin(angle) + max(size_x, size_y, size_z)
    if top > ctx.room_height - 0.1:
        raise FamilyError(f"the shelf's high end ({top:.2f} m) would reach the ceiling")
    # The object near the high end, lying on the board, its centre half a height off it.
    pos = tuple(low_end[i] + start_s * up[i] + (size_z / 2.0 + 0.002) * normal[i] for i in range(3))
    down = (-up[0], 0.0, -up[2])
    hazard = hazard.model_copy(
        update={
            "pose": hazard.pose.model_copy(
                update={"pos": pos, "quat": quat_mul(tilt, quat_from_yaw(yaw))}
            ),
            "lin_vel": tuple(push * d for d in down),
        }
    )
    path = slide_down(ctx, hazard, down, incline_accel(angle, friction), start_s)
    across = min(size_x, size_y)
    wall = side * (lateral + max(depth, across) / 2.0 + 0.005)
    return Layout(
        furniture=[shelf],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=(entry_x(y) + 0.3, y, low_z + 0.3),
        description=(
            f"{ctx.hazard.looks_like} slides down a wall shelf that has dropped at one end, "
            "toward the robot"
        ),
        side_wall=wall,
        # Soft contacts creep a little on steep boards (high-friction objects), so a slow
        # push arrives faster than designed: aim wider than the default.
        design_speed_ratio=2.6,
    )


SAMPLER = register(
    FamilySampler(
        family=Family.shelf_slide,
        summary="slides off a high shelf",
        archetype="slide_roll",
        gravity_paced=False,
        pool=(
            "ceramic_plate",
            "ceramic_bowl",
            "glass_vase",
            "cereal_box",
            "paperback_book",
            "hardcover_book",
            "teddy_bear",
            "folded_towel",
            "cardboard_box",
            "toolbox",
            "brick",
            "dumbbell",
            "bean_bag",
            "cast_iron_anvil",
            "kitchen_scissors",
            "suitcase",
            "wooden_cutting_board",
            "laptop",
        ),
        rooms=(RoomType.kitchen, RoomType.living_room, RoomType.garage, RoomType.laundry_room),
        build=build,
        shows_mass=True,
        # The slow band creeps down the shelf and reaches its low end about 4 s after t0.
        horizon=4.5,
    )
)
