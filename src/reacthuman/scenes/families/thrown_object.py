"""thrown_object: an object is thrown at the observer.

It appears just out of the thrower's hand, tossed underarm from hip height (0.4-0.6 m: the
thrower is a child, standing behind where it let go, in view) on a ballistic arc aimed at the
robot's hands, held out 0.3-0.4 m ahead of it at chest height (a toss aimed 0.85-1.0 m ahead
passed out of a G1's reach before it came down to its chest).
(Throws aimed wide were tried and dropped: they bounce off the side walls back into reach.) The
flight speed is the swept speed, and the thrower stands where that throw reaches the robot's
reach zone in about the same time in every band (0.7-1.05 s): a throw slow enough to leave time
from far away would have to be lobbed over the ceiling and would arrive falling steeply, its
speed set by gravity rather than the throw. So the four scenes of a group differ in throw speed
and the thrower's distance (the time to react barely changes), and arrival speed rises with the
band as the sweep intends.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import (
    FamilyError,
    FamilySampler,
    Layout,
    SampleContext,
    register,
)
from reacthuman.scenes.families.blocks import fly, furniture
from reacthuman.scenes.kinematics import G
from reacthuman.scenes.reach import REACH_RADIUS
from reacthuman.scenes.spec import Family, FurnitureKind, ObjectRole, RoomType, SpeedBand

FLIGHT_SPEEDS = {  # horizontal, m/s
    SpeedBand.slow: (2.9, 3.1),
    SpeedBand.normal: (4.4, 4.6),
    SpeedBand.fast: (6.0, 6.3),
    SpeedBand.very_fast: (11.8, 12.3),
}
# Seconds from the throw to the reach zone's edge: the faster band leaves less time, but a
# window of 0.3 s and the band's reaction margin always fit. A throw that takes a second to
# arrive is a lob, and gravity sets the speed it meets the hands with (6-7 m/s, whatever
# the throw): only a hard, flat throw meets them much faster, so the very fast band is one
# (12 m/s: 1.8 times the slow band's at the hands, and a dodge, labels.MAX_CATCH_SPEED).
ENTRY_TIMES = {
    SpeedBand.slow: 0.9,
    SpeedBand.normal: 0.86,
    SpeedBand.fast: 0.7,
    SpeedBand.very_fast: 0.66,
}
CEILING_CLEARANCE = 0.25  # m between a lob's apex and the ceiling
# Where the arc is aimed: where a G1 standing still holds both hands (the reach map in
# assets/gaits.json: 0.3-0.45 m ahead of the chest, down to 0.15 m below it).
AIM_AHEAD = (0.3, 0.4)  # m ahead of the robot's feet
AIM_HEIGHT = (0.95, 1.1)  # m
THROWER_HEIGHT = (1.15, 1.35)  # m: a child, whose underarm toss leaves the hand at 0.4-0.6 m
THROWER_DEPTH = 0.3  # m: the box the figure stands in, its hand at the box's front face
SHIRT_COLORS = ((0.8, 0.2, 0.2), (0.2, 0.45, 0.8), (0.95, 0.75, 0.15), (0.25, 0.6, 0.3))


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    bearing = rng.uniform(-0.12, 0.12)  # where the thrower stands, off straight ahead
    start_z = rng.uniform(0.4, 0.6)
    aim_y = rng.uniform(-0.12, 0.12)
    target = (rng.uniform(*AIM_AHEAD), aim_y, rng.uniform(*AIM_HEIGHT))
    tumble = (rng.uniform(-6.0, 6.0), rng.uniform(-6.0, 6.0), rng.uniform(-3.0, 3.0))
    speed = ctx.speed(FLIGHT_SPEEDS)
    distance = REACH_RADIUS + speed * ENTRY_TIMES[ctx.band]
    start = (distance * math.cos(bearing), distance * math.sin(bearing), start_z)
    # The room holds the farthest thrower of the group, so it is the same room in every band.
    farthest = (
        REACH_RADIUS + FLIGHT_SPEEDS[SpeedBand.very_fast][1] * ENTRY_TIMES[SpeedBand.very_fast]
    )
    far_x, far_y = farthest * math.cos(bearing) + 0.6, farthest * math.sin(bearing)
    room_end = [(far_x, far_y + 0.3, start_z), (far_x, far_y - 0.3, start_z)]
    dx, dy, dz = (target[i] - start[i] for i in range(3))
    horizontal = (dx * dx + dy * dy) ** 0.5
    flight_time = horizontal / speed
    vel = (
        speed * dx / horizontal,
        speed * dy / horizontal,
        (dz + 0.5 * G * flight_time**2) / flight_time,
    )
    apex = start[2] + vel[2] ** 2 / (2.0 * G)
    if apex > ctx.room_height - CEILING_CLEARANCE:
        raise FamilyError(f"the lob's apex ({apex:.2f} m) would hit the ceiling")
    hazard = ctx.make_object(
        ctx.hazard, "hazard", ObjectRole.hazard, start, lin_vel=vel, ang_vel=tumble
    )
    path = fly(ctx, hazard, [])
    # The thrower, drawn after everything the motion depends on: a child (the toss leaves
    # the hand at hip height) standing just behind where it let go, facing the robot.
    height = rng.uniform(*THROWER_HEIGHT)
    behind = THROWER_DEPTH / 2.0 + 0.05
    thrower = furniture(
        "thrower",
        FurnitureKind.person,
        (start[0] + behind * math.cos(bearing), start[1] + behind * math.sin(bearing), height / 2),
        (THROWER_DEPTH, 0.42, height),
        rng.choice(SHIRT_COLORS),
        0.5,
        yaw=bearing,
    )
    return Layout(
        furniture=[thrower],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=start,
        closeup_follows=True,
        closeup_range=(0.8, 1.4),
        closeup_azimuth=(130.0, 165.0),  # behind the thrower, looking down the throw
        description=f"someone throws {ctx.hazard.looks_like} at the robot",
        design_slack=0.06,
        frame_all_bands=False,
        extent_points=room_end,
    )


SAMPLER = register(
    FamilySampler(
        family=Family.thrown_object,
        summary="thrown at the observer",
        archetype="ballistic",
        gravity_paced=False,
        pool=(
            "tennis_ball",
            "basketball",
            "soccer_ball",
            "baseball",
            "rubber_bouncy_ball",
            "frisbee",
            "sneaker",
            "plastic_water_bottle",
            "tv_remote",
            "apple",
            "orange",
            "bean_bag",
            "teddy_bear",
            "throw_pillow",
            "chef_knife",
            "kitchen_scissors",
            "ceramic_mug",
            "smartphone",
            "paperback_book",
            "toy_block",
            "brick",
        ),
        rooms=(RoomType.living_room, RoomType.garage, RoomType.playroom, RoomType.hallway),
        build=build,
        # At the very fast band's freeze a throw is still 4.3-4.9 m off (12 m/s, with the
        # band's margin left), where the head camera shows a tennis ball, baseball, apple,
        # orange, bouncy ball, toy block or mug 4-8 px across: a generated group draws from
        # what it can show (``Design.head_span_px``). An authored scene stages what it names.
        min_drawn_extent=0.11,
        room_heights=(3.3, 3.6),  # the slow band's lob from 4 m rises to about 3 m
        # A very fast throw (9.3 m/s and more) strikes the hands: a dodge whatever is thrown.
        speed_decides_label=True,
        plan_phase=0,
    )
)
