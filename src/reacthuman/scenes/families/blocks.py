"""The building blocks family samplers share: furniture, tables and counters where a G1's
hands are, slippery surfaces, and the closed-form motions (a flight, a slide down an
incline, a topple) a design is judged by.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from reacthuman.scenes.catalogue import CatalogueObject
from reacthuman.scenes.families.base import SampleContext
from reacthuman.scenes.geometry import (
    IDENTITY_QUAT,
    Vec3,
    quat_from_axis_angle,
    quat_from_yaw,
)
from reacthuman.scenes.kinematics import (
    DT,
    G,
    MotionPath,
    Support,
    kinetic_energy,
    point_mass_path,
    topple_angles,
)
from reacthuman.scenes.reach import REACH_RADIUS
from reacthuman.scenes.spec import (
    Furniture,
    FurnitureKind,
    ObjectRole,
    Pose,
    SceneObject,
    SpeedBand,
)


def furniture(
    furniture_id: str,
    kind: FurnitureKind,
    center: Vec3,
    size: Vec3,
    color: Sequence[float],
    friction: float,
    yaw: float = 0.0,
    steps: int | None = None,
) -> Furniture:
    return Furniture(
        id=furniture_id,
        kind=kind,
        pose=Pose(pos=center, quat=quat_from_yaw(yaw) if yaw else IDENTITY_QUAT),
        size=size,
        color=tuple(color),
        friction=friction,
        steps=steps,
    )


WOOD_COLORS: tuple[Vec3, ...] = (
    (0.55, 0.38, 0.22),
    (0.72, 0.55, 0.36),
    (0.40, 0.27, 0.16),
    (0.85, 0.80, 0.72),
    (0.30, 0.30, 0.32),
)


def table_with_near_edge(
    ctx: SampleContext,
    furniture_id: str,
    near_edge_x: float,
    center_y: float,
    height: float,
    kind: FurnitureKind = FurnitureKind.table,
) -> tuple[Furniture, Support]:
    """A table whose edge nearest the observer is at ``near_edge_x``, and its top as a support."""
    depth = ctx.rng.uniform(0.7, 1.0)
    width = ctx.rng.uniform(1.0, 1.6)
    color = ctx.rng.choice(WOOD_COLORS)
    friction = ctx.rng.uniform(0.4, 0.6)
    piece = furniture(
        furniture_id,
        kind,
        (near_edge_x + depth / 2.0, center_y, height / 2.0),
        (depth, width, height),
        color,
        friction,
    )
    top = Support(
        height,
        (near_edge_x, near_edge_x + depth),
        (center_y - width / 2.0, center_y + width / 2.0),
        friction,
    )
    return piece, top


# A counter whose near end is where a G1 standing still holds both hands out (0.3-0.4 m ahead
# at 0.9-1.1 m): an object coming off that end falls into them, so a catch needs no walk in
# the time a scene leaves (a G1 walks 0.5 m/s). The families that bring their object to the
# robot over a counter end there.
HANDS_COUNTER_NEAR_EDGE = (0.45, 0.5)  # m ahead of the robot's feet
HANDS_COUNTER_HEIGHT = (0.9, 1.0)  # m: a kitchen counter, a high table, a workbench
# Where an object's centre travels along such a counter: at the height of hands held out
# (the reach map: 0.95-1.15 m) and below the reach plane (reach.REACH_PLANE_HEIGHT, 1.1 m), so
# that it meets the hands as it comes off the end, at the speed it travels with. A beach ball
# rolling along a 1 m counter (its centre at 1.2 m) would meet them only after dropping off,
# as fast at any roll speed; a flat book on a 0.9 m one would come off below them.
HANDS_COUNTER_CENTRE = (0.95, 1.05)  # m


def hands_counter_height(ctx: SampleContext, obj: CatalogueObject) -> float:
    """A counter height from ``HANDS_COUNTER_HEIGHT`` (one draw), raised for a flat object or
    lowered for a tall one so that its centre rides within ``HANDS_COUNTER_CENTRE``."""
    height = ctx.rng.uniform(*HANDS_COUNTER_HEIGHT)
    half = obj.shape.size[2] / 2.0
    low, high = HANDS_COUNTER_CENTRE
    return min(max(height, low - half), high - half)


# Where both hands of a G1 standing still reach an object's centre (the measured reach map,
# assets/gaits.json: 0.45 m ahead at most, at 0.95-1.15 m): the families whose object comes
# to the robot through the air, not over a counter, bring it here.
HANDS_MEET_AHEAD = (0.33, 0.4)  # m ahead of the robot's feet
HANDS_MEET_HEIGHT = (0.95, 1.05)  # m above the floor


# A wet glass table top: objects on it keep this share of their dry friction, and the top's own
# friction is below any of theirs (a pair uses the larger of its two). Both stay below the
# simulator's floor (kinematics.SIM_MIN_FRICTION, 0.01), so every object glides at that floor,
# the least grip the simulation has: pushed in the slow band it still glides the 1.8 m to the
# table's end inside the horizon (one that stopped on the table would need no catch).
WET_FACTOR = (0.005, 0.008)
WET_TOP_FRICTION = 0.004
# A waxed board (a dropped shelf, a chute): objects on it keep this share of their grip, so
# that the board tilts just past an object's friction angle at 8-27 degrees. On steeper
# boards (a folded towel's 42 degrees) the simulator's soft contacts creep: objects slid
# 2-4 times as fast as the closed form, and the decision moment was gone (measured). The
# board's own friction is below any object's share of grip (a pair takes the larger).
WAXED_FACTOR = (0.45, 0.55)
WAXED_FRICTION = 0.1


def long_table(
    ctx: SampleContext,
    furniture_id: str,
    near_edge_x: float,
    far_edge_x: float,
    center_y: float,
    height: float,
    friction: float,
    kind: FurnitureKind = FurnitureKind.table,
) -> tuple[Furniture, Support]:
    """A table running away from the robot from ``near_edge_x`` to ``far_edge_x``."""
    width = ctx.rng.uniform(0.8, 1.1)
    depth = far_edge_x - near_edge_x
    piece = furniture(
        furniture_id,
        kind,
        (near_edge_x + depth / 2.0, center_y, height / 2.0),
        (depth, width, height),
        ctx.rng.choice(WOOD_COLORS),
        friction,
    )
    top = Support(
        height,
        (near_edge_x, far_edge_x),
        (center_y - width / 2.0, center_y + width / 2.0),
        friction,
    )
    return piece, top


def entry_x(y: float) -> float:
    """Where a path along -x at lateral offset ``y`` enters the reach zone."""
    return math.sqrt(max(REACH_RADIUS**2 - y * y, 0.0))


def resting_z(surface: float, obj: CatalogueObject) -> float:
    """The centre height of an object resting on a surface, 2 mm clear so it starts in no solid."""
    return surface + obj.shape.size[2] / 2.0 + 0.002


def rolling_spin(vel: Sequence[float], radius: float) -> Vec3:
    """Angular velocity of a ball rolling without slipping on a floor-parallel surface.

    No slip at the contact point: v + w x (0, 0, -r) = 0, so w = (-v_y / r, v_x / r, 0).
    """
    return (-vel[1] / radius, vel[0] / radius, 0.0)


def mu(obj: SceneObject, surface_friction: float) -> float:
    """Friction used for predictions: the larger of the pair, as MuJoCo-style solvers combine it."""
    return max(obj.friction, surface_friction)


def fly(
    ctx: SampleContext,
    obj: SceneObject,
    supports: Sequence[Support],
    *,
    half_height: float | None = None,
    rolling: bool | None = None,
    start_t: float = 0.0,
    pos: Vec3 | None = None,
    vel: Vec3 | None = None,
    path: MotionPath | None = None,
) -> MotionPath:
    """The point-mass path of ``obj`` (see kinematics), by default from its start pose and velocity.

    Balls roll; everything else slides. ``half_height`` is how far the centre sits above a
    support it lands on (half the object's height by default). Each new sample carries the
    object's kinetic energy: its spin counts until its first landing (``obj.ang_vel`` in
    flight), and a ball rolls on after it (rotation 2/5 of its translation's).
    """
    first = 0 if path is None else len(path.samples)
    path = point_mass_path(
        start_t,
        obj.pose.pos if pos is None else pos,
        obj.lin_vel if vel is None else vel,
        half_height=obj.shape.size[2] / 2.0 if half_height is None else half_height,
        supports=supports,
        restitution=obj.restitution,
        friction=obj.friction,
        floor_friction=ctx.floor_friction,
        rolling=obj.shape.kind.value == "sphere" if rolling is None else rolling,
        horizon=ctx.horizon,
        path=path,
    )
    ball = obj.shape.kind.value == "sphere"
    spin = kinetic_energy(obj.shape, obj.mass_kg, (0.0, 0.0, 0.0), obj.ang_vel, obj.pose.quat)
    for sample in path.samples[first:]:
        translation = (
            0.5 * obj.mass_kg * (sample.vel[0] ** 2 + sample.vel[1] ** 2 + sample.vel[2] ** 2)
        )
        landed = path.first_contact is not None and sample.t >= path.first_contact
        if not landed:
            sample.energy = translation + spin
        else:
            sample.energy = translation * (1.4 if ball else 1.0)
    return path


# m/s down an incline at the start (shelf_slide, sliding_object): the push that the band
# sweeps; the incline's small excess over the friction angle adds the same slow gain to all.
INCLINE_PUSH_SPEEDS = {
    SpeedBand.slow: (0.15, 0.2),
    SpeedBand.normal: (0.5, 0.55),
    SpeedBand.fast: (0.8, 0.85),
    SpeedBand.very_fast: (1.1, 1.2),
}


def slide_down(
    ctx: SampleContext,
    obj: SceneObject,
    down: Vec3,
    accel: float,
    length: float,
    *,
    supports: Sequence[Support] = (),
    path: MotionPath | None = None,
) -> MotionPath:
    """``obj`` slides from its start along a straight incline (unit vector ``down``) at a
    constant ``accel`` for ``length`` metres, then flies off its low end (see ``fly``)."""
    path = path if path is not None else MotionPath()
    t, s, v = (
        0.0 if not path.samples else path.end.t,
        0.0,
        math.sqrt(sum(c * c for c in obj.lin_vel)),
    )
    start = obj.pose.pos
    while s < length and t < ctx.horizon:
        pos = tuple(start[i] + s * down[i] for i in range(3))
        path.append(t, pos, tuple(v * d for d in down), 0.5 * obj.mass_kg * v * v)
        t += DT
        v = max(v + accel * DT, 0.0)
        s += v * DT
    end = (start[0] + s * down[0], start[1] + s * down[1], start[2] + s * down[2])
    first = len(path.samples)
    vel = (v * down[0], v * down[1], v * down[2])
    fly(ctx, obj, supports, start_t=t, pos=end, vel=vel, path=path)
    for sample in path.samples[first:]:  # no spin in flight: it slid off
        sample.energy = 0.5 * obj.mass_kg * sum(c * c for c in sample.vel)
    return path


def incline_accel(angle: float, friction: float) -> float:
    """Acceleration down an incline of ``angle`` rad for a sliding pair of ``friction``."""
    return G * (math.sin(angle) - friction * math.cos(angle))


def is_ball(obj: CatalogueObject) -> bool:
    return obj.shape.kind.value == "sphere"


def topple(
    ctx: SampleContext,
    obj: CatalogueObject,
    object_id: str,
    pivot_x: float,
    y: float,
    tilt_past_balance: float,
    *,
    base_z: float = 0.0,
    release: float | None = None,
    drop: float = 0.0,
) -> tuple[SceneObject, MotionPath]:
    """A tall object standing on its front bottom edge at (``pivot_x``, ``base_z``), tilted
    toward the observer (-x).

    It is tilted ``tilt_past_balance`` radians past the angle at which its centre of mass is
    over the edge, so gravity alone topples it. The path follows its top front edge. On the
    floor it lands at 90 degrees; standing on a ledge (``base_z`` > 0) it pivots on the
    ledge's edge until ``release`` radians, then flies off it turning at the rate it had.

    With ``drop`` > 0 it starts that far above the edge, as a fixture whose hook let go: it
    falls straight down, lands on the edge (a plastic impact: its angular momentum about the
    edge is kept, so it starts to turn at once) and topples from there.
    """
    depth, _width, height = obj.shape.size
    tilt = math.atan2(depth, height) + tilt_past_balance
    quat = quat_from_axis_angle((0.0, 1.0, 0.0), -tilt)

    def offset(theta: float, local: tuple[float, float]) -> tuple[float, float]:
        # Body (x, z) offsets from the pivot edge, rotated about y by -theta.
        x, z = local
        return (
            x * math.cos(theta) - z * math.sin(theta),
            x * math.sin(theta) + z * math.cos(theta),
        )

    cx, cz = offset(tilt, (depth / 2.0, height / 2.0))
    placed = ctx.make_object(
        obj, object_id, ObjectRole.hazard, (pivot_x + cx, y, base_z + drop + cz + 0.002), quat
    )
    placed = placed.model_copy(update={"hazard_point": (-depth / 2.0, 0.0, height / 2.0)})
    pivot_inertia = obj.mass_kg * (height**2 + depth**2) / 3.0  # a box about its bottom edge
    path = MotionPath()
    limit = math.pi / 2 if release is None else release
    steps = round(math.sqrt(2.0 * drop / G) / DT)  # the fall to the edge, on the path's clock
    landed = steps * DT
    fall_speed = G * landed
    # Angular momentum about the edge at landing: the centre, past the edge by
    # r sin(tilt - balance), falling at fall_speed.
    r_cm = 0.5 * math.hypot(height, depth)
    omega0 = fall_speed * r_cm * math.sin(tilt_past_balance) / ((height**2 + depth**2) / 3.0)
    for k in range(steps):
        t = k * DT
        top = (pivot_x - height * math.sin(tilt), y, base_z + height * math.cos(tilt))
        path.append(
            t,
            (top[0], y, top[2] + drop - 0.5 * G * t * t),
            (0.0, 0.0, -G * t),
            0.5 * obj.mass_kg * (G * t) ** 2,
        )
    angles = [
        (t + landed, theta, omega)
        for t, theta, omega in topple_angles(
            height, depth, tilt, ctx.horizon - landed, stop=limit, omega0=omega0
        )
    ]
    for t, theta, omega in angles:
        top = (pivot_x - height * math.sin(theta), y, base_z + height * math.cos(theta))
        vel = (-height * math.cos(theta) * omega, 0.0, -height * math.sin(theta) * omega)
        path.append(t, top, vel, 0.5 * pivot_inertia * omega**2)
    t_end, theta, omega = angles[-1]
    if release is None or theta < limit:
        path.floor_time = t_end if theta >= math.pi / 2 and base_z == 0.0 else None
        path.hold_until(ctx.horizon)
        return placed, path
    # Off the ledge: the centre flies, the body keeps turning at omega (no torque in flight).
    ox, oz = offset(theta, (depth / 2.0, height / 2.0))
    center = (pivot_x + ox, base_z + oz)
    # The centre's velocity: omega x r about y, r = (ox, oz), turning toward -x.
    cvel = (-omega * oz, omega * ox)
    corners = [(0.0, 0.0), (depth, 0.0), (0.0, height), (depth, height)]
    spin_energy = 0.5 * obj.mass_kg * (height**2 + depth**2) / 12.0 * omega**2
    t = t_end
    while t < ctx.horizon - 1e-9:
        t += DT
        tau = t - t_end
        angle = theta + omega * tau
        x = center[0] + cvel[0] * tau
        z = center[1] + cvel[1] * tau - 0.5 * G * tau * tau
        vz = cvel[1] - G * tau

        def point(
            local: tuple[float, float], cx: float, cz: float, a: float
        ) -> tuple[float, float]:
            px, pz = offset(a, (local[0] - depth / 2.0, local[1] - height / 2.0))
            return (cx + px, cz + pz)

        low = min(point(c, x, z, angle)[1] for c in corners)
        if low <= 0.0:
            path.floor_time = t
            break
        tx, tz = point((0.0, height), x, z, angle)
        # The top edge's velocity: the centre's plus omega x (top - centre).
        tvx = cvel[0] - omega * (tz - z)
        tvz = vz + omega * (tx - x)
        energy = 0.5 * obj.mass_kg * (cvel[0] ** 2 + vz**2) + spin_energy
        path.append(t, (tx, y, tz), (tvx, 0.0, tvz), energy)
    path.hold_until(ctx.horizon)
    return placed, path
