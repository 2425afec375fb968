"""SceneSpec: the complete, versioned, self-contained description of one benchmark scene.

One SceneSpec type flows through every stage (simulation, brain, spine, scoring) unchanged.
Everything the simulator needs is in it, so a spec file reproduces its scene without the
catalogue or the generator. All positions are in the world frame (the room frame: floor at
z = 0, room centred on the origin, walls axis-aligned), in metres, seconds, kilograms, radians.
"""

from __future__ import annotations

import json
import math
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

SCHEMA_VERSION: Final = "2.1"  # Final: its type is Literal["2.1"], what schema_version holds

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]
Rgb = tuple[
    Annotated[float, Field(ge=0, le=1)],
    Annotated[float, Field(ge=0, le=1)],
    Annotated[float, Field(ge=0, le=1)],
]
PositiveVec3 = tuple[
    Annotated[float, Field(gt=0)], Annotated[float, Field(gt=0)], Annotated[float, Field(gt=0)]
]


class StrictModel(BaseModel):
    """Immutable, no unknown keys, no NaN or infinity: a typo in a spec is an error."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Family(StrEnum):
    """The 17 sudden-event families of the paper (section 3.2)."""

    object_drop = "object_drop"
    shelf_slide = "shelf_slide"
    hanging_fall = "hanging_fall"
    ceiling_drop = "ceiling_drop"
    sliding_object = "sliding_object"
    rolling_ball = "rolling_ball"
    surface_cascade = "surface_cascade"
    furniture_tip = "furniture_tip"
    stack_collapse = "stack_collapse"
    ladder_slip = "ladder_slip"
    door_swing = "door_swing"
    pendulum_swing = "pendulum_swing"
    thrown_object = "thrown_object"
    bouncing_object = "bouncing_object"
    stair_tumble = "stair_tumble"
    chain_reaction = "chain_reaction"
    multi_object = "multi_object"


class SpeedBand(StrEnum):
    """The four swept speed bands, plus ``gravity`` for families whose pace gravity sets."""

    slow = "slow"
    normal = "normal"
    fast = "fast"
    very_fast = "very_fast"
    gravity = "gravity"


SWEPT_BANDS: tuple[SpeedBand, ...] = (
    SpeedBand.slow,
    SpeedBand.normal,
    SpeedBand.fast,
    SpeedBand.very_fast,
)


class RoomType(StrEnum):
    kitchen = "kitchen"
    living_room = "living_room"
    dining_room = "dining_room"
    bedroom = "bedroom"
    hallway = "hallway"
    office = "office"
    garage = "garage"
    playroom = "playroom"
    laundry_room = "laundry_room"


class Pose(StrictModel):
    pos: Vec3
    quat: Quat = (1.0, 0.0, 0.0, 0.0)  # (w, x, y, z)

    @field_validator("quat")
    @classmethod
    def _unit_quaternion(cls, q: Quat) -> Quat:
        n = math.sqrt(sum(c * c for c in q))
        if abs(n - 1.0) > 1e-3:
            raise ValueError(f"quaternion must have unit norm, got norm {n:.6f}")
        return q


class FloorFinish(StrEnum):
    """What the floor is made of, drawn as a texture whose pattern has a known size."""

    plain = "plain"  # one colour (specs before schema 2.1)
    wood = "wood"  # planks 0.15 m wide
    tile = "tile"  # 0.3 m tiles with grout lines
    carpet = "carpet"
    concrete = "concrete"


class WallFinish(StrEnum):
    plain = "plain"  # one colour (specs before schema 2.1)
    paint = "paint"  # one colour
    wallpaper = "wallpaper"  # stripes 0.1 m wide


class Room(StrictModel):
    """An axis-aligned box room centred on the origin; the floor is z = 0."""

    type: RoomType
    size: PositiveVec3  # extent along x, extent along y, ceiling height
    floor_color: Rgb
    wall_color: Rgb
    floor_friction: float = Field(gt=0, le=2)
    floor_finish: FloorFinish = FloorFinish.plain
    wall_finish: WallFinish = WallFinish.plain


class FurnitureKind(StrEnum):
    table = "table"
    counter = "counter"
    wall_shelf = "wall_shelf"
    hanging_shelf = "hanging_shelf"  # a side-wall shelf hanging from its far bracket, tilted
    stool = "stool"
    stairs = "stairs"
    ramp = "ramp"
    door_post = "door_post"
    platform = "platform"  # a solid block: a stair landing
    ceiling_mount = "ceiling_mount"
    # A person standing still, facing local -x (a child who has just thrown something): seen,
    # never touched (visual only); the robot's planners keep clear of it as of any furniture.
    person = "person"
    # Set dressing (``scenes.dressing``): what makes a room read as a home of its kind and gives
    # it things of known size. Against a wall, its front facing local -x; seen, never touched,
    # and clear of everything the event uses.
    door = "door"  # a closed door in the wall, 2.0-2.1 m tall
    window = "window"
    radiator = "radiator"
    sofa = "sofa"
    armchair = "armchair"
    sideboard = "sideboard"
    bed = "bed"
    wardrobe = "wardrobe"
    kitchen_units = "kitchen_units"  # base units with a worktop at 0.9 m, wall units above
    fridge = "fridge"
    desk = "desk"
    chair = "chair"
    shelving_unit = "shelving_unit"
    workbench = "workbench"
    washing_machine = "washing_machine"
    toy_chest = "toy_chest"


# Kinds that are seen and never touched: the simulator gives them no collision.
VISUAL_ONLY_KINDS: frozenset[FurnitureKind] = frozenset(
    {
        FurnitureKind.person,
        FurnitureKind.door,
        FurnitureKind.window,
        FurnitureKind.radiator,
        FurnitureKind.sofa,
        FurnitureKind.armchair,
        FurnitureKind.sideboard,
        FurnitureKind.bed,
        FurnitureKind.wardrobe,
        FurnitureKind.kitchen_units,
        FurnitureKind.fridge,
        FurnitureKind.desk,
        FurnitureKind.chair,
        FurnitureKind.shelving_unit,
        FurnitureKind.workbench,
        FurnitureKind.washing_machine,
        FurnitureKind.toy_chest,
    }
)


class Furniture(StrictModel):
    """A static support. ``size`` is the bounding box; the pose is its centre.

    Tables, counters, stools: a top slab on legs, top surface at pos.z + size.z / 2.
    Stairs: ``steps`` equal steps rising along the piece's local +x. Ramp: a wedge whose
    incline rises along local +x from height 0 to size.z (its angle is atan(size.z / size.x)).
    """

    id: str
    kind: FurnitureKind
    pose: Pose
    size: PositiveVec3
    color: Rgb
    friction: float = Field(gt=0, le=2)
    steps: int | None = Field(default=None, ge=1, le=30)

    @model_validator(mode="after")
    def _steps_only_for_stairs(self) -> Furniture:
        if (self.kind is FurnitureKind.stairs) != (self.steps is not None):
            raise ValueError("'steps' is required for stairs and only for stairs")
        return self


class ShapeKind(StrEnum):
    box = "box"
    sphere = "sphere"
    cylinder = "cylinder"


class Shape(StrictModel):
    """Collision primitive; ``size`` is the full extent: box [x, y, z], sphere [d, d, d],
    cylinder [d, d, h] with its axis along z."""

    kind: ShapeKind
    size: PositiveVec3


class Joint(StrictModel):
    """A revolute joint that ties an object to the world (door hinge, pendulum pivot)."""

    kind: Literal["hinge", "pendulum"]
    anchor: Vec3  # world point on the axis
    axis: Vec3  # unit axis in the world frame
    damping: float = Field(ge=0)

    @field_validator("axis")
    @classmethod
    def _unit_axis(cls, a: Vec3) -> Vec3:
        n = math.sqrt(sum(c * c for c in a))
        if abs(n - 1.0) > 1e-3:
            raise ValueError(f"joint axis must be a unit vector, got norm {n:.6f}")
        return a


class HazardFlags(StrictModel):
    """What makes an object dangerous to catch, from its true physics (never its look)."""

    sharp: bool
    hot: bool
    fragile_shattering: bool
    heavy: bool

    def active(self) -> list[str]:
        return [name for name, flag in self.model_dump().items() if flag]


class ObjectRole(StrEnum):
    hazard = "hazard"  # moves toward the observer; the decision is about it
    trigger = "trigger"  # sets a hazard in motion (chain reactions, rows)
    stack = "stack"  # a member of a stack or row that is not the primary hazard


class SceneObject(StrictModel):
    """A dynamic object with every physical parameter copied from the catalogue, plus its start."""

    id: str
    catalogue_name: str
    looks_like: str
    visual_model: str
    color: Rgb
    role: ObjectRole
    adversarial: bool
    imitates: str | None = None
    shape: Shape
    mass_kg: float = Field(gt=0)
    friction: float = Field(gt=0, le=2)
    restitution: float = Field(ge=0, le=1)
    hazards: HazardFlags
    graspable: bool
    pose: Pose
    lin_vel: Vec3 = (0.0, 0.0, 0.0)
    ang_vel: Vec3 = (0.0, 0.0, 0.0)
    joint: Joint | None = None
    launch_at_t0: bool = False  # held still until t0, then given lin_vel/ang_vel (triggers)
    # The point of this object, in its body frame, whose path decides where it meets the
    # robot: the centre of mass of compact objects; the free edge of a door, the top edge of
    # a toppling piece, the feet of a sliding ladder.
    hazard_point: Vec3 = (0.0, 0.0, 0.0)


class Observer(StrictModel):
    """Where the robot stands. ``yaw`` is its heading; its body frame is x forward, y left."""

    pos: Vec3  # feet, on the floor
    yaw: float = Field(ge=-math.pi - 1e-9, le=math.pi + 1e-9)
    height: float = Field(gt=0)
    eye_height: float = Field(gt=0)


class CameraName(StrEnum):
    egocentric = "egocentric"
    closeup = "closeup"
    overhead = "overhead"


class Camera(StrictModel):
    """A pinhole camera; resolution is a render setting, the aspect ratio is fixed at 16:9."""

    name: CameraName
    pos: Vec3
    lookat: Vec3
    up: Vec3
    fov_deg: float = Field(gt=10, lt=120)  # vertical


class Light(StrictModel):
    direction: Vec3
    color: Rgb
    intensity: float = Field(gt=0)


class Lighting(StrictModel):
    ambient: Rgb
    lights: list[Light] = Field(min_length=1, max_length=4)


class Timing(StrictModel):
    """``t0``: the event starts (after any settling pre-roll); window: the observed span, from
    t0 to the freeze (0.6 s, shortened for hazards too fast to leave a reaction margin after
    a full window: see ``reacthuman.scenes.moment``)."""

    t0: float = Field(ge=0)
    window: float = Field(gt=0, le=5)
    horizon: float = Field(gt=0, le=30)  # how long after t0 ground truth is rolled out


class PathPoint(StrictModel):
    t: float  # seconds after t0
    pos: Vec3


class ObjectArrival(StrictModel):
    """How another moving object of a scene (a chain's striker, a stack's other items) meets
    the observer: it is a hazard too when it reaches the reach zone (``scenes.labels``)."""

    id: str  # the object's id in the scene
    reaches_observer: bool
    peak_speed: float | None = None  # m/s at the hands
    peak_kinetic_energy: float | None = None  # J at the hands


class IntendedMotion(StrictModel):
    """What the family sampler designed the hazard to do, from closed-form kinematics.

    The path follows the hazard point: the centre of mass of compact objects, the point of a
    long object (ladder, door, furniture, pendulum bob) that sweeps toward the observer. The
    simulation issue measures the real motion and validates it against this.
    """

    path: list[PathPoint] = Field(min_length=2)  # 10 Hz, t0 .. t0 + horizon
    reaches_observer: bool
    arrival_time: float | None  # first entry into the reach zone, s after t0
    arrival_point: Vec3 | None
    arrival_speed: float | None  # m/s of the hazard point as it enters the reach zone
    arrival_kinetic_energy: float | None  # J, the object's (translation + rotation) then
    peak_speed: float | None  # m/s, the largest inside the zone in front until the hands
    peak_kinetic_energy: float | None  # J, likewise
    floor_time: float | None  # first floor contact, s after t0
    floor_resolves: bool = True  # False where the floor is the hazard's path (bouncing)
    reaction_margin: float | None  # s from the freeze to arrival or landing
    others: list[ObjectArrival] = []  # other objects the sampler designed to move


class Pin(StrictModel):
    """What an authored scene's selection fixes (``reacthuman scenes author``): the object
    and the room. The seed still draws every physical number, as for any scene."""

    object: str = Field(min_length=1, max_length=64)  # a catalogue name
    room: RoomType
    # The graded outcome of the documented hazard it stages (low, medium, high): the report
    # breaks results down by it. It changes nothing the simulator does.
    severity: Literal["low", "medium", "high"] | None = None


class GeneratorInfo(StrictModel):
    name: Literal["reacthuman.scenes"] = "reacthuman.scenes"
    version: str
    adversarial_rate: float = Field(ge=0, le=1)
    pin: Pin | None = None  # an authored scene's object and room; absent from generated specs

    @model_serializer(mode="wrap")
    def _without_absent_pin(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        # A generated spec's bytes stay what they were before authored scenes existed.
        data: dict[str, object] = handler(self)
        if data.get("pin") is None:
            data.pop("pin", None)
        return data


class SceneSpec(StrictModel):
    schema_version: Literal["2.1"] = SCHEMA_VERSION
    scene_id: str = Field(pattern=r"^[a-z_]+-\d{6,}$")
    family: Family
    seed: int = Field(ge=0)
    group: int = Field(ge=0)  # scenes of one group differ only in speed band
    speed_band: SpeedBand
    adversarial: bool
    description: str
    generator: GeneratorInfo
    room: Room
    furniture: list[Furniture]
    objects: list[SceneObject] = Field(min_length=1)
    primary_hazard: str
    observer: Observer
    cameras: list[Camera] = Field(min_length=3, max_length=3)
    lighting: Lighting
    timing: Timing
    intended: IntendedMotion

    @model_validator(mode="after")
    def _consistent(self) -> SceneSpec:
        ids = [o.id for o in self.objects] + [f.id for f in self.furniture]
        if len(ids) != len(set(ids)):
            raise ValueError("object and furniture ids must be unique")
        hazard_ids = {o.id for o in self.objects}
        hazard = {o.id: o for o in self.objects}.get(self.primary_hazard)
        if hazard is None:
            raise ValueError(f"primary_hazard {self.primary_hazard!r} is not an object id")
        if hazard.role is not ObjectRole.hazard:
            raise ValueError(f"primary_hazard {self.primary_hazard!r} must have role 'hazard'")
        if self.adversarial != hazard.adversarial:
            raise ValueError("'adversarial' must equal the primary hazard's adversarial flag")
        if [c.name for c in self.cameras] != list(CameraName):
            raise ValueError("cameras must be egocentric, closeup, overhead in that order")
        if self.scene_id != scene_id(self.family, self.seed):
            raise ValueError(f"scene_id must be {scene_id(self.family, self.seed)!r}")
        for other in self.intended.others:
            if other.id not in hazard_ids or other.id == self.primary_hazard:
                raise ValueError(
                    f"intended.others: {other.id!r} is not an object id other than the primary "
                    "hazard's"
                )
        return self

    @property
    def hazard(self) -> SceneObject:
        return next(o for o in self.objects if o.id == self.primary_hazard)

    def camera(self, name: CameraName | str) -> Camera:
        return next(c for c in self.cameras if c.name == CameraName(name))

    def to_json(self) -> str:
        """Canonical JSON: the same spec always gives the same bytes."""
        return json.dumps(self.model_dump(mode="json"), indent=2, sort_keys=False) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> SceneSpec:
        return cls.model_validate_json(text)

    @classmethod
    def load(cls, path: str | Path) -> SceneSpec:
        return cls.from_json(Path(path).read_bytes())  # not UTF-8: a ValidationError


def scene_id(family: Family | str, seed: int) -> str:
    return f"{Family(family).value}-{seed:06d}"
