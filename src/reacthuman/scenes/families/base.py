"""What a family sampler is (its layout, context, registry and plan), and the pools it draws
from; the building blocks samplers share are in ``families.blocks``.

A family module builds its event in the observer's frame (observer's feet at the origin,
facing +x, y to the left, z up) and registers itself; ``reacthuman.scenes.generate`` places
the result in a room, adds cameras and lighting, and moves it to the world frame. Adding a
family is one new module here that calls ``register``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from reacthuman.scenes.catalogue import Catalogue, CatalogueObject
from reacthuman.scenes.geometry import (
    IDENTITY_QUAT,
    Quat,
    Vec3,
)
from reacthuman.scenes.kinematics import (
    MotionPath,
)
from reacthuman.scenes.labels import Action, intrinsic_reasons
from reacthuman.scenes.rng import SeededRng
from reacthuman.scenes.spec import (
    Family,
    Furniture,
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
# (``design._gets_look_alike`` puts a harmless one only between two dangerous ones).
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
    # more than the generator's default (samplers.HORIZON) to resolve.
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
