"""Set dressing: what makes a scene's room read as a home of its kind, and gives it scale.

A person judges how far away a thing is and how fast it comes from things of known size: a
door is 2 m tall, a worktop 0.9 m high, a floor tile 0.3 m across. Reading bare box rooms as a
model would, distances and speeds had to be guessed from assumed object sizes (issue 52). So
each room type gets its own pieces (a kitchen its units and fridge, a bedroom its bed and
wardrobe, a garage its shelving and workbench...), a closed door and, where the room has
one, a window, placed against the walls, and floors and walls finished as the room type's are
(``FloorFinish``, ``WallFinish``), all seeded like everything else.

Dressing is seen, never touched (``spec.VISUAL_ONLY_KINDS``). It keeps clear of everything
the event uses: the room the robot needs to step aside, the hazard's path in every speed band
to the end of the ground truth, the event's furniture and objects, the cameras, and every
camera's line of sight to the hazard and to the robot, so it can never hide the hazard. A
piece that finds no such place is left out (a small room holds less).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from reacthuman.scenes.cameras import Bounds
from reacthuman.scenes.geometry import IDENTITY_QUAT, Vec3, box_gap, quat_from_yaw, segment_hits_box
from reacthuman.scenes.rng import SeededRng
from reacthuman.scenes.spec import (
    FloorFinish,
    Furniture,
    FurnitureKind,
    Pose,
    RoomType,
    WallFinish,
)

Range = tuple[float, float]
Rgb = tuple[float, float, float]

ROBOT_CLEARANCE = 1.4  # m around the robot's feet: the room a dodge steps into
_ORIGIN = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))  # the robot's feet, as a box
PATH_CLEARANCE = 0.35  # m around the hazard's path and the event's pieces
CAMERA_CLEARANCE = 0.3  # m around a camera
SIGHT_CLEARANCE = 0.1  # m around a camera's line of sight to the hazard or the robot
PLACEMENT_TRIES = 12  # places along the walls tried per piece
DRESSING_PREFIX = "dressing_"  # every piece of dressing's id starts so


@dataclass(frozen=True)
class Piece:
    """A kind of dressing: its size ranges (depth from the wall, length along it, height),
    colours, and how high above the floor it hangs (a window, a radiator)."""

    kind: FurnitureKind
    depth: Range
    length: Range
    height: Range
    colors: tuple[Rgb, ...]
    above_floor: Range = (0.0, 0.0)


WOOD: tuple[Rgb, ...] = ((0.55, 0.38, 0.22), (0.72, 0.55, 0.36), (0.4, 0.27, 0.16))
WHITE: tuple[Rgb, ...] = ((0.93, 0.93, 0.91),)
FABRIC: tuple[Rgb, ...] = (
    (0.35, 0.42, 0.55),
    (0.55, 0.52, 0.47),
    (0.42, 0.5, 0.38),
    (0.6, 0.33, 0.3),
    (0.3, 0.3, 0.33),
)
UNIT_FRONTS: tuple[Rgb, ...] = ((0.92, 0.92, 0.9), (0.45, 0.55, 0.5), (0.3, 0.35, 0.45))
STEEL: tuple[Rgb, ...] = ((0.75, 0.76, 0.78), (0.93, 0.93, 0.93))
TOY: tuple[Rgb, ...] = ((0.9, 0.3, 0.25), (0.25, 0.5, 0.85), (0.95, 0.75, 0.2))

DOOR = Piece(FurnitureKind.door, (0.06, 0.06), (0.82, 0.9), (2.0, 2.1), WOOD + WHITE)
WINDOW = Piece(FurnitureKind.window, (0.08, 0.08), (0.9, 1.4), (1.1, 1.3), WHITE, (0.85, 1.0))
RADIATOR = Piece(FurnitureKind.radiator, (0.1, 0.1), (0.6, 1.2), (0.5, 0.6), WHITE, (0.12, 0.15))
SOFA = Piece(FurnitureKind.sofa, (0.85, 0.95), (1.7, 2.2), (0.8, 0.9), FABRIC)
ARMCHAIR = Piece(FurnitureKind.armchair, (0.8, 0.9), (0.8, 0.9), (0.8, 0.9), FABRIC)
SIDEBOARD = Piece(FurnitureKind.sideboard, (0.4, 0.5), (1.0, 1.6), (0.75, 0.9), WOOD + WHITE)
BED = Piece(FurnitureKind.bed, (2.0, 2.1), (1.4, 1.6), (0.95, 1.05), WOOD + WHITE)
WARDROBE = Piece(FurnitureKind.wardrobe, (0.58, 0.62), (1.0, 1.5), (1.95, 2.1), WOOD + WHITE)
KITCHEN_UNITS = Piece(FurnitureKind.kitchen_units, (0.6, 0.62), (1.8, 2.8), (2.1, 2.2), UNIT_FRONTS)
FRIDGE = Piece(FurnitureKind.fridge, (0.65, 0.7), (0.6, 0.7), (1.75, 1.9), STEEL)
DESK = Piece(FurnitureKind.desk, (0.6, 0.75), (1.2, 1.6), (0.73, 0.76), WOOD + WHITE)
CHAIR = Piece(FurnitureKind.chair, (0.45, 0.5), (0.45, 0.5), (0.85, 0.95), WOOD + FABRIC)
SHELVING = Piece(FurnitureKind.shelving_unit, (0.4, 0.5), (0.9, 1.2), (1.75, 1.9), STEEL)
WORKBENCH = Piece(FurnitureKind.workbench, (0.6, 0.7), (1.4, 2.0), (1.8, 1.9), WOOD)
WASHER = Piece(FurnitureKind.washing_machine, (0.6, 0.62), (0.6, 0.6), (0.85, 0.85), WHITE)
TOY_CHEST = Piece(FurnitureKind.toy_chest, (0.4, 0.45), (0.7, 0.9), (0.45, 0.55), TOY)

# What each room type holds, most telling first (a piece that does not fit is left out).
ROOM_PIECES: dict[RoomType, tuple[Piece, ...]] = {
    RoomType.kitchen: (KITCHEN_UNITS, FRIDGE, DOOR, WINDOW, CHAIR),
    RoomType.living_room: (SOFA, ARMCHAIR, DOOR, WINDOW, SIDEBOARD, RADIATOR),
    RoomType.dining_room: (SIDEBOARD, CHAIR, CHAIR, DOOR, WINDOW, RADIATOR),
    RoomType.bedroom: (BED, WARDROBE, DOOR, WINDOW, RADIATOR),
    RoomType.hallway: (DOOR, DOOR, SIDEBOARD, RADIATOR, DOOR),
    RoomType.office: (DESK, CHAIR, DOOR, WINDOW, SIDEBOARD, RADIATOR),
    RoomType.garage: (SHELVING, WORKBENCH, DOOR, SHELVING),
    RoomType.playroom: (TOY_CHEST, CHAIR, DOOR, WINDOW, SIDEBOARD),
    RoomType.laundry_room: (WASHER, WASHER, SHELVING, DOOR, WINDOW),
}

# Floors by room type, with the colours each finish comes in.
FLOORS: dict[RoomType, tuple[FloorFinish, ...]] = {
    RoomType.kitchen: (FloorFinish.tile, FloorFinish.wood),
    RoomType.living_room: (FloorFinish.wood, FloorFinish.carpet),
    RoomType.dining_room: (FloorFinish.wood, FloorFinish.tile),
    RoomType.bedroom: (FloorFinish.carpet, FloorFinish.wood),
    RoomType.hallway: (FloorFinish.wood, FloorFinish.tile),
    RoomType.office: (FloorFinish.carpet, FloorFinish.wood),
    RoomType.garage: (FloorFinish.concrete,),
    RoomType.playroom: (FloorFinish.carpet, FloorFinish.wood),
    RoomType.laundry_room: (FloorFinish.tile,),
}
FLOOR_COLORS: dict[FloorFinish, tuple[Rgb, ...]] = {
    FloorFinish.wood: ((0.62, 0.45, 0.3), (0.72, 0.58, 0.42), (0.45, 0.32, 0.22)),
    FloorFinish.tile: ((0.85, 0.84, 0.8), (0.6, 0.6, 0.62), (0.78, 0.7, 0.6)),
    FloorFinish.carpet: ((0.55, 0.52, 0.48), (0.4, 0.45, 0.55), (0.6, 0.5, 0.45)),
    FloorFinish.concrete: ((0.55, 0.55, 0.53), (0.62, 0.61, 0.58)),
}
WALLPAPERED = (RoomType.living_room, RoomType.dining_room, RoomType.bedroom, RoomType.hallway)


def finishes(room: RoomType, rng: SeededRng) -> tuple[FloorFinish, Rgb, WallFinish]:
    """The floor's finish and colour and the walls' finish for a room of this type."""
    floor = rng.choice(FLOORS[room])
    color = rng.choice(FLOOR_COLORS[floor])
    walls = WallFinish.wallpaper if room in WALLPAPERED and rng.chance(0.4) else WallFinish.paint
    return floor, color, walls


@dataclass(frozen=True)
class Keep:
    """What dressing must keep clear of, in the observer's frame (the robot at the origin,
    facing +x): points with a radius, the event's furniture (boxes, by ``PATH_CLEARANCE``),
    and lines of sight."""

    points: Sequence[tuple[Vec3, float]]
    boxes: Sequence[tuple[Vec3, Vec3]]
    sights: Sequence[tuple[Vec3, Vec3]]


def dress(room: RoomType, bounds: Bounds, keep: Keep, rng: SeededRng) -> list[Furniture]:
    """The room type's pieces, each where it fits against a wall, clear of ``keep``."""
    placed: list[tuple[Furniture, tuple[Vec3, Vec3]]] = []
    for index, piece in enumerate(ROOM_PIECES[room]):
        depth, length = rng.uniform(*piece.depth), rng.uniform(*piece.length)
        height, lift = rng.uniform(*piece.height), rng.uniform(*piece.above_floor)
        color = rng.choice(piece.colors)
        for _ in range(PLACEMENT_TRIES):
            wall = rng.integer(0, 3)
            along = rng.uniform(0.0, 1.0)
            candidate = _against(bounds, wall, along, depth, length, height, lift)
            if candidate is None:
                continue
            center, yaw, box = candidate
            if _clear(box, keep) and not any(_overlap(box, other) for _, other in placed):
                furniture = Furniture(
                    id=f"{DRESSING_PREFIX}{index}_{piece.kind.value}",
                    kind=piece.kind,
                    pose=Pose(pos=center, quat=quat_from_yaw(yaw) if yaw else IDENTITY_QUAT),
                    size=(depth, length, height),
                    color=color,
                    friction=0.5,
                )
                placed.append((furniture, box))
                break
    return [furniture for furniture, _ in placed]


# Walls, in the observer's frame: 0 the back wall (x min, behind the robot), 1 the front wall
# (x max), 2 the right (y min), 3 the left (y max); the yaw that turns a piece's front (its
# local -x) into the room.
_WALL_YAW = (math.pi, 0.0, -math.pi / 2.0, math.pi / 2.0)
CORNER = 0.05  # m a piece keeps from the room's corners


def _against(
    bounds: Bounds, wall: int, along: float, depth: float, length: float, height: float, lift: float
) -> tuple[Vec3, float, tuple[Vec3, Vec3]] | None:
    """A piece standing against ``wall`` at ``along`` (0..1) of its free length: (centre,
    yaw, bounding box), or None where the wall is too short for it."""
    x_min, x_max, y_min, y_max, ceiling = bounds
    if lift + height > ceiling - 0.05:
        return None
    runs = 1 if wall in (0, 1) else 0  # the axis the wall runs along; the other is across it
    low, high = (x_min, y_min), (x_max, y_max)
    free = (high[runs] - low[runs]) - length - 2 * CORNER
    if free <= 0:
        return None
    center, half = [0.0, 0.0], [0.0, 0.0]
    center[runs] = low[runs] + CORNER + length / 2.0 + along * free
    center[1 - runs] = (
        low[1 - runs] + depth / 2.0 if wall in (0, 2) else high[1 - runs] - depth / 2.0
    )
    half[runs], half[1 - runs] = length / 2.0, depth / 2.0
    x, y = center
    box = ((x - half[0], y - half[1], lift), (x + half[0], y + half[1], lift + height))
    return (x, y, lift + height / 2.0), _WALL_YAW[wall], box


def _clear(box: tuple[Vec3, Vec3], keep: Keep) -> bool:
    lo, hi = box
    if box_gap(box, _ORIGIN, axes=2) < ROBOT_CLEARANCE:
        return False
    for point, radius in keep.points:
        if box_gap(box, (point, point)) < radius:
            return False
    for other in keep.boxes:
        if box_gap(box, other) < PATH_CLEARANCE:
            return False
    grown = (
        tuple(c - SIGHT_CLEARANCE for c in lo),
        tuple(c + SIGHT_CLEARANCE for c in hi),
    )
    return not any(segment_hits_box(grown, a, b) for a, b in keep.sights)


def _overlap(a: tuple[Vec3, Vec3], b: tuple[Vec3, Vec3]) -> bool:
    return all(a[0][i] < b[1][i] and b[0][i] < a[1][i] for i in range(3))
