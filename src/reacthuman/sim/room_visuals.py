"""How a room's set dressing and its floor and walls look (``scenes.dressing``).

Each piece is drawn in its own frame: centred in its bounding box, its front (what faces into
the room) toward local -x, its back against the wall, local y along the wall. Boxes and
cylinders in colours that read as what they are; sizes are the piece's, so a door is as tall
as the spec says and gives the scene its scale. Floors and walls are MuJoCo built-in textures
whose pattern has a known size (planks 0.15 m wide, tiles 0.3 m, stripes 0.1 m).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from reacthuman.scenes.spec import FloorFinish, Furniture, FurnitureKind, WallFinish
from reacthuman.sim.visuals import (
    DARK,
    STEEL,
    WHITE,
    Part,
    Rgb,
    Texture,
    box,
    cyl,
    shade,
)

Drawing = Callable[[float, float, float, Rgb], list[Part]]
FRAME_WHITE: Rgb = (0.95, 0.95, 0.93)
SKY: Rgb = (0.62, 0.78, 0.92)
MATTRESS: Rgb = (0.96, 0.96, 0.94)
WORKTOP: Rgb = (0.35, 0.33, 0.32)
_DRAWINGS: dict[FurnitureKind, Drawing] = {}


def _draws(kind: FurnitureKind) -> Callable[[Drawing], Drawing]:
    def register(drawing: Drawing) -> Drawing:
        _DRAWINGS[kind] = drawing
        return drawing

    return register


def dressing_parts(piece: Furniture) -> list[Part]:
    """The parts of a piece of set dressing, in its frame."""
    sx, sy, sz = piece.size
    return _DRAWINGS[piece.kind](sx, sy, sz, piece.color)


def is_dressing(kind: FurnitureKind) -> bool:
    return kind in _DRAWINGS


def _handle(x: float, y: float, z: float, length: float = 0.12, vertical: bool = True) -> Part:
    return box(x, y, z, 0.025, 0.02 if vertical else length, length if vertical else 0.02, STEEL)


@_draws(FurnitureKind.door)
def _door(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    leaf, frame = 0.035, 0.06
    front = -sx / 2
    out = [box(front + leaf / 2 + 0.005, 0, -frame / 2, leaf, sy - 2 * frame, sz - frame, c)]
    for side in (-1, 1):  # the frame (architrave) around it
        out.append(box(front + 0.01, side * (sy / 2 - frame / 2), 0, 0.02, frame, sz, FRAME_WHITE))
    out.append(box(front + 0.01, 0, sz / 2 - frame / 2, 0.02, sy, frame, FRAME_WHITE))
    for dz in (0.25, -0.3):  # two raised panels
        out.append(
            box(front, 0, dz * sz, 0.01, sy - 4 * frame, sz * 0.32, shade(c, 0.9)),
        )
    handle_z = -sz / 2 + 1.0  # door handles are 1 m up
    out.append(box(front - 0.03, sy / 2 - 0.14, handle_z, 0.03, 0.13, 0.02, STEEL))
    out.append(cyl(front - 0.01, sy / 2 - 0.09, handle_z, 0.05, 0.02, STEEL, _facing_x()))
    return out


@_draws(FurnitureKind.window)
def _window(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    bar = 0.06
    out = [box(0.02, 0, 0, 0.02, sy - bar, sz - bar, SKY)]  # the view out: sky
    for side in (-1, 1):
        out.append(box(0, side * (sy / 2 - bar / 2), 0, sx, bar, sz, c))
        out.append(box(0, 0, side * (sz / 2 - bar / 2), sx, sy, bar, c))
    out.append(box(0, 0, 0, sx * 0.6, 0.04, sz, c))  # the mullion
    out.append(box(0, 0, sz * 0.15, sx * 0.6, sy, 0.04, c))  # the transom
    out.append(box(-sx / 2 - 0.06, 0, -sz / 2 - 0.02, 0.14, sy + 0.1, 0.04, c))  # the sill
    return out


@_draws(FurnitureKind.radiator)
def _radiator(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    fins = max(int(sy / 0.06), 4)
    pitch = sy / fins
    out = [box(0.02, 0, 0, sx - 0.04, sy, sz * 0.9, shade(c, 0.9))]
    for i in range(fins):
        out.append(box(-0.01, -sy / 2 + (i + 0.5) * pitch, 0, sx - 0.02, pitch * 0.55, sz, c))
    return out


@_draws(FurnitureKind.sofa)
def _sofa(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    seat, arm, back = 0.44, 0.2, 0.22
    out = [
        box(0, 0, -sz / 2 + 0.06, sx - 0.04, sy - 0.04, 0.12, DARK),  # feet and plinth
        box(0.0, 0, -sz / 2 + 0.26, sx, sy, 0.28, c),  # base
        box(sx / 2 - back / 2, 0, 0.05, back, sy, sz - 0.1, shade(c, 0.92)),  # back
    ]
    for side in (-1, 1):
        out.append(box(0, side * (sy / 2 - arm / 2), -sz / 2 + 0.33, sx, arm, 0.42, shade(c, 0.95)))
    cushions = 3 if sy > 1.9 else 2
    width = (sy - 2 * arm) / cushions
    for i in range(cushions):  # seat cushions with gaps, so it reads as a sofa
        y = -sy / 2 + arm + (i + 0.5) * width
        out.append(box(-back / 2, y, -sz / 2 + seat, sx - back, width - 0.02, 0.1, shade(c, 1.06)))
    return out


@_draws(FurnitureKind.armchair)
def _armchair(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    return _sofa(sx, sy, sz, c)[:4] + [
        box(-0.11, 0, -sz / 2 + 0.44, sx - 0.22, sy - 0.4, 0.1, shade(c, 1.06)),
    ]


@_draws(FurnitureKind.sideboard)
def _sideboard(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    out = [
        box(0.0, 0, 0.04, sx, sy, sz - 0.08, c),
        box(-0.01, 0, sz / 2 - 0.015, sx + 0.02, sy + 0.02, 0.03, shade(c, 0.85)),  # the top
    ]
    doors = max(round(sy / 0.45), 2)
    width = sy / doors
    for i in range(doors):
        y = -sy / 2 + (i + 0.5) * width
        out.append(box(-sx / 2 - 0.005, y, 0.02, 0.01, width - 0.02, sz - 0.16, shade(c, 1.05)))
        out.append(_handle(-sx / 2 - 0.02, y + width / 2 - 0.06, 0.1))
    for side in (-1, 1):  # legs
        out.append(box(0, side * (sy / 2 - 0.04), -sz / 2 + 0.02, sx - 0.06, 0.04, 0.04, DARK))
    return out


@_draws(FurnitureKind.bed)
def _bed(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    # Its head against the wall (+x); mattress 0.5 m up, a headboard to the full height.
    low = -sz / 2
    return [
        box(-0.05, 0, low + 0.17, sx - 0.1, sy, 0.26, c),  # the frame
        box(-0.07, 0, low + 0.39, sx - 0.16, sy - 0.06, 0.2, MATTRESS),
        box(-0.35, 0, low + 0.5, sx * 0.62, sy - 0.02, 0.06, (0.45, 0.55, 0.7)),  # the duvet
        box(sx / 2 - 0.33, -sy / 4, low + 0.54, 0.35, sy / 2 - 0.08, 0.12, MATTRESS),  # pillows
        box(sx / 2 - 0.33, sy / 4, low + 0.54, 0.35, sy / 2 - 0.08, 0.12, MATTRESS),
        box(sx / 2 - 0.04, 0, 0, 0.08, sy + 0.04, sz, shade(c, 0.9)),  # the headboard
    ]


@_draws(FurnitureKind.wardrobe)
def _wardrobe(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    out = [box(0, 0, 0, sx, sy, sz, c)]
    doors = 2 if sy < 1.3 else 3
    width = sy / doors
    for i in range(doors):
        y = -sy / 2 + (i + 0.5) * width
        out.append(box(-sx / 2 - 0.005, y, 0.03, 0.01, width - 0.015, sz - 0.12, shade(c, 1.06)))
        out.append(_handle(-sx / 2 - 0.02, y + (width / 2 - 0.06) * (-1) ** i, 0.05, 0.3))
    return out


@_draws(FurnitureKind.kitchen_units)
def _kitchen_units(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    low, worktop = -sz / 2, 0.9
    out = [
        box(0.03, 0, low + 0.05, sx - 0.06, sy, 0.1, DARK),  # the plinth
        box(0.0, 0, low + 0.48, sx - 0.02, sy, 0.76, c),  # base units
        box(-0.01, 0, low + worktop - 0.02, sx + 0.02, sy + 0.02, 0.04, WORKTOP),
        box(sx / 2 - 0.005, 0, low + 1.2, 0.01, sy, 0.56, (0.9, 0.9, 0.88)),  # splashback tiles
        box(sx / 2 - 0.175, 0, low + 1.8, 0.35, sy, 0.7, c),  # wall units
    ]
    doors = max(round(sy / 0.5), 2)
    width = sy / doors
    for i in range(doors):
        y = -sy / 2 + (i + 0.5) * width
        out.append(box(-sx / 2 - 0.004, y, low + 0.5, 0.008, width - 0.02, 0.66, shade(c, 1.05)))
        out.append(_handle(-sx / 2 - 0.02, y, low + 0.78, 0.14, vertical=False))
        out.append(
            box(sx / 2 - 0.355, y, low + 1.8, 0.008, width - 0.02, 0.64, shade(c, 1.05)),
        )
    out.append(cyl(-0.05, sy * 0.25, low + 0.92, 0.08, 0.02, STEEL))  # the hob's rings
    out.append(cyl(-0.05, sy * 0.25 + 0.2, low + 0.92, 0.08, 0.02, STEEL))
    return out


@_draws(FurnitureKind.fridge)
def _fridge(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    split = sz * 0.3  # the freezer below
    return [
        box(0.01, 0, 0, sx - 0.02, sy, sz, shade(c, 0.95)),
        box(-sx / 2 + 0.01, 0, -sz / 2 + split / 2, 0.02, sy - 0.01, split - 0.01, c),
        box(-sx / 2 + 0.01, 0, split / 2, 0.02, sy - 0.01, sz - split - 0.01, c),
        _handle(-sx / 2 - 0.02, sy / 2 - 0.06, -sz / 2 + split - 0.12, 0.2),
        _handle(-sx / 2 - 0.02, sy / 2 - 0.06, -sz / 2 + split + 0.25, 0.4),
    ]


@_draws(FurnitureKind.desk)
def _desk(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    out = [box(0, 0, sz / 2 - 0.015, sx, sy, 0.03, c)]
    for side in (-1, 1):  # two side panels
        out.append(
            box(0, side * (sy / 2 - 0.02), -0.015, sx - 0.04, 0.03, sz - 0.03, shade(c, 0.8))
        )
    out.append(box(sx / 2 - 0.1, 0, sz / 2 + 0.005, 0.2, 0.3, 0.01, DARK))  # a keyboard mat
    out.append(box(sx / 2 - 0.15, sy * 0.3, sz / 2 + 0.015, 0.22, 0.3, 0.03, WHITE))  # papers
    return out


@_draws(FurnitureKind.chair)
def _chair(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    seat = 0.46
    low = -sz / 2
    out = [
        box(0, 0, low + seat - 0.02, sx, sy, 0.04, c),
        box(sx / 2 - 0.02, 0, low + (seat + sz) / 2, 0.04, sy, sz - seat, c),  # the back
    ]
    for dx in (-1, 1):
        for dy in (-1, 1):
            out.append(
                box(dx * (sx / 2 - 0.03), dy * (sy / 2 - 0.03), low + seat / 2 - 0.02,
                    0.035, 0.035, seat - 0.04, shade(c, 0.8)),
            )  # fmt: skip
    return out


@_draws(FurnitureKind.shelving_unit)
def _shelving(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    out: list[Part] = []
    for dx in (-1, 1):
        for dy in (-1, 1):
            out.append(box(dx * (sx / 2 - 0.015), dy * (sy / 2 - 0.015), 0, 0.03, 0.03, sz, c))
    tubs = ((0.85, 0.3, 0.25), (0.25, 0.45, 0.75), (0.3, 0.6, 0.35), (0.9, 0.75, 0.2))
    for level in range(4):
        z = -sz / 2 + 0.1 + level * (sz - 0.15) / 3
        out.append(box(0, 0, z, sx, sy, 0.02, shade(c, 0.9)))
        if level < 3:  # storage tubs on the lower shelves
            color = tubs[level % len(tubs)]
            out.append(box(0.0, -sy / 4, z + 0.14, sx * 0.8, sy * 0.42, 0.26, color))
            out.append(box(0.0, sy / 4, z + 0.11, sx * 0.8, sy * 0.38, 0.2, shade(color, 0.8)))
    return out


@_draws(FurnitureKind.workbench)
def _workbench(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    low, top = -sz / 2, 0.9
    out = [box(0, 0, low + top - 0.03, sx, sy, 0.06, c)]
    for dx in (-1, 1):
        for dy in (-1, 1):
            out.append(
                box(dx * (sx / 2 - 0.05), dy * (sy / 2 - 0.05), low + (top - 0.06) / 2,
                    0.06, 0.06, top - 0.06, shade(c, 0.8)),
            )  # fmt: skip
    out.append(box(0, 0, low + 0.2, sx - 0.1, sy - 0.1, 0.02, shade(c, 0.85)))  # lower shelf
    board = (0.78, 0.68, 0.5)
    out.append(box(sx / 2 - 0.01, 0, low + top + 0.5, 0.02, sy, 0.8, board))  # the pegboard
    for i in range(5):  # tools hanging on it
        y = -sy / 2 + (i + 1) * sy / 6
        out.append(box(sx / 2 - 0.04, y, low + top + 0.5, 0.03, 0.04, 0.3, (0.75, 0.2, 0.15)))
    return out


@_draws(FurnitureKind.washing_machine)
def _washer(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    door = _facing_x()
    return [
        box(0, 0, 0, sx, sy, sz, c),
        box(-sx / 2 - 0.005, 0, sz / 2 - 0.08, 0.01, sy - 0.04, 0.1, shade(c, 0.9)),  # controls
        cyl(-sx / 2 - 0.01, 0, -0.05, sy * 0.6, 0.02, (0.7, 0.7, 0.72), door),  # the door ring
        cyl(-sx / 2 - 0.015, 0, -0.05, sy * 0.45, 0.02, (0.2, 0.22, 0.26), door),  # its glass
    ]


@_draws(FurnitureKind.toy_chest)
def _toy_chest(sx: float, sy: float, sz: float, c: Rgb) -> list[Part]:
    return [
        box(0, 0, -0.03, sx, sy, sz - 0.06, c),
        box(0, 0, sz / 2 - 0.03, sx + 0.02, sy + 0.02, 0.06, shade(c, 0.8)),  # the lid
        box(-sx / 2 - 0.005, 0, 0, 0.01, sy * 0.5, sz * 0.3, (0.95, 0.95, 0.9)),  # a label
    ]


def _facing_x() -> tuple[float, float, float, float]:
    """A cylinder's axis turned from z to x (a round door or knob on a front face)."""
    half = math.pi / 4
    return (math.cos(half), 0.0, math.sin(half), 0.0)


# Floors and walls: (built-in, second colour's shade, marks, mark colour's shade, repeat per m).
PLANK, TILE, STRIPE = 0.15, 0.3, 0.1  # m


def floor_texture(finish: FloorFinish, color: Rgb, span: tuple[float, float]) -> Texture | None:
    """The floor's texture over a (x, y) span, or None for a plain one."""
    sx, sy = span
    if finish is FloorFinish.wood:  # staggered planks: long cells of two close tones
        return Texture(
            "checker", shade(color, 0.86), shade(color, 0.7), 0.04, (sx / 1.2, sy / PLANK)
        )
    if finish is FloorFinish.tile:
        return Texture(
            "checker", shade(color, 0.97), shade(color, 0.6), 0.0, (sx / TILE / 2, sy / TILE / 2),
            texels=128, edges=True,
        )  # fmt: skip
    if finish is FloorFinish.carpet:
        return Texture("flat", color, shade(color, 0.8), 0.35, (sx / 0.5, sy / 0.5))
    if finish is FloorFinish.concrete:
        return Texture("flat", color, shade(color, 0.85), 0.2, (sx / 0.8, sy / 0.8))
    return None


def wall_texture(finish: WallFinish, color: Rgb, span: tuple[float, float]) -> Texture | None:
    """A wall's texture over its (length, height), or None for a plain one."""
    length, height = span
    if finish is WallFinish.wallpaper:  # vertical stripes: one row of checker cells
        return Texture(
            "checker", shade(color, 0.9), shade(color, 0.9), 0.0, (length / STRIPE / 2, 0.5)
        )
    return None  # paint: one colour
