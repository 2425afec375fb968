"""sliding_object: an object slides down a ramp on a counter, off its low end toward the observer.

The ramp's angle is floored just above the friction cone (paper 3.4: 0.3-0.7 degree past the
angle at which the object's friction would hold it), so sliding is guaranteed and the object
keeps about the speed it was pushed with, gaining a little: the push is the swept speed. The
ramp stands on a counter (a workbench, a high table) and ends at the counter's near end
(``HANDS_COUNTER_*``), where a G1 standing still holds both hands: what comes off it falls into
them, as in object_drop. (A ramp down to the floor ended below any hands the G1 can bring
there: none of its catches connected, BENCHMARKS.md.) The object starts on the ramp outside
the reach zone, clear of the prop that holds up the ramp's high end, and enters the zone while
still on the ramp.
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
    HANDS_COUNTER_NEAR_EDGE,
    WAXED_FACTOR,
    WAXED_FRICTION,
    WOOD_COLORS,
    entry_x,
    furniture,
    hands_counter_height,
    incline_accel,
    long_table,
    mu,
    slide_down,
)
from reacthuman.scenes.geometry import quat_from_axis_angle, quat_from_yaw, quat_mul
from reacthuman.scenes.spec import Family, FurnitureKind, ObjectRole, RoomType, SpeedBand

PROP = 0.04  # m, the board that holds up the ramp's high end
# m above the counter. A grippy object (a folded towel, 0.9) needs a 43 degree chute to slide,
# and the run that leaves the very fast band its window keeps every ramp about 1.9 m long.
MAX_RISE = 1.6
# m/s down the ramp at the start: faster than shelf_slide's (INCLINE_PUSH_SPEEDS), so that the
# slow band comes off the ramp's end inside the horizon; the very fast band's longer run keeps
# its window and margin before the reach zone.
SLIDE_SPEEDS = {
    SpeedBand.slow: (0.3, 0.33),
    SpeedBand.normal: (0.6, 0.65),
    SpeedBand.fast: (0.95, 1.0),
    SpeedBand.very_fast: (1.3, 1.4),
}


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    low_x = rng.uniform(*HANDS_COUNTER_NEAR_EDGE)  # the ramp ends at the counter's near end
    counter_h = hands_counter_height(ctx, ctx.hazard)
    y = rng.uniform(-0.12, 0.12)
    width = rng.uniform(0.55, 0.8)
    ramp_friction = WAXED_FRICTION
    waxed = rng.uniform(*WAXED_FACTOR)  # drawn where the board's friction was
    past = math.radians(rng.uniform(0.3, 0.7))
    run = rng.uniform(1.0, 1.1)  # down the ramp from the start to the reach zone's edge
    color = rng.choice(WOOD_COLORS)
    push = ctx.speed(SLIDE_SPEEDS)

    size_x, size_y, size_z = ctx.hazard.shape.size
    yaw = 0.0 if size_x >= size_y else math.pi / 2.0  # long side down the ramp
    along = max(size_x, size_y) / 2.0
    hazard = ctx.make_object(
        ctx.hazard, "hazard", ObjectRole.hazard, (0.0, 0.0, 0.0), surface_factor=waxed
    )
    friction = mu(hazard, ramp_friction)
    angle = math.atan(friction) + past
    up = (math.cos(angle), 0.0, math.sin(angle))
    normal = (-math.sin(angle), 0.0, math.cos(angle))
    start_s = (entry_x(y) - low_x) / math.cos(angle) + run  # up the slope from the low end
    slope = start_s + along + PROP + 0.06
    length, rise = slope * math.cos(angle), slope * math.sin(angle)
    if rise > MAX_RISE:
        raise FamilyError(f"the ramp would rise {rise:.2f} m above the counter")
    if counter_h + rise > ctx.room_height - 0.1:
        raise FamilyError(f"the ramp's high end ({counter_h + rise:.2f} m) would reach the ceiling")
    counter, _top = long_table(
        ctx, "counter", low_x, low_x + length + 0.1, y, counter_h, ramp_friction
    )
    ramp = furniture(
        "ramp",
        FurnitureKind.ramp,
        (low_x + length / 2.0, y, counter_h + rise / 2.0),
        (length, width, rise),
        color,
        ramp_friction,
    )
    surface = (low_x + start_s * up[0], y, counter_h + start_s * up[2])
    pos = tuple(surface[i] + (size_z / 2.0 + 0.002) * normal[i] for i in range(3))
    tilt = quat_from_axis_angle((0.0, 1.0, 0.0), -angle)
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
        twin_accel = incline_accel(angle, mu(twin, ramp_friction))
        twin_path = slide_down(ctx, twin, down, twin_accel, start_s)
    return Layout(
        furniture=[counter, ramp],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=surface,
        twin_path=None if twin is None else twin_path,
        description=(
            f"{ctx.hazard.looks_like} slides down a ramp on a counter toward its end and the robot"
        ),
    )


SAMPLER = register(
    FamilySampler(
        family=Family.sliding_object,
        summary="slides down a ramp",
        archetype="slide_roll",
        gravity_paced=False,
        pool=(
            "paperback_book",
            "hardcover_book",
            "wooden_cutting_board",
            "laptop",
            "toolbox",
            "brick",
            "cardboard_box",
            "tv_remote",
            "smartphone",
            "cast_iron_pan",
            "ceramic_plate",
            "cast_iron_anvil",
            "laundry_basket",
            "dumbbell",
            "chef_knife",
            "frisbee",
            "folded_towel",
        ),
        rooms=(RoomType.garage, RoomType.playroom, RoomType.living_room, RoomType.hallway),
        build=build,
        # No look-alike: on an incline a foam brick slides as a brick does (friction, not
        # mass, sets the pace; their materials' grip differs by 4-26 cm in the window, the
        # slow band's by less than the twin test's 10 cm, measured), so neither a person
        # nor a model could see through one.
        # The slow band slides the 1.8-1.9 m down the ramp (0.3 m/s, gaining a little) and
        # comes off its low end 3.8-4.6 s after t0, into the hands 0.15 s later.
        horizon=5.0,
        plan_phase=2,
    )
)
