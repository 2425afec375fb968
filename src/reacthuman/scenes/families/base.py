"""What a family sampler is, and the helpers every sampler shares.

A family module builds its event in the observer's frame (observer's feet at the origin,
facing +x, y to the left, z up) and registers itself; ``reacthuman.scenes.generate`` places
the result in a room, adds cameras and lighting, and moves it to the world frame. Adding a
family is one new module here that calls ``register``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from reacthuman.scenes.catalogue import Catalogue, CatalogueObject
from reacthuman.scenes.geometry import (
    IDENTITY_QUAT,
    Quat,
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
from reacthuman.scenes.labels import Action, intrinsic_reasons
from reacthuman.scenes.reach import REACH_RADIUS
from reacthuman.scenes.rng import SeededRng
from reacthuman.scenes.spec import (
    Family,
    Furniture,
    FurnitureKind,
    Joint,
    ObjectRole,
    Pose,
    RoomType,
    SceneObject,
    SpeedBand,
)
from reacthuman.scenes.twin import MassCue, as_twin, reads_heavier

SpeedRanges = dict[SpeedBand, tuple[float, float]]

CATCH, DODGE, NO_ACTION = Action.EXECUTE_CATCH, Action.TRIGGER_DODGE, Action.NO_ACTION
# What a family's scene groups are meant to be, in turn (``FamilySampler.plan``). Two catches
# for each dodge where a family can stage both: four families can only stage dodges (doors,
# ladders, toppling furniture, a fall from a double-height ceiling), so the others lean to
# catching for the whole set to keep the paper's even split (141 / 156 / 9).
CATCH_LEANING = (CATCH, DODGE, CATCH)
# Catches and dodges in turn: a family that stages look-alikes of both sides
# (``generate._gets_look_alike`` puts a harmless one only between two dangerous ones).
ALTERNATING = (CATCH, DODGE)


class FamilyError(ValueError):
    """A family cannot produce a scene from these inputs."""


@dataclass
class Layout:
    """A family's event in the observer's frame."""

    furniture: list[Furniture]
    objects: list[SceneObject]
    primary: str
    path: MotionPath  # the primary hazard point, from t = 0 (the event start) to the horizon
    event_origin: Vec3  # where the close-up camera looks
    description: str  # the event in words, naming objects only by how they look
    front_wall: float | None = None  # the event needs the room's front wall at this x
    side_wall: float | None = None  # ... or a side wall at this y (left if positive)
    floor_friction: float | None = None  # the event needs this floor (a polished floor)
    closeup_range: tuple[float, float] = (1.0, 1.8)  # close-up camera's distance from the origin
    closeup_azimuth: tuple[float, float] = (35.0, 80.0)  # degrees off the origin-to-robot line
    # True where the hazard travels far in the window (a throw, a bounce): the close-up stands
    # beside where it is at the freeze rather than where it started, so a small object is not
    # a few pixels across by then.
    closeup_follows: bool = False
    # A point on a door's vertical hinge axis at the hazard point's height: the close-up then
    # judges how large it shows the door by the width it shows from there to the hazard point,
    # so it does not keep a pose that sees the door edge-on at the freeze.
    hinge: Vec3 | None = None
    t0: float = 0.0  # seconds of settling before the event starts
    extra_frame_points: list[Vec3] = field(default_factory=list)
    # False where the floor is the hazard's path, not its outcome (a ball bouncing or rolling
    # across the floor to the robot): its floor contacts then do not end the decision moment.
    floor_resolves: bool = True
    reaches: bool = True  # the sampler means the hazard to reach the robot (False: No_Action)
    # Cameras frame the motion of all four bands of the group (so they are the same in each);
    # False where the bands differ in where the event starts (thrown_object's thrower).
    frame_all_bands: bool = True
    extent_points: list[Vec3] = field(default_factory=list)  # the room must hold these too
    # How far past the required reaction margin the design must aim (moment.DESIGN_SLACK by
    # default); free fall and ballistic flight are exact in simulation and need less.
    design_slack: float | None = None
    # The very fast / slow ratio of the speed at the hands the design aims for (generate's
    # default leaves room for contacts and bounces).
    design_speed_ratio: float | None = None
    # The designed paths of other objects that move toward the robot (a chain's striker
    # rolling on after the strike): each is a hazard where it reaches (scenes.labels).
    other_paths: dict[str, MotionPath] = field(default_factory=dict)
    # A look-alike's path in this same scene with its genuine twin's physics (what the twin
    # test simulates, scenes.twin): the design must part the two plainly in the window.
    twin_path: MotionPath | None = None

    @property
    def hazard(self) -> SceneObject:
        """The primary hazard (``SceneSpec.hazard`` of the scene it becomes)."""
        return next(o for o in self.objects if o.id == self.primary)


@dataclass
class SampleContext:
    """Everything a sampler may draw from. All draws come from ``rng``, in a fixed order."""

    rng: SeededRng
    band: SpeedBand
    hazard: CatalogueObject
    catalogue: Catalogue
    room: RoomType
    room_height: float
    floor_friction: float
    horizon: float
    # The group's own stream, for what a scene is meant to be (which regime): a redrawn
    # design keeps it, so redrawing never trades a hard case for an easy one.
    intent: SeededRng | None = None
    # What the group is meant to be (``FamilySampler.plan``): the object was drawn for it, and
    # a design that would give another label is drawn again. NO_ACTION: stage it out of reach.
    side: Action = Action.EXECUTE_CATCH

    def meant(self, probability: float) -> bool:
        """A yes/no choice about what the group is, drawn from ``intent``."""
        return (self.intent or self.rng).chance(probability)

    @property
    def out_of_reach(self) -> bool:
        return self.side is Action.NO_ACTION

    def speed(self, ranges: SpeedRanges) -> float:
        """The swept speed: one draw, placed in this band's range.

        Exactly one uniform is drawn whatever the band, so every other parameter of a scene
        group is identical across its four bands (paper 5.2, "Speed is perceived as binary").
        """
        u = self.rng.random()
        if self.band is SpeedBand.gravity:
            raise FamilyError("a gravity-paced family has no swept speed")
        low, high = ranges[self.band]
        return low + u * (high - low)

    def make_object(
        self,
        obj: CatalogueObject,
        object_id: str,
        role: ObjectRole,
        pos: Vec3,
        quat: Quat = IDENTITY_QUAT,
        lin_vel: Vec3 = (0.0, 0.0, 0.0),
        ang_vel: Vec3 = (0.0, 0.0, 0.0),
        joint: Joint | None = None,
        launch_at_t0: bool = False,
        surface_factor: float = 1.0,
    ) -> SceneObject:
        """A scene object with the catalogue's physics, friction and restitution jittered +-10 %.

        ``surface_factor`` scales its friction for a wet or polished surface it sits on (the
        paper's randomizer samples friction): lubricated, each material keeps its relative grip.
        """
        friction = obj.friction * self.rng.uniform(0.9, 1.1) * surface_factor
        restitution = min(obj.restitution * self.rng.uniform(0.9, 1.1), 0.95)
        shade = self.rng.uniform(-0.04, 0.04)
        color = tuple(min(max(c + shade, 0.0), 1.0) for c in obj.visual.color)
        return obj.placed(
            object_id,
            role,
            Pose(pos=pos, quat=quat),
            color=color,
            friction=round(friction, 4),
            restitution=round(restitution, 4),
            lin_vel=lin_vel,
            ang_vel=ang_vel,
            joint=joint,
            launch_at_t0=launch_at_t0,
        )


@dataclass(frozen=True)
class FamilySampler:
    family: Family
    summary: str  # the paper's one-line description (Figure 1)
    archetype: str  # fall, slide_roll, topple, articulated, ballistic, causal_chain
    gravity_paced: bool  # True: gravity sets the pace, no speed sweep
    pool: tuple[str, ...]  # genuine catalogue objects; their adversarial variants join them
    rooms: tuple[RoomType, ...]
    build: Callable[[SampleContext], Layout]
    room_heights: tuple[float, float] = (2.5, 3.0)  # m, ceiling heights the family needs
    # True where whether the object is safe to catch depending on its speed is the point of
    # the family's sweep; otherwise a group whose label changes with the band is redrawn.
    speed_decides_label: bool = False
    # How the window shows plainly what an object weighs, if it does (a bounce onto a
    # counter): only then can a look-alike be told from the genuine object (the twin test,
    # scenes.twin), so only then is one injected, and only one whose cue reads the right way
    # (adversarial_pool). A free fall, a flight, a roll, a topple or a slide moves a foam
    # anvil exactly like an iron one (no air drag; on an incline friction, not mass, sets the
    # pace), and a swing's damping shows only against another window.
    mass_cue: MassCue | None = None
    # Seconds after t0 that the ground truth covers, where the family's slowest band needs
    # more than the generator's default (generate.HORIZON) to resolve.
    horizon: float | None = None
    # What its scene groups are meant to be, in turn: group g is ``plan[(g + plan_phase) %
    # len(plan)]``. The object is drawn from the pool's side for it (harmless for a catch,
    # dangerous for a dodge), and the design must give that label (scenes.mix). Families
    # sharing a plan start it at different phases, so any block of consecutive groups holds
    # the same mix whatever seed it starts at.
    plan: tuple[Action, ...] = CATCH_LEANING
    plan_phase: int = 0
    # True where a dodge group may draw a harmless object because the event makes it a
    # dodge (chain_reaction: a heavy striker that rolls on into reach after the strike).
    dodge_by_event: bool = False
    # m: the least longest extent of a pool object a generated group draws (where the
    # family's fastest band leaves a smaller one too far off at the freeze to see).
    min_drawn_extent: float = 0.0

    @property
    def shows_mass(self) -> bool:
        return self.mass_cue is not None


REGISTRY: dict[Family, FamilySampler] = {}


def register(sampler: FamilySampler) -> FamilySampler:
    if sampler.family in REGISTRY:
        raise FamilyError(f"family {sampler.family.value!r} registered twice")
    REGISTRY[sampler.family] = sampler
    return sampler


# --- shared building blocks ---------------------------------------------------------------


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


def object_pool(sampler: FamilySampler, catalogue: Catalogue) -> list[CatalogueObject]:
    return [catalogue.get(name) for name in sampler.pool]


def adversarial_pool(sampler: FamilySampler, catalogue: Catalogue) -> list[CatalogueObject]:
    """The pool's look-alikes whose physics calls for the other action than their look: a
    foam brick (caught) that looks like a brick (dodged). A look-alike that deserves the same
    action as what it imitates (a hollow prop door is as large as a wooden one) probes
    nothing and is left out; so is one whose cue in the family's window reads the wrong way
    (a steel apple rebounds off a counter higher than an apple: it looks light, not heavy)."""
    return [
        v
        for name in sampler.pool
        for v in catalogue.variants_of(name)
        if bool(intrinsic_reasons(v)) != bool(intrinsic_reasons(catalogue.get(name)))
        and (
            sampler.mass_cue is None
            or reads_heavier(sampler.mass_cue, v, catalogue.get(name)) == bool(intrinsic_reasons(v))
        )
    ]


def twin_of(ctx: SampleContext, obj: SceneObject) -> SceneObject | None:
    """For a look-alike, the same object with its genuine twin's physics (its jitter kept):
    what the family's ``Layout.twin_path`` is computed with. None for a genuine object."""
    return as_twin(obj, ctx.catalogue) if obj.adversarial else None


def planned_side(sampler: FamilySampler, group: int) -> Action:
    """What scene group ``group`` of a family is meant to be."""
    return sampler.plan[(group + sampler.plan_phase) % len(sampler.plan)]


def on_side(objects: Sequence[CatalogueObject], side: Action) -> list[CatalogueObject]:
    """The objects whose own properties give ``side``: harmless ones for a catch, dangerous
    ones for a dodge (all of them for no action: what does not reach is not judged by what
    it is)."""
    if side is Action.EXECUTE_CATCH:
        return [o for o in objects if not intrinsic_reasons(o)]
    if side is Action.TRIGGER_DODGE:
        return [o for o in objects if intrinsic_reasons(o)]
    return list(objects)


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
