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
from reacthuman.scenes.kinematics import Path, Support, point_mass_path, topple_angles
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
    Shape,
    SpeedBand,
)

SpeedRanges = dict[SpeedBand, tuple[float, float]]


class FamilyError(ValueError):
    """A family cannot produce a scene from these inputs."""


@dataclass
class Layout:
    """A family's event in the observer's frame."""

    furniture: list[Furniture]
    objects: list[SceneObject]
    primary: str
    path: Path  # the primary hazard point, from t = 0 (the event start) to the horizon
    event_origin: Vec3  # where the close-up camera looks
    description: str  # the event in words, naming objects only by how they look
    front_wall: float | None = None  # the event needs the room's front wall at this x
    floor_friction: float | None = None  # the event needs this floor (a polished floor)
    closeup_range: tuple[float, float] = (1.0, 1.8)  # close-up camera's distance from the origin
    closeup_azimuth: tuple[float, float] = (35.0, 80.0)  # degrees off the origin-to-robot line
    t0: float = 0.0  # seconds of settling before the event starts
    extra_frame_points: list[Vec3] = field(default_factory=list)


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
    ) -> SceneObject:
        """A scene object with the catalogue's physics, friction and restitution jittered +-10 %."""
        friction = obj.friction * self.rng.uniform(0.9, 1.1)
        restitution = min(obj.restitution * self.rng.uniform(0.9, 1.1), 0.95)
        shade = self.rng.uniform(-0.04, 0.04)
        color = tuple(min(max(c + shade, 0.0), 1.0) for c in obj.visual.color)
        return SceneObject(
            id=object_id,
            catalogue_name=obj.name,
            looks_like=obj.looks_like,
            visual_model=obj.visual.model,
            color=color,  # type: ignore[arg-type]
            role=role,
            adversarial=obj.adversarial,
            imitates=obj.imitates,
            shape=Shape(kind=obj.shape.kind, size=obj.shape.size),
            mass_kg=obj.mass_kg,
            hazards=obj.hazards,
            graspable=obj.graspable,
            friction=round(friction, 4),
            restitution=round(restitution, 4),
            pose=Pose(pos=pos, quat=quat),
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
        color=tuple(color),  # type: ignore[arg-type]
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
    path: Path | None = None,
) -> Path:
    """The point-mass path of ``obj`` (see kinematics), by default from its start pose and velocity.

    Balls roll; everything else slides. ``half_height`` is how far the centre sits above a
    support it lands on (half the object's height by default).
    """
    return point_mass_path(
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


def object_pool(sampler: FamilySampler, catalogue: Catalogue) -> list[CatalogueObject]:
    return [catalogue.get(name) for name in sampler.pool]


def adversarial_pool(sampler: FamilySampler, catalogue: Catalogue) -> list[CatalogueObject]:
    return [v for name in sampler.pool for v in catalogue.variants_of(name)]


def is_ball(obj: CatalogueObject) -> bool:
    return obj.shape.kind.value == "sphere"


def topple(
    ctx: SampleContext,
    obj: CatalogueObject,
    object_id: str,
    pivot_x: float,
    y: float,
    tilt_past_balance: float,
) -> tuple[SceneObject, Path]:
    """A tall object standing on its front bottom edge at ``pivot_x``, tilted toward the observer.

    It is tilted ``tilt_past_balance`` radians past the angle at which its centre of mass is
    over the edge, so gravity alone topples it. The path follows its top front edge.
    """
    depth, _width, height = obj.shape.size
    tilt = math.atan2(depth, height) + tilt_past_balance
    quat = quat_from_axis_angle((0.0, 1.0, 0.0), -tilt)
    # Rotating body offsets about y by -tilt: (x, z) -> (x cos t - z sin t, x sin t + z cos t).
    cx = depth / 2.0 * math.cos(tilt) - height / 2.0 * math.sin(tilt)
    cz = depth / 2.0 * math.sin(tilt) + height / 2.0 * math.cos(tilt)
    placed = ctx.make_object(obj, object_id, ObjectRole.hazard, (pivot_x + cx, y, cz + 0.002), quat)
    placed = placed.model_copy(update={"hazard_point": (-depth / 2.0, 0.0, height / 2.0)})
    path = Path()
    angles = topple_angles(height, depth, tilt, ctx.horizon)
    for t, theta, omega in angles:
        top = (pivot_x - height * math.sin(theta), y, height * math.cos(theta))
        vel = (-height * math.cos(theta) * omega, 0.0, -height * math.sin(theta) * omega)
        path.append(t, top, vel)
    path.floor_time = angles[-1][0] if angles[-1][1] >= math.pi / 2 else None
    path.hold_until(ctx.horizon)
    return placed, path
