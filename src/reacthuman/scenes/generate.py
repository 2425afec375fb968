"""Scene generation: a SceneSpec as a pure function of (family, seed, adversarial rate).

The seed schedule (documented in docs/scenes.md): in the twelve speed-swept families, seed
``s`` is scene group ``s // 4`` at band ``(slow, normal, fast, very_fast)[s % 4]``; every
parameter but the swept speed is drawn from the group's stream, so the four bands of a group
differ in speed only. In the five gravity-paced families each seed is its own group.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from reacthuman.scenes import families
from reacthuman.scenes.cameras import (
    HEAD_AIM_PX,
    Bounds,
    centroid,
    closeup,
    egocentric,
    head_span_px,
    overhead,
)
from reacthuman.scenes.catalogue import (
    Catalogue,
    CatalogueObject,
    default_catalogue,
    end_on_extent,
    longest_extent,
)
from reacthuman.scenes.dressing import (
    CAMERA_CLEARANCE,
    PATH_CLEARANCE,
    Keep,
    dress,
    finishes,
)
from reacthuman.scenes.families.base import (
    FamilyError,
    FamilySampler,
    Layout,
    SampleContext,
    adversarial_pool,
    object_pool,
    on_side,
    planned_side,
)
from reacthuman.scenes.geometry import (
    Quat,
    Vec3,
    box_corners,
    quat_conjugate,
    quat_from_yaw,
    quat_mul,
    quat_rotate,
    rotate_yaw,
    segment_hits_box,
    sub,
)
from reacthuman.scenes.kinematics import MotionPath
from reacthuman.scenes.labels import Action, Arrival, action_label, intrinsic_reasons
from reacthuman.scenes.moment import (
    DESIGN_SLACK,
    MIN_WINDOW,
    REACTION_MARGIN,
    reaction_margin,
    resolution_time,
    window_for,
)
from reacthuman.scenes.reach import ArrivalSummary, starts_in_reach, summarise_arrival
from reacthuman.scenes.rng import SeededRng, derive_seed
from reacthuman.scenes.spec import (
    SWEPT_BANDS,
    Camera,
    Family,
    Furniture,
    FurnitureKind,
    GeneratorInfo,
    IntendedMotion,
    Joint,
    Light,
    Lighting,
    Observer,
    PathPoint,
    Pin,
    Pose,
    Room,
    RoomType,
    SceneObject,
    SceneSpec,
    SpeedBand,
    Timing,
    scene_id,
)
from reacthuman.scenes.truth import object_arrival
from reacthuman.scenes.twin import largest_gap

GENERATOR_VERSION = "3.6.0"
NAMESPACE = "reacthuman-scenes-v2"  # part of every seed: changing it changes every scene
# Share of dodge groups given a look-alike, in the families whose window shows an object's
# mass plainly (FamilySampler.mass_cue: a bounce) and that have a look-alike of the group's
# side; a catch group takes one between two of them (_gets_look_alike). One of the 17 today,
# so about 3 % of a set (the paper's 40/306 is 13 %; the window of a slide, a roll, a fall or
# a flight cannot tell a foam brick from a brick, nor one swing a heavy bob from a light one).
DEFAULT_ADVERSARIAL_RATE = 2.0 / 3.0  # two of every three dodge groups
HORIZON = 3.5  # s after t0 that intended motion and ground truth cover
# How far a look-alike's designed path must part from its genuine twin's in the window, at
# its own band and the neighbouring ones: the twin test's 10 cm (scenes.twin) with room for
# the simulation's differences from the closed form.
TWIN_DESIGN_GAP = 0.13  # m
MAX_DESIGN_ATTEMPTS = 40  # geometry draws per scene group before the group is given up
LANDING_SPARE = 0.5  # s a designed landing leaves before the end of the ground truth
# Very fast / slow speed at the hands (``reach.ArrivalSummary.peak_speed``) in a swept group
# (paper 5.2): the sweep must change what the hands face, not only how fast the hazard
# travels somewhere before it (a ball rolled off a counter meets hands held under its edge
# at its roll speed; where gravity set that speed, the bands were the same to the hands).
MIN_SPEED_RATIO = 1.8
DESIGN_SPEED_RATIO = 2.0  # what designs aim for, so that measured groups keep MIN_SPEED_RATIO
PATH_RATE = 10  # Hz of the intended path stored in the spec
OBSERVER_HEIGHT = 1.32  # Unitree G1
EYE_HEIGHT = 1.2  # G1 head camera
SIGHT_MARGIN = 0.01  # m a line of sight must clear a solid block by to see past it
SIGHT_SHARE = 0.8  # the line of sight goes to this share of the way from its centre to its top
# Furniture that is one solid block, which the head camera cannot see through or under.
SOLID_KINDS = frozenset(
    {
        FurnitureKind.platform,
        FurnitureKind.counter,
        FurnitureKind.wall_shelf,
        FurnitureKind.hanging_shelf,
        FurnitureKind.door_post,
        FurnitureKind.ceiling_mount,
    }
)

WALL_COLORS: tuple[Vec3, ...] = (
    (0.93, 0.91, 0.86),
    (0.85, 0.88, 0.90),
    (0.90, 0.86, 0.80),
    (0.80, 0.85, 0.80),
    (0.95, 0.95, 0.95),
)


class GenerationError(ValueError):
    """A scene cannot be generated; the message says which family, seed and why."""


def sampler_for(family: Family | str) -> FamilySampler:
    try:
        return families.REGISTRY[Family(family)]
    except ValueError:
        known = ", ".join(f.value for f in Family)
        raise GenerationError(f"unknown family {family!r} (known: {known})") from None


def pinnable_objects(family: Family | str, catalogue: Catalogue | None = None) -> list[str]:
    """The catalogue objects a family can stage: its pool, and the pool's look-alikes where
    the window can show an object's mass (elsewhere a look-alike moves exactly like what it
    imitates, and no one could tell them apart)."""
    catalogue = catalogue if catalogue is not None else default_catalogue()
    sampler = sampler_for(family)
    names = list(sampler.pool)
    if sampler.shows_mass:
        names += [o.name for o in adversarial_pool(sampler, catalogue)]
    return names


def check_pin(family: Family | str, pin: Pin, catalogue: Catalogue | None = None) -> None:
    """A clear error when ``family`` cannot stage ``pin``'s object. Any room type will do:
    a family's ``rooms`` are where generation places it, and a room's type names the room
    without changing its physics."""
    sampler = sampler_for(family)
    allowed = pinnable_objects(family, catalogue)
    if pin.object not in allowed:
        raise GenerationError(
            f"{sampler.family.value} cannot stage {pin.object!r}; it stages "
            + ", ".join(sorted(allowed))
        )


def schedule(family: Family | str, seed: int) -> tuple[int, SpeedBand]:
    """The (scene group, speed band) a seed stands for."""
    if seed < 0:
        raise GenerationError(f"seed must be >= 0, got {seed}")
    if sampler_for(family).gravity_paced:
        return seed, SpeedBand.gravity
    return seed // 4, SWEPT_BANDS[seed % 4]


def _group_object(
    sampler: FamilySampler,
    group: int,
    rate: float,
    catalogue: Catalogue,
    pin: Pin | None = None,
) -> tuple[RoomType, CatalogueObject, Action]:
    """What a group is about, from the group's stream: its room type, its object (a
    look-alike of the group's side at ``rate``) and the side it is planned for. ``pin``: an
    authored scene's object and room, in place of the drawn ones (drawn all the same, so
    every later draw is the one the unpinned scene makes)."""
    pick = SeededRng(NAMESPACE, sampler.family.value, group)
    room = pick.choice(sampler.rooms)
    _unused, u_variant = pick.random(), pick.random()
    side = planned_side(sampler, group)
    pool = _drawable(sampler, object_pool(sampler, catalogue))
    if side is Action.TRIGGER_DODGE and sampler.dodge_by_event:
        hazard = pick.choice(pool)
    else:
        hazard = pick.choice(on_side(pool, side) or pool)
    # A look-alike of the group's side (a foam brick for a catch, a lead sandbag for a dodge).
    variants = on_side(_drawable(sampler, adversarial_pool(sampler, catalogue)), side)
    if variants and sampler.shows_mass and _gets_look_alike(sampler, group, side, rate, catalogue):
        hazard = variants[min(int(u_variant * len(variants)), len(variants) - 1)]
    if pin is not None:
        room, hazard = pin.room, catalogue.get(pin.object)
        if side is not Action.NO_ACTION:  # an authored object is what it is
            side = Action.TRIGGER_DODGE if intrinsic_reasons(hazard) else Action.EXECUTE_CATCH
    return room, hazard, side


def _drawable(sampler: FamilySampler, objects: list[CatalogueObject]) -> list[CatalogueObject]:
    """What a generated group of the family may draw (``FamilySampler.min_drawn_extent``)."""
    return [o for o in objects if longest_extent(o.shape) >= sampler.min_drawn_extent]


def _layout(
    sampler: FamilySampler,
    group: int,
    band: SpeedBand,
    rate: float,
    catalogue: Catalogue,
    attempt: int = 0,
    pin: Pin | None = None,
) -> tuple[SampleContext, Layout]:
    """A family's layout for one band. What the group is about (``_group_object``) is drawn
    from the group's stream; the geometry from a stream per design attempt, so a redrawn
    design never changes the object."""
    room, hazard, side = _group_object(sampler, group, rate, catalogue, pin)
    rng = SeededRng(NAMESPACE, sampler.family.value, group, "design", attempt)
    room_height = rng.uniform(*sampler.room_heights)
    floor_friction = rng.uniform(0.5, 0.8)
    intent = SeededRng(NAMESPACE, sampler.family.value, group, "intent")
    ctx = SampleContext(
        rng,
        band,
        hazard,
        catalogue,
        room,
        room_height,
        floor_friction,
        sampler.horizon or HORIZON,
        intent,
        side,
    )
    return ctx, sampler.build(ctx)


def _dodges_before(sampler: FamilySampler, group: int) -> int:
    """How many dodge groups a family's plan holds before ``group`` (counted from its phase)."""
    steps = group + sampler.plan_phase
    cycles, rest = divmod(steps, len(sampler.plan))
    dodges = sampler.plan.count(Action.TRIGGER_DODGE)
    return cycles * dodges + sampler.plan[:rest].count(Action.TRIGGER_DODGE)


def _gets_look_alike(
    sampler: FamilySampler, group: int, side: Action, rate: float, catalogue: Catalogue
) -> bool:
    """Whether a group stages a look-alike. Dodge groups are picked at ``rate`` as evenly as
    a share can be spread (the k-th dodge group of the plan takes one where floor(k rate)
    steps up; each family starting elsewhere), so any run of consecutive groups holds the
    same share of them, give or take one, not a lucky or unlucky handful. At 2/3 (the
    default) two dodge groups in a row take one, the third does not, and the catch group
    between the two does: 6-12 look-alikes on any block of 18 scenes, genuine balls too.
    A catch group stages one only between two dodge groups that do (the groups on either side
    in the family's plan, base.ALTERNATING, where their designs show the cue): every harmless
    thing that looks dangerous has a dangerous thing that looks harmless on both sides, so on
    any block of two groups or more at least a third of the look-alikes are dodges (four
    seeds of a harmless one and two of the next group), and two thirds at the default."""
    if side is Action.NO_ACTION:
        return False
    offset = derive_seed(NAMESPACE, sampler.family.value, "look-alike") / 2.0**64
    if side is Action.TRIGGER_DODGE:
        k = _dodges_before(sampler, group)
        return math.floor((k + 1) * rate + offset) > math.floor(k * rate + offset)
    partners = (group - 1, group + 1)
    if partners[0] < 0 or any(
        planned_side(sampler, partner) is not Action.TRIGGER_DODGE for partner in partners
    ):
        return False
    for partner in partners:
        found = _group_design(sampler.family, partner, sampler.gravity_paced, rate, catalogue)
        if isinstance(found, str) or not found[0][0].hazard.adversarial:
            return False
    return True


def _solid_blocks(piece: Furniture) -> list[tuple[Vec3, Vec3]]:
    """The solid blocks of a piece of the event's furniture, in its own frame, grown by
    ``SIGHT_MARGIN``: one box for a block (a landing, a counter, a shelf board), one per step
    for stairs (each solid from the floor to its tread); none for what one sees through or
    under (tables, stools, ramps on their props, set dressing)."""
    sx, sy, sz = piece.size
    m = SIGHT_MARGIN
    if piece.kind is FurnitureKind.stairs:
        steps = piece.steps or 1
        run, rise = sx / steps, sz / steps
        return [
            (
                (-sx / 2 + i * run - m, -sy / 2 - m, -sz / 2 - m),
                (-sx / 2 + (i + 1) * run + m, sy / 2 + m, -sz / 2 + (i + 1) * rise + m),
            )
            for i in range(steps)
        ]
    if piece.kind in SOLID_KINDS:
        return [((-sx / 2 - m, -sy / 2 - m, -sz / 2 - m), (sx / 2 + m, sy / 2 + m, sz / 2 + m))]
    return []


class Design:
    """A layout's intended motion judged against the decision moment (``scenes.moment``)."""

    def __init__(self, band: SpeedBand, layout: Layout, mass_kg: float) -> None:
        self.band = band
        self.layout = layout
        samples = layout.path.tuples()
        self.arrival: ArrivalSummary = summarise_arrival(
            samples, (0.0, 0.0, 0.0), 0.0, mass_kg, layout.path.floor_time
        )
        self.starts_in_reach = starts_in_reach(samples, (0.0, 0.0, 0.0))
        self.resolved = resolution_time(
            self.arrival.arrival_time, layout.path.floor_time, layout.floor_resolves
        )
        slack = DESIGN_SLACK if layout.design_slack is None else layout.design_slack
        self.window = window_for(self.resolved, band, slack)
        self.margin = reaction_margin(
            self.window, self.arrival.arrival_time, layout.path.floor_time, layout.floor_resolves
        )
        self.slack = slack
        by_id = {o.id: o for o in layout.objects}
        self.others = [
            object_arrival(name, path.tuples(), (0.0, 0.0, 0.0), 0.0, by_id[name].mass_kg)
            for name, path in layout.other_paths.items()
        ]

    def label(self, hazard: SceneObject) -> Action:
        by_id = {o.id: o for o in self.layout.objects}
        return action_label(
            hazard,
            Arrival(
                reaches_observer=self.arrival.reaches_observer,
                peak_speed=self.arrival.peak_speed,
                peak_kinetic_energy=self.arrival.peak_kinetic_energy,
            ),
            [(by_id[o.id], Arrival.of(o)) for o in self.others],
        )

    def hidden_behind(self) -> str | None:
        """The solid piece of the event's furniture that stands between the robot's eye and
        the hazard point at the freeze, if one does (a ball on a landing above eye height:
        at most its top would show). The G1's eye is 1.2 m up: what a person would see over,
        it may not."""
        primary = self.layout.hazard
        x, y, z = self.layout.path.at(self.window).pos
        point = (x, y, z + SIGHT_SHARE * longest_extent(primary.shape) / 2.0)
        eye = (0.0, 0.0, EYE_HEIGHT)
        for piece in self.layout.furniture:
            # In the piece's own frame its solid blocks are boxes: test the line of sight there.
            back = quat_conjugate(piece.pose.quat)
            a = quat_rotate(back, sub(eye, piece.pose.pos))
            b = quat_rotate(back, sub(point, piece.pose.pos))
            if any(segment_hits_box(box, a, b) for box in _solid_blocks(piece)):
                return piece.id.replace("_", " ")
        return None

    def head_span_px(self) -> float:
        """About how many px across the robot's head camera shows the hazard at the freeze (a
        ball thrown at 12 m/s is still 5 m off: a 7 cm one shows 6 px)."""
        primary = self.layout.hazard
        point = self.layout.path.at(self.window).pos
        return head_span_px(point, longest_extent(primary.shape), EYE_HEIGHT)

    def problems(self, sight: bool = True) -> list[str]:
        """What stops this band's design from giving a valid decision moment. ``sight``:
        whether a hazard the head camera would show under ``HEAD_AIM_PX`` is one."""
        out = []
        if self.arrival.reaches_observer != self.layout.reaches:
            meant = "reach the robot" if self.layout.reaches else "stay out of reach"
            out.append(f"{self.band.value}: the hazard was meant to {meant}")
        if self.starts_in_reach:
            out.append(f"{self.band.value}: the hazard starts inside the reach zone")
        hidden = self.hidden_behind()
        if hidden is not None:
            out.append(
                f"{self.band.value}: at the freeze the {hidden} hides the hazard from the "
                "robot's head camera"
            )
        span = self.head_span_px()
        if sight and span < HEAD_AIM_PX:
            out.append(
                f"{self.band.value}: at the freeze the hazard is too far off to see, "
                f"{span:.1f} px across in the robot's head camera ({HEAD_AIM_PX:g} designed for)"
            )
        floor, horizon = self.layout.path.floor_time, self.layout.path.end.t
        if floor is not None and floor > horizon - LANDING_SPARE:
            out.append(
                f"{self.band.value}: it lands {floor:.2f} s after t0, too near the end of the "
                f"ground truth ({horizon:.2f} s) for a simulation a little slower to land in it"
            )
        if self.margin is not None:
            need = REACTION_MARGIN[self.band] + self.slack
            if self.margin < need - 1e-9:
                out.append(
                    f"{self.band.value}: {self.margin:.2f} s from the freeze (window "
                    f"{MIN_WINDOW:g} s at least) to the outcome, {need:.2f} s designed for"
                )
        return out


def design_problems(
    sampler: FamilySampler,
    designs: Sequence[Design],
    side: Action | None = None,
    sight: bool = True,
) -> list[str]:
    """Why a scene group's design cannot give a valid decision moment in every band, or the
    label the group is meant to have (``side``; a catch group's faster bands may be dodges
    where the family lets speed decide). ``sight``: see ``Design.problems``."""
    problems = [p for d in designs for p in d.problems(sight)]
    hazard = designs[0].layout.hazard
    labels = [d.label(hazard) for d in designs]
    if len(set(labels)) > 1 and not sampler.speed_decides_label:
        problems.append("the label changes with the speed band: " + ", ".join(sorted(set(labels))))
    if side is not None:
        for design, label in zip(designs, labels, strict=True):
            by_speed = (
                sampler.speed_decides_label
                and side is Action.EXECUTE_CATCH
                and label is Action.TRIGGER_DODGE
            )
            if label is not side and not by_speed:
                problems.append(
                    f"{design.band.value}: designed {label.value} for a {side.value} group"
                )
    problems += _twin_problems(designs)
    if len(designs) > 1:
        speeds = [  # set whenever it reaches the observer
            d.arrival.peak_speed
            for d in designs
            if d.arrival.reaches_observer and d.arrival.peak_speed is not None
        ]
        if len(speeds) == len(designs):
            rising = all(b > a for a, b in zip(speeds, speeds[1:], strict=False))
            aim = designs[0].layout.design_speed_ratio or DESIGN_SPEED_RATIO
            if not rising or speeds[-1] < aim * speeds[0]:
                problems.append(
                    f"speeds at the hands do not rise with the band by x{aim:g}: "
                    + ", ".join(f"{v:.2f}" for v in speeds)
                )
    return problems


def _twin_problems(designs: Sequence[Design]) -> list[str]:
    """Why a look-alike's design would not show its cue plainly: in its window its path
    must part by ``TWIN_DESIGN_GAP`` from its genuine twin's, at its own band and at the
    neighbouring ones (else the cue is the speed band's)."""
    problems = []
    for i, design in enumerate(designs):
        if design.layout.twin_path is None:
            continue
        twins: list[tuple[SpeedBand, MotionPath]] = []
        for j in (i, i - 1, i + 1):  # its own band, then the neighbouring ones
            twin_path = designs[j].layout.twin_path if 0 <= j < len(designs) else None
            if twin_path is not None:
                twins.append((designs[j].band, twin_path))
        for band, twin in twins:
            gap = largest_gap(design.layout.path.samples, twin.samples, design.window)
            if gap < TWIN_DESIGN_GAP:
                problems.append(
                    f"{design.band.value}: the look-alike's path parts from its twin's at the "
                    f"{band.value} band by {100 * gap:.1f} cm in the window, "
                    f"{100 * TWIN_DESIGN_GAP:.0f} designed for"
                )
    return problems


def _design(
    sampler: FamilySampler,
    group: int,
    band: SpeedBand,
    rate: float,
    catalogue: Catalogue,
    pin: Pin | None = None,
) -> tuple[SampleContext, Layout, list[Design]]:
    """The first design attempt whose every band leaves a valid decision moment."""
    found = _group_design(sampler.family, group, band is SpeedBand.gravity, rate, catalogue, pin)
    if isinstance(found, str):
        raise FamilyError(found)
    contexts, designs = found
    index = 0 if band is SpeedBand.gravity else SWEPT_BANDS.index(band)
    return contexts[index], designs[index].layout, designs


@lru_cache(maxsize=64)
def _group_design(
    family: Family,
    group: int,
    gravity: bool,
    rate: float,
    catalogue: Catalogue,
    pin: Pin | None = None,
) -> tuple[list[SampleContext], list[Design]] | str:
    """The designs of a group's bands, or why there are none (cached: the four seeds of a
    group share them)."""
    sampler = sampler_for(family)
    bands = [SpeedBand.gravity] if gravity else list(SWEPT_BANDS)
    found = _attempts(sampler, group, bands, rate, catalogue, pin)
    if (
        isinstance(found, str)
        and _group_object(sampler, group, rate, catalogue, pin)[1].adversarial
    ):
        # No design shows the look-alike's cue plainly: the group stages the genuine object
        # (a look-alike no one could see through probes nothing).
        return _attempts(sampler, group, bands, 0.0, catalogue, pin)
    if isinstance(found, str) and pin is not None:
        # An authored scene stages the object its description names: one too small for the
        # head camera to show at some band's freeze (a thrown tennis ball at 12 m/s) is
        # staged all the same, and ``scenes validity`` says so.
        lenient = _attempts(sampler, group, bands, rate, catalogue, pin, sight=False)
        if not isinstance(lenient, str):
            return lenient
    return found


def _attempts(
    sampler: FamilySampler,
    group: int,
    bands: list[SpeedBand],
    rate: float,
    catalogue: Catalogue,
    pin: Pin | None,
    sight: bool = True,
) -> tuple[list[SampleContext], list[Design]] | str:
    """The first of ``MAX_DESIGN_ATTEMPTS`` geometry draws whose every band's design is valid,
    or why there is none."""
    reasons: list[str] = []
    for attempt in range(MAX_DESIGN_ATTEMPTS):
        contexts, designs = [], []
        try:
            for band in bands:
                ctx, layout = _layout(sampler, group, band, rate, catalogue, attempt, pin)
                if max(p[2] for p in _extent_points(layout)) > ctx.room_height:
                    raise FamilyError("a piece of the scene would reach through the ceiling")
                hazard = layout.hazard
                contexts.append(ctx)
                designs.append(Design(band, layout, hazard.mass_kg))
        except FamilyError as exc:  # this draw cannot be built (a ramp too high, a lob too
            reasons = [str(exc)]  # high for the ceiling): draw again
            continue
        reasons = design_problems(sampler, designs, contexts[0].side, sight)
        if not reasons:
            return contexts, designs
    return (
        f"no design in {MAX_DESIGN_ATTEMPTS} attempts leaves a decision moment; last: "
        + "; ".join(reasons)
    )


def _in_head_view(pos: Sequence[float]) -> bool:
    """Inside the cone a head camera covers: 40 deg below to 45 deg above the eyes, 60 deg aside."""
    x, y, z = pos
    elevation = math.atan2(z - EYE_HEIGHT, math.hypot(x, y))
    return -math.radians(40.0) <= elevation <= math.radians(45.0) and abs(
        math.atan2(y, x)
    ) <= math.radians(60.0)


class _FramePoints:
    """Points the views must show, gathered over every speed band of a scene group.

    ``observed``: the hazard at the event start and at the end of the window (close-up and
    overhead views); ``moves``: the same as (start, end) pairs, the motion the close-up is
    chosen to show. ``ego``: the first and last positions during the window that lie in the
    cone a head camera can cover (a drop from right above the robot or onto its feet leaves
    that cone), or the start if none does. ``arrivals``: where it enters the reach zone
    (overhead view).
    """

    def __init__(self) -> None:
        self.ego: list[Vec3] = []
        self.observed: list[Vec3] = []
        self.arrivals: list[Vec3] = []
        self.moves: list[tuple[Vec3, Vec3]] = []  # the hazard point over each band's window

    def add(self, layout: Layout, window: float) -> None:
        samples = layout.path.samples
        start, end = samples[0], layout.path.at(window)
        visible = [s.pos for s in samples if s.t <= window + 1e-9 and _in_head_view(s.pos)]
        self.ego += [visible[0], visible[-1]] if visible else [start.pos]
        self.ego += layout.extra_frame_points
        self.observed += [start.pos, end.pos, *layout.extra_frame_points]
        self.moves.append((start.pos, end.pos))
        arrival = summarise_arrival(
            ((s.t, s.pos, s.vel) for s in samples), (0, 0, 0), 0.0, 1.0, layout.path.floor_time
        )
        if arrival.arrival_point is not None:
            self.arrivals.append(arrival.arrival_point)


def _extent_points(layout: Layout) -> list[Vec3]:
    points: list[Vec3] = [(0.4, 0.4, 0.0), (-0.4, -0.4, 0.0), layout.path.samples[0].pos]
    points += layout.extent_points
    for piece in layout.furniture:
        points += box_corners(piece.pose.pos, piece.size, piece.pose.quat)
    for obj in layout.objects:
        points += box_corners(obj.pose.pos, obj.shape.size, obj.pose.quat)
        if obj.joint is not None:
            points.append(obj.joint.anchor)
    return points


def _room_bounds(layout: Layout, rng: SeededRng, height: float) -> Bounds:
    points = _extent_points(layout)
    x_max = max(p[0] for p in points)
    if layout.front_wall is not None:
        if x_max > layout.front_wall + 1e-6:
            raise GenerationError("a piece of the scene reaches through the front wall")
        front = layout.front_wall
    else:
        front = x_max + rng.uniform(0.4, 1.2)
    back = min(min(p[0] for p in points), -0.4) - rng.uniform(1.0, 2.0)
    left = max(p[1] for p in points) + rng.uniform(0.6, 1.6)
    right = min(p[1] for p in points) - rng.uniform(0.6, 1.6)
    if layout.side_wall is not None:
        reach = max(p[1] for p in points) if layout.side_wall > 0 else -min(p[1] for p in points)
        if reach > abs(layout.side_wall) + 1e-6:
            raise GenerationError("a piece of the scene reaches through the side wall")
        if layout.side_wall > 0:
            left = layout.side_wall
        else:
            right = layout.side_wall
    if max(p[2] for p in points) > height + 1e-6:
        raise GenerationError("a piece of the scene reaches through the ceiling")
    return (back, front, right, left, height)


class _WorldTransform:
    """Observer frame -> world (room) frame: a yaw by a multiple of 90 degrees and a shift."""

    def __init__(self, yaw: float, bounds: Bounds) -> None:
        self.yaw = yaw
        self.q = quat_from_yaw(yaw)
        center = ((bounds[0] + bounds[1]) / 2.0, (bounds[2] + bounds[3]) / 2.0, 0.0)
        shifted = rotate_yaw((-center[0], -center[1], 0.0), yaw)
        self.offset = (shifted[0], shifted[1], 0.0)

    def point(self, p: Sequence[float]) -> Vec3:
        r = rotate_yaw(p, self.yaw)
        return _round3((r[0] + self.offset[0], r[1] + self.offset[1], r[2]))

    def vector(self, v: Sequence[float]) -> Vec3:
        return _round3(rotate_yaw(v, self.yaw))

    def quat(self, q: Quat) -> Quat:
        w, x, y, z = quat_mul(self.q, q)
        n = math.sqrt(w * w + x * x + y * y + z * z)
        return (round(w / n, 6), round(x / n, 6), round(y / n, 6), round(z / n, 6))

    def pose(self, pose: Pose) -> Pose:
        return Pose(pos=self.point(pose.pos), quat=self.quat(pose.quat))


def _round3(v: Sequence[float]) -> Vec3:
    return (_r(v[0]), _r(v[1]), _r(v[2]))


def _r(x: float) -> float:
    return round(x, 4) + 0.0  # + 0.0 turns -0.0 into 0.0, so JSON never shows "-0.0"


def _maybe(x: float | None) -> float | None:
    return None if x is None else _r(x)


def _to_world_object(obj: SceneObject, tf: _WorldTransform) -> SceneObject:
    joint = None
    if obj.joint is not None:
        joint = Joint(
            kind=obj.joint.kind,
            anchor=tf.point(obj.joint.anchor),
            axis=tf.vector(obj.joint.axis),
            damping=obj.joint.damping,
        )
    return obj.model_copy(
        update={
            "pose": tf.pose(obj.pose),
            "lin_vel": tf.vector(obj.lin_vel),
            "ang_vel": tf.vector(obj.ang_vel),
            "joint": joint,
            "color": tuple(round(c, 4) for c in obj.color),
        }
    )


def _to_world_furniture(piece: Furniture, tf: _WorldTransform) -> Furniture:
    return piece.model_copy(
        update={
            "pose": tf.pose(piece.pose),
            "size": _round3(piece.size),
            "color": tuple(round(c, 4) for c in piece.color),
            "friction": round(piece.friction, 4),
        }
    )


def _to_world_camera(camera: Camera, tf: _WorldTransform) -> Camera:
    return camera.model_copy(
        update={
            "pos": tf.point(camera.pos),
            "lookat": tf.point(camera.lookat),
            "up": tf.vector(camera.up),
        }
    )


def _lighting(rng: SeededRng, tf: _WorldTransform) -> Lighting:
    gray = rng.uniform(0.25, 0.4)
    warmth = rng.uniform(-0.05, 0.05)
    key_dir = (rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), -1.0)
    fill_dir = (rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0), -0.6)
    key_color = (min(1.0, 1.0 + warmth), 1.0, min(1.0, 1.0 - warmth))
    return Lighting(
        ambient=(round(gray, 4),) * 3,
        lights=[
            Light(
                direction=tf.vector(key_dir),
                color=_round3(key_color),
                intensity=_r(rng.uniform(0.8, 1.2)),
            ),
            Light(
                direction=tf.vector(fill_dir),
                color=(1.0, 1.0, 1.0),
                intensity=_r(rng.uniform(0.2, 0.4)),
            ),
        ],
    )


def generate_scene(
    family: Family | str,
    seed: int,
    adversarial_rate: float = DEFAULT_ADVERSARIAL_RATE,
    catalogue: Catalogue | None = None,
    pin: Pin | None = None,
) -> SceneSpec:
    """The scene for (family, seed): the same inputs always give a byte-identical spec.
    ``pin``: an authored scene's object and room (``check_pin`` says which the family takes)."""
    if not 0.0 <= adversarial_rate <= 1.0:
        raise GenerationError(f"adversarial rate must be in [0, 1], got {adversarial_rate}")
    catalogue = catalogue if catalogue is not None else default_catalogue()
    sampler = sampler_for(family)
    group, band = schedule(sampler.family, seed)
    if pin is not None:
        check_pin(sampler.family, pin, catalogue)
    try:
        ctx, layout, designs = _design(sampler, group, band, adversarial_rate, catalogue, pin)
        frame = _FramePoints()
        mine = next(d for d in designs if d.band is band)
        for design in designs if layout.frame_all_bands else [mine]:
            frame.add(design.layout, design.window)
        return _assemble(
            sampler, seed, group, band, adversarial_rate, ctx, mine, frame, designs, pin
        )
    except ValueError as exc:  # FamilyError, FramingError, pydantic ValidationError
        raise GenerationError(f"{scene_id(sampler.family, seed)}: {exc}") from exc


def _keep_clear(designs: Sequence[Design], cameras: Sequence[Camera]) -> Keep:
    """What set dressing keeps clear of: every band's hazard path and other moving objects to
    the end of the ground truth, the event's furniture and objects, the cameras, and each
    camera's lines of sight to the hazard (its start and where it is at the freeze) and to
    the robot."""
    points: list[tuple[Vec3, float]] = []
    boxes: list[tuple[Vec3, Vec3]] = []
    targets: list[Vec3] = [(0.0, 0.0, 0.6), (0.0, 0.0, 1.2)]  # the robot
    for design in designs:
        layout = design.layout
        primary = layout.hazard
        reach = PATH_CLEARANCE + longest_extent(primary.shape) / 2.0
        points += [(s.pos, reach) for s in layout.path.samples]
        for path in layout.other_paths.values():
            points += [(s.pos, PATH_CLEARANCE + 0.15) for s in path.samples]
        for obj in layout.objects:
            half = math.hypot(*obj.shape.size) / 2.0
            points.append((obj.pose.pos, PATH_CLEARANCE + half))
        for piece in layout.furniture:
            corners = box_corners(piece.pose.pos, piece.size, piece.pose.quat)
            xs, ys, zs = zip(*corners, strict=True)
            boxes.append(((min(xs), min(ys), min(zs)), (max(xs), max(ys), max(zs))))
        points += [(p, PATH_CLEARANCE) for p in layout.extent_points]
        targets += [layout.path.samples[0].pos, layout.path.at(design.window).pos]
    points += [(camera.pos, CAMERA_CLEARANCE) for camera in cameras]
    sights = [(camera.pos, target) for camera in cameras for target in targets]
    return Keep(points=points, boxes=boxes, sights=sights)


def _assemble(
    sampler: FamilySampler,
    seed: int,
    group: int,
    band: SpeedBand,
    rate: float,
    ctx: SampleContext,
    design: Design,
    frame: _FramePoints,
    designs: Sequence[Design],
    pin: Pin | None = None,
) -> SceneSpec:
    layout = design.layout
    stage = SeededRng(NAMESPACE, sampler.family.value, group, "stage")
    bounds = _room_bounds(layout, stage, ctx.room_height)
    yaw = stage.choice((0.0, math.pi / 2.0, math.pi, -math.pi / 2.0))
    tf = _WorldTransform(yaw, bounds)
    # Colours and lights before the cameras, whose retries draw a varying number of times.
    wall_color = stage.choice(WALL_COLORS)
    lighting = _lighting(stage, tf)
    cameras = [
        egocentric(stage, EYE_HEIGHT, frame.ego),
        closeup(
            stage,
            centroid([end for _start, end in frame.moves])
            if layout.closeup_follows
            else layout.event_origin,
            bounds,
            frame.observed,
            layout.closeup_range,
            layout.closeup_azimuth,
            frame.moves,
            # As small as it may show at the freeze: a pair of scissors tumbling in flight
            # pointed at the close-up there and showed 15 px of its 22 cm.
            end_on_extent(layout.hazard.shape),
            layout.hinge,
        ),
        overhead(stage, layout.event_origin, bounds, frame.observed + frame.arrivals),
    ]
    # The room's own pieces and finishes: drawn on their own stream, the same for every band
    # of a group, clear of what any band's event uses (scenes.dressing).
    dressing_rng = SeededRng(NAMESPACE, sampler.family.value, group, "dressing")
    floor_finish, floor_color, wall_finish = finishes(ctx.room, dressing_rng)
    dressing = dress(ctx.room, bounds, _keep_clear(designs, cameras), dressing_rng)
    size_x, size_y = bounds[1] - bounds[0], bounds[3] - bounds[2]
    if yaw in (math.pi / 2.0, -math.pi / 2.0):
        size_x, size_y = size_y, size_x
    room = Room(
        type=ctx.room,
        size=(_r(size_x), _r(size_y), _r(ctx.room_height)),
        floor_color=floor_color,
        wall_color=wall_color,
        floor_friction=_r(
            ctx.floor_friction if layout.floor_friction is None else layout.floor_friction
        ),
        floor_finish=floor_finish,
        wall_finish=wall_finish,
    )
    samples = layout.path.samples
    arrival = design.arrival
    hazard = layout.hazard
    stride = round(1.0 / (PATH_RATE * (samples[1].t - samples[0].t)))
    intended = IntendedMotion(
        path=[PathPoint(t=_r(s.t), pos=tf.point(s.pos)) for s in samples[::stride]],
        reaches_observer=arrival.reaches_observer,
        arrival_time=_maybe(arrival.arrival_time),
        arrival_point=None if arrival.arrival_point is None else tf.point(arrival.arrival_point),
        arrival_speed=_maybe(arrival.arrival_speed),
        arrival_kinetic_energy=_maybe(arrival.arrival_kinetic_energy),
        peak_speed=_maybe(arrival.peak_speed),
        peak_kinetic_energy=_maybe(arrival.peak_kinetic_energy),
        floor_time=_maybe(layout.path.floor_time),
        floor_resolves=layout.floor_resolves,
        reaction_margin=_maybe(design.margin),
        others=design.others,
    )
    description = f"In the {ctx.room.value.replace('_', ' ')}, {layout.description}."
    return SceneSpec(
        scene_id=scene_id(sampler.family, seed),
        family=sampler.family,
        seed=seed,
        group=group,
        speed_band=band,
        adversarial=hazard.adversarial,
        description=description,
        generator=GeneratorInfo(version=GENERATOR_VERSION, adversarial_rate=rate, pin=pin),
        room=room,
        furniture=[_to_world_furniture(f, tf) for f in [*layout.furniture, *dressing]],
        objects=[_to_world_object(o, tf) for o in layout.objects],
        primary_hazard=layout.primary,
        observer=Observer(
            pos=tf.point((0.0, 0.0, 0.0)),
            yaw=yaw,
            height=OBSERVER_HEIGHT,
            eye_height=EYE_HEIGHT,
        ),
        cameras=[_to_world_camera(c, tf) for c in cameras],
        lighting=lighting,
        timing=Timing(t0=_r(layout.t0), window=design.window, horizon=sampler.horizon or HORIZON),
        intended=intended,
    )
