"""shelf_slide: an object slides off a high wall shelf toward the observer.

The shelf hangs on the front wall; the object starts a few centimetres from the shelf's front
edge with enough speed to overcome friction, so it leaves the edge at the swept speed.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    WOOD_COLORS,
    FamilySampler,
    Layout,
    SampleContext,
    fly,
    furniture,
    is_ball,
    mu,
    register,
    resting_z,
)
from reacthuman.scenes.geometry import quat_from_yaw
from reacthuman.scenes.kinematics import G, Support
from reacthuman.scenes.spec import Family, FurnitureKind, ObjectRole, RoomType, SpeedBand

EDGE_SPEEDS = {
    SpeedBand.slow: (0.15, 0.3),
    SpeedBand.normal: (0.5, 0.8),
    SpeedBand.fast: (1.0, 1.4),
    SpeedBand.very_fast: (1.8, 2.4),
}


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    wall = rng.uniform(1.1, 1.45)  # even the slowest slide lands within reach
    depth = rng.uniform(0.25, 0.35)
    height = rng.uniform(1.4, 1.7)
    width = rng.uniform(0.8, 1.4)
    thickness = 0.03
    shelf_y = rng.uniform(-0.4, 0.4)
    shelf = furniture(
        "shelf",
        FurnitureKind.wall_shelf,
        (wall - depth / 2.0, shelf_y, height - thickness / 2.0),
        (depth, width, thickness),
        rng.choice(WOOD_COLORS),
        rng.uniform(0.35, 0.5),
    )
    top = Support(
        height, (wall - depth, wall), (shelf_y - width / 2, shelf_y + width / 2), shelf.friction
    )
    obj_y = shelf_y + rng.uniform(-0.25, 0.25) * (width - 0.3)
    size_x, size_y = ctx.hazard.shape.size[0], ctx.hazard.shape.size[1]
    # Long objects lie along the shelf; a small random turn keeps scenes from looking staged.
    yaw = (math.pi / 2.0 if size_x > size_y else 0.0) + rng.uniform(-0.2, 0.2)
    half_depth = (abs(math.cos(yaw)) * size_x + abs(math.sin(yaw)) * size_y) / 2.0
    # The centre starts 2-8 cm inside the front edge, the back at least 1 cm clear of the wall
    # (an object deeper than the shelf starts overhanging and tips off).
    gap = min(rng.uniform(0.02, 0.08), depth - half_depth - 0.01)
    edge_speed = ctx.speed(EDGE_SPEEDS)
    pos = (wall - depth + gap, obj_y, resting_z(height, ctx.hazard))
    hazard = ctx.make_object(ctx.hazard, "hazard", ObjectRole.hazard, pos, quat_from_yaw(yaw))
    rolling = is_ball(ctx.hazard)
    decel = 0.0 if rolling else mu(hazard, shelf.friction) * G
    speed = math.sqrt(edge_speed**2 + 2.0 * decel * gap)
    vel = (-speed, 0.0, 0.0)
    hazard = hazard.model_copy(update={"lin_vel": vel})
    path = fly(ctx, hazard, [top])
    return Layout(
        furniture=[shelf],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=(wall - depth, obj_y, height),
        description=f"{ctx.hazard.looks_like} slides off a high wall shelf toward the robot",
        front_wall=wall,
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
            "ceramic_mug",
            "glass_bottle",
            "glass_vase",
            "plastic_water_bottle",
            "cereal_box",
            "tin_can",
            "soda_can",
            "paperback_book",
            "hardcover_book",
            "teddy_bear",
            "folded_towel",
            "cardboard_box",
            "toolbox",
            "brick",
            "potted_plant",
            "dumbbell",
            "bean_bag",
            "cast_iron_anvil",
            "kitchen_scissors",
            "suitcase",
        ),
        rooms=(RoomType.kitchen, RoomType.living_room, RoomType.garage, RoomType.laundry_room),
        build=build,
    )
)
