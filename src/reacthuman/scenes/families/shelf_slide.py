"""shelf_slide: one bracket of a long wall shelf gives way and an object slides off its end.

The shelf runs along a side wall toward the robot. Its near bracket has failed, so it hangs
from the far one (its high end up to 2 m), its near end dropped to chest height, tilted down
toward the robot just past the angle at which the object's
friction holds it (0.3-0.7 degree past: it keeps its speed, gaining a little; the simulator
matches the closed-form incline within millimetres, BENCHMARKS.md), and the object slides
down it, off the low end in front of the robot and to the floor. How hard it was knocked when
the shelf dropped, its speed along the shelf at the start, is the swept speed; the shelf's
tilt is the same in every band.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    FamilyError,
    FamilySampler,
    Layout,
    SampleContext,
    register,
    twin_of,
)
from reacthuman.scenes.families.blocks import (
    INCLINE_PUSH_SPEEDS,
    WAXED_FACTOR,
    WAXED_FRICTION,
    WOOD_COLORS,
    entry_x,
    furniture,
    incline_accel,
    mu,
    slide_down,
)
from reacthuman.scenes.geometry import quat_from_axis_angle, quat_from_yaw, quat_mul
from reacthuman.scenes.spec import Family, FurnitureKind, ObjectRole, RoomType

THICKNESS = 0.03
# The dropped end hangs where a G1 standing still holds its hands: the object's centre comes
# off it at this height, so it crosses chest height still sliding on the board at the speed
# it was knocked to (the swept speed) and drops off the end into the hands. (A low end at
# 1.25-1.5 m made every band fall the last 0.2-0.4 m to the hands, and gravity set the
# speed they met: x1.1 from slow to very fast.)
LOW_END_HEIGHT = (1.04, 1.09)  # m


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    side = rng.sign()
    depth = rng.uniform(0.26, 0.34)
    lateral = rng.uniform(0.35, 0.55)  # the shelf's centre line
    low_x = rng.uniform(0.55, 0.8)  # the low end, inside the reach zone
    low_center = rng.uniform(*LOW_END_HEIGHT)  # the object's centre at the low end
    run = rng.uniform(0.8, 0.95)  # m from the start to the reach zone's edge, horizontally
    past = math.radians(rng.uniform(0.3, 0.7))
    shelf_friction = WAXED_FRICTION
    waxed = rng.uniform(*WAXED_FACTOR)  # drawn where the board's friction was
    color = rng.choice(WOOD_COLORS)
    push = ctx.speed(INCLINE_PUSH_SPEEDS)

    y = side * lateral
    size_x, size_y, size_z = ctx.hazard.shape.size
    yaw = 0.0 if size_x >= size_y else math.pi / 2.0  # long objects lie along the shelf
    along = max(size_x, size_y) / 2.0
    hazard = ctx.make_object(
        ctx.hazard, "hazard", ObjectRole.hazard, (0.0, 0.0, 0.0), surface_factor=waxed
    )
    friction = mu(hazard, shelf_friction)
    angle = math.atan(friction) + past
    up = (math.cos(angle), 0.0, math.sin(angle))
    normal = (-math.sin(angle), 0.0, math.cos(angle))
    tilt = quat_from_axis_angle((0.0, 1.0, 0.0), -angle)
    # The board's low end, so that the object's centre is at ``low_center`` as it leaves it.
    low_z = low_center - along * math.sin(angle) - size_z / 2.0 * math.cos(angle)
    low_end = (low_x, y, low_z)
    # Up the shelf from the low end: ``run`` further out than the reach zone's edge.
    start_s = (entry_x(y) - low_x + run) / math.cos(angle)
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
    twin = twin_of(ctx, hazard)
    if twin is not None:
        twin_accel = incline_accel(angle, mu(twin, shelf_friction))
        twin_path = slide_down(ctx, twin, down, twin_accel, start_s)
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
        twin_path=None if twin is None else twin_path,
    )


SAMPLER = register(
    FamilySampler(
        family=Family.shelf_slide,
        summary="slides off a tilted wall shelf",
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
        # No look-alike: on an incline a foam brick slides as a brick does (friction, not
        # mass, sets the pace; their materials' grip differs by 4-26 cm in the window, the
        # slow band's by less than the twin test's 10 cm, measured), so neither a person
        # nor a model could see through one.
        # The slow band creeps down the shelf and reaches its low end 3-4.3 s after t0.
        horizon=5.5,
        plan_phase=1,
    )
)
