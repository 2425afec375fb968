"""pendulum_swing: a mass hanging from the ceiling is knocked away and swings back in.

At t0 the bob hangs at the bottom of its swing just outside the reach zone and is knocked away
from the robot (the swept speed). It swings out, turns, and comes back through the bottom
toward the robot. The pivot stands so that a swing at the slow band's weakest knock turns back
where a G1 standing still holds its hands (``base.HANDS_MEET_*``): catching it there needs
no walk. Harder knocks swing it further, through the hands and on into the body. The window
shows it going away; the decision is where and when it comes back (paper 3.2: the
interception point is time-varying).

A swing in from rest cannot be both caught and decided in time: entering a 1.2 m reach zone
at least 0.6 s + 0.5 s after t0 and turning 0.4 m ahead of the robot needs an amplitude of
about 3 m, more than a 3.5 m ceiling allows. The return comes half a period (about 1.6 s)
after the knock. The rope is a rigid, massless link. Its mount damps the swing a little, a
light bob more than a heavy one, but that shows only against another window: a blind reader
of one window could not tell a lead-filled bean bag from a bean bag, nor a concrete-filled
basketball from a basketball (issue 51), so the family stages no look-alikes.
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
from reacthuman.scenes.families.blocks import (
    HANDS_MEET_AHEAD,
    HANDS_MEET_HEIGHT,
    entry_x,
    furniture,
)
from reacthuman.scenes.kinematics import G, MotionPath, integrate_angle, principal_inertia
from reacthuman.scenes.spec import Family, FurnitureKind, Joint, ObjectRole, RoomType, SpeedBand

# The knock, as a multiple of the one whose return swing turns at the hands. Arrival speeds
# scale with it, so the very fast band arrives at least 2.1 times as fast as the slow one.
KNOCKS = {
    SpeedBand.slow: (1.0, 1.04),
    SpeedBand.normal: (1.45, 1.5),
    SpeedBand.fast: (1.85, 1.9),
    SpeedBand.very_fast: (2.3, 2.35),
}
OUTSIDE = (0.05, 0.2)  # m the hanging bob starts beyond the reach zone's edge
# The rope's mount damps the swing (a swivel that squeaks): a light bob visibly, a heavy one
# hardly at all. A light bob's design needs a gentle one, or its return swing dies before it
# reaches the hands (each design draws it in this range).
MOUNT_DAMPING = (0.3, 1.6)  # N m s / rad
LATERAL = 0.15  # m: the swing plane is at most this far to either side of the robot


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    half_h = ctx.hazard.shape.size[2] / 2.0
    pivot_y = rng.uniform(-LATERAL, LATERAL)
    pivot_z = ctx.room_height - 0.03
    meet = rng.uniform(*HANDS_MEET_AHEAD)  # the weakest return turns here, m ahead
    meet_z = rng.uniform(*HANDS_MEET_HEIGHT)  # ... at this height
    pivot_x = entry_x(pivot_y) + rng.uniform(*OUTSIDE)
    damping = rng.uniform(*MOUNT_DAMPING)  # N m s / rad: a light bob feels it, a heavy one not
    knock = ctx.speed(KNOCKS)
    reach_back = pivot_x - meet  # horizontal, from the bottom to where it turns back
    # The rope, so that the weakest return turns at meet_z: a circle through the bottom point
    # (under the pivot) and the turning point, found by bisection on the rest height.
    lo, hi = half_h + 0.35, meet_z
    if lo >= hi:
        raise FamilyError(f"a {ctx.hazard.name} hangs too low to turn at the hands")
    for _ in range(60):
        rest = 0.5 * (lo + hi)
        length = pivot_z - rest
        turn_z = pivot_z - math.sqrt(max(length * length - reach_back * reach_back, 0.0))
        lo, hi = (lo, rest) if turn_z > meet_z else (rest, hi)
    rest = 0.5 * (lo + hi)
    length = pivot_z - rest
    if reach_back >= length:
        raise FamilyError("the rope is too short to swing back to the hands")
    pivot = (pivot_x, pivot_y, pivot_z)

    # A physical pendulum: the bob's own inertia about its centre (it hangs along the rope,
    # its z axis) added to m L^2, and its g-stiffness.
    mass = ctx.hazard.mass_kg
    inertia = mass * length * length + principal_inertia(ctx.hazard.shape, mass)[0]
    stiffness = mass * G * length / inertia

    def swing(rate: float) -> list[tuple[float, float, float]]:
        return integrate_angle(
            lambda th, w: -stiffness * math.sin(th) - damping / inertia * w,
            0.0,
            rate,
            stop=lambda _th, _w: False,
            horizon=ctx.horizon,
        )

    def returns_to(rate: float) -> float:
        """The angle at which a swing knocked at ``rate`` first turns back on the near side."""
        angles = swing(rate)
        for (_t0, _th0, w0), (_t1, th1, w1) in zip(angles, angles[1:], strict=False):
            if th1 < 0.0 and w0 < 0.0 <= w1:
                return th1
        return min(th for _t, th, _w in angles)

    # The weakest knock: the one whose return turns at the hands (bisection on the rate).
    target = -math.asin(reach_back / length)
    low, high = 0.0, 2.0 * math.sqrt(G / length)
    for _ in range(40):
        mid = 0.5 * (low + high)
        low, high = (mid, high) if returns_to(mid) > target else (low, mid)
    weakest = 0.5 * (low + high)
    theta_dot = knock * weakest  # away from the robot, which stands on the -x side

    def bob(theta: float) -> tuple[float, float, float]:
        return (
            pivot[0] + length * math.sin(theta),
            pivot[1],
            pivot[2] - length * math.cos(theta),
        )

    start = bob(0.0)
    hazard = ctx.make_object(
        ctx.hazard,
        "hazard",
        ObjectRole.hazard,
        start,
        lin_vel=(length * theta_dot, 0.0, 0.0),
        ang_vel=(0.0, -theta_dot, 0.0),  # w x r: a bob under its pivot moving +x turns about -y
        joint=Joint(kind="pendulum", anchor=pivot, axis=(0.0, 1.0, 0.0), damping=round(damping, 4)),
    )
    mount = furniture(
        "mount",
        FurnitureKind.ceiling_mount,
        (pivot[0], pivot[1], ctx.room_height - 0.015),
        (0.12, 0.12, 0.03),
        (0.8, 0.8, 0.8),
        0.5,
    )

    path = MotionPath()
    for t, theta, omega in swing(theta_dot):
        vel = (length * omega * math.cos(theta), 0.0, length * omega * math.sin(theta))
        path.append(t, bob(theta), vel, 0.5 * inertia * omega * omega)
    # The room holds the hardest knock's swing, the same room in every band of the group.
    hardest = max(swing(KNOCKS[SpeedBand.very_fast][1] * weakest), key=lambda a: a[1])
    far = bob(hardest[1])
    return Layout(
        furniture=[mount],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=start,
        description=(
            f"{ctx.hazard.looks_like} hanging from the ceiling is knocked away and swings back "
            "toward the robot"
        ),
        extent_points=[far],
    )


SAMPLER = register(
    FamilySampler(
        family=Family.pendulum_swing,
        summary="suspended mass swings in",
        archetype="articulated",
        gravity_paced=False,
        pool=(
            "punching_bag",
            "pendant_lamp",
            "potted_plant",
            "bean_bag",
            "teddy_bear",
            "basketball",
            "bowling_ball",  # on a rope from a garage beam: the physics teacher's pendulum
        ),
        rooms=(RoomType.garage, RoomType.living_room, RoomType.playroom, RoomType.dining_room),
        build=build,
        room_heights=(3.3, 3.8),  # a long rope swings slowly enough to leave time
        plan_phase=2,
    )
)
