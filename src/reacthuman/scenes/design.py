"""The design loop: a scene group's geometry drawn until every band leaves a valid decision
moment.

What a group is about (room, object, the side it is planned for, a look-alike or not) is
drawn from the group's stream; its geometry from a stream per design attempt, each band's
intended motion judged against the decision moment (``scenes.moment``), the reach zone,
the head camera's line of sight and the twin test's premise, up to
``MAX_DESIGN_ATTEMPTS`` draws.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from reacthuman.scenes.cameras import HEAD_AIM_PX, head_span_px
from reacthuman.scenes.catalogue import Catalogue, CatalogueObject, longest_extent
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
from reacthuman.scenes.framing import EYE_HEIGHT, extent_points
from reacthuman.scenes.geometry import Vec3, quat_conjugate, quat_rotate, segment_hits_box, sub
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
from reacthuman.scenes.samplers import HORIZON, NAMESPACE, sampler_for
from reacthuman.scenes.spec import (
    SWEPT_BANDS,
    Family,
    Furniture,
    FurnitureKind,
    Pin,
    RoomType,
    SceneObject,
    SpeedBand,
)
from reacthuman.scenes.truth import object_arrival
from reacthuman.scenes.twin import largest_gap

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


def band_design(
    sampler: FamilySampler,
    group: int,
    band: SpeedBand,
    rate: float,
    catalogue: Catalogue,
    pin: Pin | None = None,
) -> tuple[SampleContext, Layout, list[Design]]:
    """The first design attempt whose every band leaves a valid decision moment: ``band``'s
    context and layout, and every band's design (the cameras frame them all)."""
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
                if max(p[2] for p in extent_points(layout)) > ctx.room_height:
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
