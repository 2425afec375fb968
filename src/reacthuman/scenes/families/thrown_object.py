"""thrown_object: an object is thrown at the observer.

It appears mid-flight 4.8-5.2 m away, on a ballistic arc aimed at the robot's chest. (Throws
aimed wide were tried and dropped: they bounce off the side walls back into reach.) The
flight speed is the swept speed.
"""

from __future__ import annotations

from reacthuman.scenes.families.base import FamilySampler, Layout, SampleContext, fly, register
from reacthuman.scenes.kinematics import G
from reacthuman.scenes.spec import Family, ObjectRole, RoomType, SpeedBand

# Horizontal speed, m/s. Two limits set the bands: the slowest throw must arrive within
# 0.98 s so the lob's apex (start height + g T^2 / 8) stays under the lowest ceiling (2.5 m),
# and the fastest must still be in the air when the 0.6 s window closes.
FLIGHT_SPEEDS = {
    SpeedBand.slow: (5.3, 5.6),
    SpeedBand.normal: (6.3, 6.6),
    SpeedBand.fast: (7.3, 7.6),
    SpeedBand.very_fast: (8.5, 8.8),
}


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    start = (rng.uniform(4.8, 5.2), rng.uniform(-0.6, 0.6), rng.uniform(1.0, 1.2))
    aim_y = rng.uniform(-0.25, 0.25)
    target = (0.3, aim_y, rng.uniform(0.9, 1.2))
    tumble = (rng.uniform(-6.0, 6.0), rng.uniform(-6.0, 6.0), rng.uniform(-3.0, 3.0))
    speed = ctx.speed(FLIGHT_SPEEDS)
    dx, dy, dz = (target[i] - start[i] for i in range(3))
    horizontal = (dx * dx + dy * dy) ** 0.5
    flight_time = horizontal / speed
    vel = (
        speed * dx / horizontal,
        speed * dy / horizontal,
        (dz + 0.5 * G * flight_time**2) / flight_time,
    )
    hazard = ctx.make_object(
        ctx.hazard, "hazard", ObjectRole.hazard, start, lin_vel=vel, ang_vel=tumble
    )
    path = fly(ctx, hazard, [])
    return Layout(
        furniture=[],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=start,
        closeup_range=(0.8, 1.4),
        closeup_azimuth=(130.0, 165.0),  # behind the thrower, looking down the throw
        description=f"someone throws {ctx.hazard.looks_like} at the robot",
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
    )
)
