"""Scene generation: a SceneSpec as a pure function of (family, seed, adversarial rate).

The seed schedule (documented in docs/scenes.md): in the twelve speed-swept families, seed
``s`` is scene group ``s // 4`` at band ``(slow, normal, fast, very_fast)[s % 4]``; every
parameter but the swept speed is drawn from the group's stream, so the four bands of a group
differ in speed only. In the five gravity-paced families each seed is its own group.

The steps, each in its own module: ``samplers`` (which sampler, which group and band),
``design`` (the design loop), ``framing`` (the walls and the cameras), ``lighting``,
``dressing`` (the room's own pieces) and ``world_frame`` (observer frame to room frame).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from reacthuman.scenes.cameras import Bounds
from reacthuman.scenes.catalogue import Catalogue, default_catalogue, longest_extent
from reacthuman.scenes.design import Design, band_design
from reacthuman.scenes.dressing import CAMERA_CLEARANCE, PATH_CLEARANCE, Keep, dress, finishes
from reacthuman.scenes.families.base import FamilySampler, SampleContext
from reacthuman.scenes.framing import EYE_HEIGHT, FramePoints, place_cameras, room_bounds
from reacthuman.scenes.geometry import Vec3, box_corners
from reacthuman.scenes.lighting import draw_lighting
from reacthuman.scenes.rng import SeededRng
from reacthuman.scenes.samplers import (
    HORIZON,
    NAMESPACE,
    GenerationError,
    check_pin,
    sampler_for,
    schedule,
)
from reacthuman.scenes.spec import (
    Camera,
    Family,
    Furniture,
    GeneratorInfo,
    IntendedMotion,
    Observer,
    PathPoint,
    Pin,
    Room,
    SceneSpec,
    SpeedBand,
    Timing,
    scene_id,
)
from reacthuman.scenes.world_frame import (
    WorldTransform,
    rounded,
    rounded_or_none,
    world_camera,
    world_furniture,
    world_object,
)

GENERATOR_VERSION = "3.6.0"
# Share of dodge groups given a look-alike, in the families whose window shows an object's
# mass plainly (FamilySampler.mass_cue: a bounce) and that have a look-alike of the group's
# side; a catch group takes one between two of them (design._gets_look_alike). One of the 17 today,
# so about 3 % of a set (the paper's 40/306 is 13 %; the window of a slide, a roll, a fall or
# a flight cannot tell a foam brick from a brick, nor one swing a heavy bob from a light one).
DEFAULT_ADVERSARIAL_RATE = 2.0 / 3.0  # two of every three dodge groups
PATH_RATE = 10  # Hz of the intended path stored in the spec
OBSERVER_HEIGHT = 1.32  # Unitree G1


WALL_COLORS: tuple[Vec3, ...] = (
    (0.93, 0.91, 0.86),
    (0.85, 0.88, 0.90),
    (0.90, 0.86, 0.80),
    (0.80, 0.85, 0.80),
    (0.95, 0.95, 0.95),
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
        ctx, layout, designs = band_design(sampler, group, band, adversarial_rate, catalogue, pin)
        frame = FramePoints()
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
    frame: FramePoints,
    designs: Sequence[Design],
    pin: Pin | None = None,
) -> SceneSpec:
    """The band's design placed in its room and moved to the world frame: walls, cameras,
    lighting and set dressing drawn from the group's own streams, so every band of a group
    stands in the same room."""
    layout = design.layout
    stage = SeededRng(NAMESPACE, sampler.family.value, group, "stage")
    bounds = room_bounds(layout, stage, ctx.room_height)
    yaw = stage.choice((0.0, math.pi / 2.0, math.pi, -math.pi / 2.0))
    tf = WorldTransform(yaw, bounds)
    # Colours and lights before the cameras, whose retries draw a varying number of times.
    wall_color = stage.choice(WALL_COLORS)
    lighting = draw_lighting(stage, tf)
    cameras = place_cameras(stage, layout, bounds, frame)
    room, dressing = _furnished_room(
        sampler, group, ctx, design, bounds, yaw, wall_color, designs, cameras
    )
    return SceneSpec(
        scene_id=scene_id(sampler.family, seed),
        family=sampler.family,
        seed=seed,
        group=group,
        speed_band=band,
        adversarial=layout.hazard.adversarial,
        description=f"In the {ctx.room.value.replace('_', ' ')}, {layout.description}.",
        generator=GeneratorInfo(version=GENERATOR_VERSION, adversarial_rate=rate, pin=pin),
        room=room,
        furniture=[world_furniture(f, tf) for f in [*layout.furniture, *dressing]],
        objects=[world_object(o, tf) for o in layout.objects],
        primary_hazard=layout.primary,
        observer=Observer(
            pos=tf.point((0.0, 0.0, 0.0)),
            yaw=yaw,
            height=OBSERVER_HEIGHT,
            eye_height=EYE_HEIGHT,
        ),
        cameras=[world_camera(c, tf) for c in cameras],
        lighting=lighting,
        timing=Timing(
            t0=rounded(layout.t0), window=design.window, horizon=sampler.horizon or HORIZON
        ),
        intended=_intended_motion(design, tf),
    )


def _furnished_room(
    sampler: FamilySampler,
    group: int,
    ctx: SampleContext,
    design: Design,
    bounds: Bounds,
    yaw: float,
    wall_color: Vec3,
    designs: Sequence[Design],
    cameras: Sequence[Camera],
) -> tuple[Room, list[Furniture]]:
    """The room and its own pieces and finishes: drawn on their own stream, the same for every
    band of a group, clear of what any band's event uses (scenes.dressing)."""
    layout = design.layout
    dressing_rng = SeededRng(NAMESPACE, sampler.family.value, group, "dressing")
    floor_finish, floor_color, wall_finish = finishes(ctx.room, dressing_rng)
    dressing = dress(ctx.room, bounds, _keep_clear(designs, cameras), dressing_rng)
    size_x, size_y = bounds[1] - bounds[0], bounds[3] - bounds[2]
    if yaw in (math.pi / 2.0, -math.pi / 2.0):
        size_x, size_y = size_y, size_x
    room = Room(
        type=ctx.room,
        size=(rounded(size_x), rounded(size_y), rounded(ctx.room_height)),
        floor_color=floor_color,
        wall_color=wall_color,
        floor_friction=rounded(
            ctx.floor_friction if layout.floor_friction is None else layout.floor_friction
        ),
        floor_finish=floor_finish,
        wall_finish=wall_finish,
    )
    return room, dressing


def _intended_motion(design: Design, tf: WorldTransform) -> IntendedMotion:
    """The designed hazard path, at ``PATH_RATE``, and what it means for the robot, in the
    world frame."""
    layout = design.layout
    samples = layout.path.samples
    arrival = design.arrival
    stride = round(1.0 / (PATH_RATE * (samples[1].t - samples[0].t)))
    return IntendedMotion(
        path=[PathPoint(t=rounded(s.t), pos=tf.point(s.pos)) for s in samples[::stride]],
        reaches_observer=arrival.reaches_observer,
        arrival_time=rounded_or_none(arrival.arrival_time),
        arrival_point=None if arrival.arrival_point is None else tf.point(arrival.arrival_point),
        arrival_speed=rounded_or_none(arrival.arrival_speed),
        arrival_kinetic_energy=rounded_or_none(arrival.arrival_kinetic_energy),
        peak_speed=rounded_or_none(arrival.peak_speed),
        peak_kinetic_energy=rounded_or_none(arrival.peak_kinetic_energy),
        floor_time=rounded_or_none(layout.path.floor_time),
        floor_resolves=layout.floor_resolves,
        reaction_margin=rounded_or_none(design.margin),
        others=design.others,
    )
