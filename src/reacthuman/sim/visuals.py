"""How each catalogue object looks: coloured primitive parts inside its collision box.

A model sees objects, so a knife must look like a knife and a plate like a plate. Every
``visual_model`` of the catalogue maps to a function that lays out parts in the object's
body frame (centred on the collision primitive, z up in the resting pose, sizes the full
extents as in ``Shape``), scaled to the object's size and tinted by its colour. The parts are
visual only: the collision shape and the mass stay the catalogue's primitive.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from reacthuman.scenes.geometry import Quat, Vec3, quat_from_axis_angle

Rgb = tuple[float, float, float]
IDENTITY: Quat = (1.0, 0.0, 0.0, 0.0)
ALONG_X: Quat = quat_from_axis_angle((0.0, 1.0, 0.0), math.pi / 2)  # a cylinder's axis on x
ALONG_Y: Quat = quat_from_axis_angle((1.0, 0.0, 0.0), math.pi / 2)  # ... on y

BLACK: Rgb = (0.05, 0.05, 0.05)
WHITE: Rgb = (0.95, 0.95, 0.95)
STEEL: Rgb = (0.75, 0.76, 0.78)
DARK: Rgb = (0.15, 0.15, 0.16)
WOOD: Rgb = (0.55, 0.38, 0.22)
GREEN: Rgb = (0.2, 0.55, 0.2)
GLASS: Rgb = (0.75, 0.85, 0.9)


@dataclass(frozen=True)
class Part:
    kind: str  # box | sphere | cylinder (axis along the part's z)
    pos: Vec3
    size: Vec3  # full extents; sphere (d, d, d); cylinder (d, d, h)
    color: Rgb
    quat: Quat = IDENTITY


def shade(color: Rgb, k: float) -> Rgb:
    """Darker (k < 1) or lighter (k > 1) version of a colour."""
    if k <= 1.0:
        return (color[0] * k, color[1] * k, color[2] * k)
    return tuple(c + (1.0 - c) * (k - 1.0) for c in color)  # type: ignore[return-value]


def contrast(color: Rgb) -> Rgb:
    return DARK if sum(color) / 3.0 > 0.5 else (0.9, 0.9, 0.9)


def box(x, y, z, sx, sy, sz, color, quat=IDENTITY) -> Part:
    return Part("box", (x, y, z), (sx, sy, sz), color, quat)


def cyl(x, y, z, d, h, color, quat=IDENTITY) -> Part:
    return Part("cylinder", (x, y, z), (d, d, h), color, quat)


def ball(x, y, z, d, color) -> Part:
    return Part("sphere", (x, y, z), (d, d, d), color)


Size = tuple[float, float, float]
Builder = Callable[[Size, Rgb], list[Part]]
MODELS: dict[str, Builder] = {}


def model(*names: str) -> Callable[[Builder], Builder]:
    def register(fn: Builder) -> Builder:
        for name in names:
            MODELS[name] = fn
        return fn

    return register


def parts(visual_model: str, size: Size, color: Rgb) -> list[Part]:
    """The parts of a visual model, or a plain coloured primitive-shaped box for unknown ones."""
    builder = MODELS.get(visual_model)
    if builder is None:
        raise KeyError(f"no visual model {visual_model!r} (known: {', '.join(sorted(MODELS))})")
    return builder(size, color)


# --- kitchenware ---------------------------------------------------------------------------


@model("plate")
def _plate(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    return [
        cyl(0, 0, -h * 0.3, d * 0.62, h * 0.4, shade(c, 0.92)),  # foot
        cyl(0, 0, h * 0.2, d, h * 0.6, c),  # rim
        cyl(0, 0, h * 0.35, d * 0.7, h * 0.32, shade(c, 0.85)),  # well
    ]


@model("bowl")
def _bowl(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    return [
        cyl(0, 0, -h * 0.35, d * 0.55, h * 0.3, c),
        cyl(0, 0, -h * 0.05, d * 0.82, h * 0.3, c),
        cyl(0, 0, h * 0.3, d, h * 0.4, c),
        cyl(0, 0, h * 0.42, d * 0.86, h * 0.18, shade(c, 0.55)),  # the hollow
    ]


@model("mug")
def _mug(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    body = d * 0.72
    x0 = -d / 2 + body / 2
    grip_x = x0 + body / 2 + d * 0.11
    return [
        cyl(x0, 0, 0, body, h, c),
        cyl(x0, 0, h * 0.47, body * 0.84, h * 0.08, (0.25, 0.15, 0.08)),  # coffee
        box(grip_x, 0, 0, d * 0.07, d * 0.09, h * 0.62, c),
        box((x0 + body / 2 + grip_x) / 2, 0, h * 0.28, d * 0.2, d * 0.09, h * 0.08, c),
        box((x0 + body / 2 + grip_x) / 2, 0, -h * 0.28, d * 0.2, d * 0.09, h * 0.08, c),
    ]


@model("wine_glass")
def _wine_glass(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    return [
        cyl(0, 0, -h * 0.48, d * 0.75, h * 0.04, c),  # foot
        cyl(0, 0, -h * 0.22, d * 0.1, h * 0.5, c),  # stem
        cyl(0, 0, h * 0.06, d * 0.6, h * 0.08, c),
        cyl(0, 0, h * 0.27, d, h * 0.36, c),  # bowl
        cyl(0, 0, h * 0.2, d * 0.9, h * 0.12, (0.55, 0.05, 0.12)),  # red wine
    ]


@model("bottle")
def _bottle(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    return [
        cyl(0, 0, -h * 0.17, d, h * 0.66, c),
        cyl(0, 0, h * 0.05, d * 0.92, h * 0.22, shade(c, 1.25)),  # label
        cyl(0, 0, h * 0.2, d * 0.65, h * 0.08, c),  # shoulder
        cyl(0, 0, h * 0.35, d * 0.34, h * 0.22, c),  # neck
        cyl(0, 0, h * 0.47, d * 0.38, h * 0.06, contrast(c)),  # cap
    ]


@model("cup")
def _cup(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    return [
        cyl(0, 0, -h * 0.25, d * 0.78, h * 0.5, c),
        cyl(0, 0, h * 0.2, d * 0.92, h * 0.4, c),
        cyl(0, 0, h * 0.05, d * 0.9, h * 0.22, shade(c, 0.7)),  # sleeve
        cyl(0, 0, h * 0.45, d, h * 0.1, contrast(c)),  # lid or rim
    ]


@model("knife")
def _knife(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    return [
        box(lx * 0.15, -ly * 0.05, 0, lx * 0.7, ly * 0.9, lz * 0.25, STEEL),  # blade
        box(lx * 0.4, ly * 0.1, 0, lx * 0.2, ly * 0.6, lz * 0.25, STEEL),  # tip taper
        box(-lx * 0.33, 0, 0, lx * 0.34, ly * 0.55, lz, DARK),  # handle
        box(-lx * 0.2, 0, lz * 0.52, lx * 0.02, ly * 0.3, lz * 0.04, STEEL),  # rivet
    ]


@model("scissors")
def _scissors(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    tilt = quat_from_axis_angle((0, 0, 1), 0.12)
    back = quat_from_axis_angle((0, 0, 1), -0.12)
    return [
        box(lx * 0.2, ly * 0.05, lz * 0.2, lx * 0.6, ly * 0.15, lz * 0.3, STEEL, tilt),
        box(lx * 0.2, -ly * 0.05, -lz * 0.2, lx * 0.6, ly * 0.15, lz * 0.3, STEEL, back),
        cyl(-lx * 0.3, ly * 0.24, 0, ly * 0.45, lz * 0.8, c),  # finger loops
        cyl(-lx * 0.3, -ly * 0.24, 0, ly * 0.45, lz * 0.8, c),
    ]


@model("pan")
def _pan(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    x0 = -lx / 2 + ly / 2
    return [
        cyl(x0, 0, 0, ly, lz, c),
        cyl(x0, 0, lz * 0.3, ly * 0.86, lz * 0.45, shade(c, 0.6)),
        box(x0 + ly / 2 + (lx - ly) / 2, 0, lz * 0.3, lx - ly, ly * 0.12, lz * 0.25, c),
    ]


@model("pot")
def _pot(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    return [
        cyl(0, 0, -h * 0.05, d * 0.8, h * 0.9, c),
        cyl(0, 0, h * 0.42, d * 0.82, h * 0.06, shade(c, 0.75)),  # lid
        cyl(0, 0, h * 0.47, d * 0.12, h * 0.06, DARK),  # knob
        box(d * 0.45, 0, h * 0.2, d * 0.1, d * 0.2, h * 0.08, DARK),
        box(-d * 0.45, 0, h * 0.2, d * 0.1, d * 0.2, h * 0.08, DARK),
    ]


@model("kettle")
def _kettle(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    spout = quat_from_axis_angle((0, 1, 0), 0.7)
    return [
        cyl(-d * 0.05, 0, -h * 0.15, d * 0.78, h * 0.7, c),
        cyl(-d * 0.05, 0, h * 0.22, d * 0.5, h * 0.06, shade(c, 0.8)),
        box(d * 0.36, 0, h * 0.0, d * 0.1, d * 0.1, h * 0.35, c, spout),
        box(-d * 0.05, 0, h * 0.45, d * 0.5, d * 0.08, h * 0.07, DARK),  # handle top
        box(-d * 0.27, 0, h * 0.34, d * 0.07, d * 0.08, h * 0.2, DARK),
        box(d * 0.17, 0, h * 0.34, d * 0.07, d * 0.08, h * 0.2, DARK),
    ]


@model("fruit")
def _fruit(s: Size, c: Rgb) -> list[Part]:
    d = s[0]
    return [
        ball(0, 0, 0, d, c),
        cyl(0, 0, d * 0.5, d * 0.08, d * 0.18, (0.35, 0.22, 0.1)),  # stem
        box(d * 0.1, 0, d * 0.52, d * 0.2, d * 0.1, d * 0.03, GREEN),  # leaf
    ]


@model("loaf")
def _loaf(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    return [
        box(0, 0, -lz * 0.15, lx, ly, lz * 0.7, c),
        cyl(0, 0, lz * 0.2, ly, lx * 0.98, shade(c, 0.85), ALONG_X),  # the crust's dome
    ]


@model("box")
def _box(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    return [
        box(0, 0, 0, lx, ly, lz, c),
        box(-lx * 0.0, -ly * 0.5, lz * 0.1, lx * 0.7, ly * 0.02, lz * 0.4, contrast(c)),  # label
        box(0, 0, lz * 0.5, lx * 0.15, ly * 1.0, lz * 0.01, shade(c, 1.3)),  # tape
    ]


@model("can")
def _can(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    return [
        cyl(0, 0, 0, d * 0.97, h * 0.86, c),
        cyl(0, 0, h * 0.0, d * 0.99, h * 0.3, WHITE),  # label band
        cyl(0, 0, h * 0.46, d * 0.9, h * 0.08, STEEL),
        cyl(0, 0, -h * 0.46, d * 0.9, h * 0.08, STEEL),
    ]


@model("board")
def _board(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    frame = shade(c, 0.55)
    if lx < lz:  # a board hung on a wall (cork board): a frame around the face
        return [
            box(0, 0, 0, lx, ly * 0.92, lz * 0.9, c),
            box(0, 0, lz * 0.47, lx, ly, lz * 0.06, frame),
            box(0, 0, -lz * 0.47, lx, ly, lz * 0.06, frame),
            box(0, ly * 0.48, 0, lx, ly * 0.04, lz, frame),
            box(0, -ly * 0.48, 0, lx, ly * 0.04, lz, frame),
            box(-lx * 0.5, ly * 0.2, lz * 0.1, lx * 0.1, ly * 0.2, lz * 0.25, WHITE),  # notes
            box(
                -lx * 0.5, -ly * 0.15, -lz * 0.05, lx * 0.1, ly * 0.18, lz * 0.22, (0.95, 0.9, 0.4)
            ),
        ]
    return [
        box(0, 0, 0, lx, ly, lz, c),
        cyl(lx * 0.38, 0, lz * 0.1, ly * 0.15, lz * 0.9, shade(c, 0.5)),  # hanging hole
    ]


@model("book")
def _book(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    return [
        box(lx * 0.01, 0, 0, lx * 0.97, ly * 0.96, lz * 0.8, (0.95, 0.93, 0.85)),  # pages
        box(0, 0, lz * 0.45, lx, ly, lz * 0.1, c),
        box(0, 0, -lz * 0.45, lx, ly, lz * 0.1, c),
        box(-lx * 0.49, 0, 0, lx * 0.02, ly, lz, c),  # spine
        box(0, 0, lz * 0.5, lx * 0.6, ly * 0.5, lz * 0.02, contrast(c)),  # title
    ]


@model("remote")
def _remote(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    out = [
        box(0, 0, 0, lx, ly, lz, c),
        box(lx * 0.38, 0, lz * 0.5, lx * 0.06, ly * 0.4, lz * 0.1, (0.8, 0.1, 0.1)),
    ]
    for i in range(4):
        for j in (-1, 1):
            out.append(
                box(
                    lx * (0.15 - 0.12 * i),
                    j * ly * 0.2,
                    lz * 0.5,
                    lx * 0.06,
                    ly * 0.22,
                    lz * 0.1,
                    (0.6, 0.6, 0.62),
                )
            )
    return out


@model("phone")
def _phone(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    return [
        box(0, 0, 0, lx, ly, lz, c),
        box(0, 0, lz * 0.45, lx * 0.9, ly * 0.88, lz * 0.2, (0.1, 0.15, 0.3)),
    ]


@model("laptop")
def _laptop(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    return [
        box(0, 0, -lz * 0.25, lx, ly, lz * 0.5, c),
        box(0, 0, lz * 0.25, lx, ly, lz * 0.5, shade(c, 0.8)),  # closed lid
        box(0, 0, lz * 0.5, lx * 0.12, ly * 0.12, lz * 0.02, WHITE),  # logo
    ]


@model("plush")
def _plush(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    body, head = min(lx, ly) * 0.9, min(lx, ly) * 0.7
    return [
        ball(0, 0, -lz / 2 + body / 2, body, c),
        ball(0, 0, lz / 2 - head / 2, head, c),
        ball(-head * 0.4, 0, lz / 2 - head * 0.55, head * 0.35, shade(c, 1.4)),  # snout
        ball(0, head * 0.4, lz / 2 - head * 0.1, head * 0.3, c),  # ears
        ball(0, -head * 0.4, lz / 2 - head * 0.1, head * 0.3, c),
        ball(-head * 0.48, head * 0.15, lz / 2 - head * 0.4, head * 0.08, BLACK),  # eyes
        ball(-head * 0.48, -head * 0.15, lz / 2 - head * 0.4, head * 0.08, BLACK),
    ]


@model("pillow")
def _pillow(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    return [
        box(0, 0, -lz * 0.1, lx, ly, lz * 0.6, c),
        box(0, 0, lz * 0.2, lx * 0.85, ly * 0.85, lz * 0.6, c),
        box(0, 0, lz * 0.5, lx * 0.4, ly * 0.4, lz * 0.02, shade(c, 0.75)),
    ]


@model("towel")
def _towel(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    return [
        box(0, 0, 0, lx, ly, lz, c),
        box(0, ly * 0.3, 0, lx * 1.0, ly * 0.08, lz * 1.02, shade(c, 1.5)),
        box(0, -ly * 0.3, 0, lx * 1.0, ly * 0.08, lz * 1.02, shade(c, 1.5)),
    ]


@model("vase")
def _vase(s: Size, c: Rgb) -> list[Part]:
    """A clear glass vase: a tall, pale blue-green cylinder with a thicker glass base, water
    inside, and green stems with three flowers above its rim."""
    d, h = s[0], s[2]
    glass = shade(GLASS, 1.1)
    return [
        cyl(0, 0, -h * 0.44, d, h * 0.12, shade(GLASS, 0.85)),  # thick base
        cyl(0, 0, -h * 0.05, d * 0.96, h * 0.7, glass),
        cyl(0, 0, -h * 0.12, d * 0.8, h * 0.5, (0.55, 0.75, 0.85)),  # water
        cyl(0, 0, h * 0.33, d * 1.04, h * 0.04, shade(GLASS, 0.8)),  # rim
        cyl(0, 0, h * 0.42, d * 0.12, h * 0.16, GREEN),  # stems
        ball(-d * 0.2, 0, h * 0.5, d * 0.3, (0.85, 0.2, 0.4)),
        ball(d * 0.2, d * 0.1, h * 0.48, d * 0.28, (0.95, 0.8, 0.2)),
        ball(0, -d * 0.2, h * 0.49, d * 0.28, (0.9, 0.9, 0.95)),
    ]


@model("potted_plant")
def _potted_plant(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    pot_h = h * 0.42
    leaves = []
    for i, (x, y) in enumerate([(0, 0), (0.22, 0.1), (-0.2, 0.15), (0.05, -0.24), (-0.1, -0.1)]):
        z = -h / 2 + pot_h + d * 0.3 + (0.12 if i == 0 else 0.0) * h
        leaves.append(ball(x * d, y * d, z, d * (0.62 if i == 0 else 0.45), GREEN))
    return [
        cyl(0, 0, -h / 2 + pot_h * 0.45, d * 0.72, pot_h * 0.9, c),
        cyl(0, 0, -h / 2 + pot_h * 0.95, d * 0.82, pot_h * 0.12, c),
        cyl(0, 0, -h / 2 + pot_h * 0.98, d * 0.7, pot_h * 0.06, (0.25, 0.16, 0.08)),
        *leaves,
    ]


@model("lamp")
def _lamp(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    return [
        cyl(0, 0, -h * 0.38, d * 0.5, h * 0.24, c),
        cyl(0, 0, -h * 0.1, d * 0.08, h * 0.35, STEEL),
        cyl(0, 0, h * 0.28, d, h * 0.44, (0.95, 0.9, 0.75)),  # shade
    ]


@model("block")
def _block(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    return [
        box(0, 0, 0, lx, ly, lz, c),
        box(-lx * 0.5, 0, 0, lx * 0.04, ly * 0.5, lz * 0.5, contrast(c)),  # a letter
        box(0, 0, lz * 0.5, lx * 0.5, ly * 0.5, lz * 0.04, (0.9, 0.8, 0.1)),
    ]


@model("toolbox")
def _toolbox(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    return [
        box(0, 0, -lz * 0.1, lx, ly, lz * 0.8, c),
        box(0, 0, lz * 0.32, lx * 0.98, ly * 0.98, lz * 0.06, shade(c, 0.7)),
        box(0, 0, lz * 0.47, lx * 0.5, ly * 0.1, lz * 0.06, DARK),  # handle
        box(lx * 0.24, 0, lz * 0.4, lx * 0.04, ly * 0.1, lz * 0.12, DARK),
        box(-lx * 0.24, 0, lz * 0.4, lx * 0.04, ly * 0.1, lz * 0.12, DARK),
        box(0, -ly * 0.5, lz * 0.2, lx * 0.1, ly * 0.02, lz * 0.15, STEEL),  # latch
    ]


@model("dumbbell")
def _dumbbell(s: Size, c: Rgb) -> list[Part]:
    lx, ly, _lz = s
    return [
        cyl(0, 0, 0, ly * 0.3, lx, STEEL, ALONG_X),
        cyl(lx * 0.36, 0, 0, ly, lx * 0.22, c, ALONG_X),
        cyl(-lx * 0.36, 0, 0, ly, lx * 0.22, c, ALONG_X),
    ]


@model("brick")
def _brick(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    return [
        box(0, 0, 0, lx, ly, lz, c),
        cyl(lx * 0.25, 0, 0, ly * 0.35, lz * 1.01, shade(c, 0.5)),  # cored holes
        cyl(-lx * 0.25, 0, 0, ly * 0.35, lz * 1.01, shade(c, 0.5)),
    ]


@model("anvil")
def _anvil(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    return [
        box(-lx * 0.05, 0, -lz * 0.38, lx * 0.6, ly, lz * 0.24, c),  # foot
        box(-lx * 0.05, 0, -lz * 0.1, lx * 0.3, ly * 0.55, lz * 0.35, c),  # waist
        box(-lx * 0.1, 0, lz * 0.3, lx * 0.7, ly, lz * 0.4, c),  # face
        box(lx * 0.36, 0, lz * 0.32, lx * 0.28, ly * 0.45, lz * 0.22, c),  # horn
        box(-lx * 0.1, 0, lz * 0.5, lx * 0.7, ly * 0.95, lz * 0.02, shade(c, 1.2)),  # worn top
    ]


@model("bag")
def _bag(s: Size, c: Rgb) -> list[Part]:
    lx, _ly, lz = s
    return [
        cyl(0, 0, -lz * 0.2, lx, lz * 0.6, c),
        cyl(0, 0, lz * 0.25, lx * 0.75, lz * 0.5, c),
        box(0, 0, lz * 0.0, lx * 1.0, lx * 0.06, lz * 0.2, shade(c, 0.7)),  # seam
    ]


@model("suitcase")
def _suitcase(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    return [
        box(0, 0, 0, lx * 0.92, ly, lz * 0.9, c),
        box(0, 0, 0, lx, ly * 0.96, lz * 0.04, shade(c, 0.6)),  # zip
        box(0, 0, lz * 0.47, lx * 0.2, ly * 0.3, lz * 0.06, DARK),  # handle
        cyl(0, ly * 0.4, -lz * 0.47, lz * 0.07, lx * 0.2, DARK, ALONG_X),  # wheels
        cyl(0, -ly * 0.4, -lz * 0.47, lz * 0.07, lx * 0.2, DARK, ALONG_X),
    ]


@model("basket")
def _basket(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    t = 0.015
    return [
        box(0, 0, -lz / 2 + t / 2, lx, ly, t, c),
        box(lx / 2 - t / 2, 0, 0, t, ly, lz, c),
        box(-lx / 2 + t / 2, 0, 0, t, ly, lz, c),
        box(0, ly / 2 - t / 2, 0, lx, t, lz, c),
        box(0, -ly / 2 + t / 2, 0, lx, t, lz, c),
        box(0, 0, lz * 0.45, lx * 1.0, ly * 1.0, lz * 0.05, shade(c, 0.8)),  # rim
        box(0, 0, lz * 0.46, lx * 0.95, ly * 0.92, lz * 0.06, shade(c, 0.35)),  # the inside
    ]


@model("ball")
def _ball(s: Size, c: Rgb) -> list[Part]:
    d = s[0]
    seam = contrast(c)
    return [
        ball(0, 0, 0, d, c),
        cyl(0, 0, 0, d * 1.01, d * 0.035, seam),  # seams around the ball
        cyl(0, 0, 0, d * 1.01, d * 0.035, seam, ALONG_X),
    ]


@model("frisbee")
def _frisbee(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    return [
        cyl(0, 0, 0, d, h * 0.6, c),
        cyl(0, 0, h * 0.3, d * 0.9, h * 0.4, shade(c, 1.2)),
        cyl(0, 0, h * 0.5, d * 0.3, h * 0.02, WHITE),
    ]


@model("shoe")
def _shoe(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    return [
        box(0, 0, -lz * 0.38, lx, ly, lz * 0.24, WHITE),  # sole
        box(-lx * 0.18, 0, lz * 0.1, lx * 0.64, ly * 0.92, lz * 0.74, c),  # heel and ankle
        box(lx * 0.28, 0, -lz * 0.08, lx * 0.44, ly * 0.88, lz * 0.36, c),  # toe box
        box(lx * 0.1, 0, lz * 0.14, lx * 0.3, ly * 0.5, lz * 0.04, WHITE),  # laces
    ]


# --- wall and ceiling fixtures ---------------------------------------------------------------
# They hang on the front wall with their face toward the robot, on the body's -x side.


def _framed(s: Size, frame: Rgb, face: Rgb, border: float = 0.06) -> list[Part]:
    lx, ly, lz = s
    b = min(ly, lz) * border
    return [
        box(lx * 0.1, 0, 0, lx * 0.8, ly - 2 * b, lz - 2 * b, face),
        box(0, 0, lz / 2 - b / 2, lx, ly, b, frame),
        box(0, 0, -lz / 2 + b / 2, lx, ly, b, frame),
        box(0, ly / 2 - b / 2, 0, lx, b, lz, frame),
        box(0, -ly / 2 + b / 2, 0, lx, b, lz, frame),
    ]


@model("mirror")
def _mirror(s: Size, c: Rgb) -> list[Part]:
    return _framed(s, c, (0.82, 0.88, 0.92), 0.08)


@model("frame")
def _frame(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    out = _framed(s, c, (0.85, 0.8, 0.65), 0.1)
    out += [  # a painting: sky, sun, hill
        box(-lx * 0.35, 0, lz * 0.12, lx * 0.1, ly * 0.72, lz * 0.38, (0.45, 0.65, 0.9)),
        box(-lx * 0.35, 0, -lz * 0.18, lx * 0.1, ly * 0.72, lz * 0.3, (0.3, 0.6, 0.25)),
        cyl(-lx * 0.42, ly * 0.18, lz * 0.18, lz * 0.14, lx * 0.1, (0.95, 0.8, 0.2), ALONG_X),
    ]
    return out


@model("clock")
def _clock(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    d = min(ly, lz)
    return [
        cyl(0, 0, 0, d, lx, c, ALONG_X),
        cyl(-lx * 0.3, 0, 0, d * 0.86, lx * 0.5, WHITE, ALONG_X),
        box(-lx * 0.56, 0, d * 0.15, lx * 0.05, d * 0.04, d * 0.3, BLACK),  # minute hand
        box(-lx * 0.56, d * 0.1, 0, lx * 0.05, d * 0.2, d * 0.04, BLACK),  # hour hand
    ]


@model("tv")
def _tv(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    return [
        box(lx * 0.1, 0, 0, lx * 0.8, ly, lz, c),
        box(-lx * 0.4, 0, lz * 0.02, lx * 0.2, ly * 0.95, lz * 0.9, (0.08, 0.1, 0.16)),  # screen
        box(-lx * 0.45, 0, -lz * 0.47, lx * 0.1, ly * 0.05, lz * 0.03, (0.3, 0.3, 0.3)),
    ]


@model("panel")
def _panel(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    out = [box(0, 0, 0, lx, ly, lz, c)]
    for k in (-0.25, 0.0, 0.25):  # the perforated tile's pattern, on its visible underside
        out.append(box(k * lx, 0, -lz * 0.5, lx * 0.02, ly * 0.9, lz * 0.05, shade(c, 0.8)))
    return out


@model("pendant_lamp")
def _pendant_lamp(s: Size, c: Rgb) -> list[Part]:
    """A glass globe pendant on a cord: a frosted globe under a dark metal cap, and the
    cord it hung from."""
    d, h = s[0], s[2]
    return [
        cyl(0, 0, h * 0.42, d * 0.03, h * 0.16, DARK),  # cord
        cyl(0, 0, h * 0.3, d * 0.3, h * 0.12, shade(STEEL, 0.6)),  # metal cap
        cyl(0, 0, h * 0.22, d * 0.42, h * 0.06, shade(STEEL, 0.5)),  # collar
        ball(0, 0, -h * 0.1, min(d, h * 0.8), (0.93, 0.95, 0.97)),  # frosted glass globe
    ]


@model("disc")
def _disc(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    return [
        cyl(0, 0, 0, d, h, c),
        cyl(0, 0, -h * 0.45, d * 0.6, h * 0.15, shade(c, 0.85)),
        ball(d * 0.2, 0, -h * 0.5, d * 0.06, (0.9, 0.1, 0.1)),  # LED
    ]


@model("fan")
def _fan(s: Size, c: Rgb) -> list[Part]:
    """A ceiling fan: a down-rod, a motor housing and five broad blades, in its own colour
    (the catalogue's is white), a darker light kit under the motor."""
    d, h = s[0], s[2]
    out = [
        cyl(0, 0, h * 0.3, d * 0.05, h * 0.4, shade(c, 0.85)),  # down-rod
        cyl(0, 0, -h * 0.05, d * 0.2, h * 0.3, c),  # motor
        cyl(0, 0, -h * 0.28, d * 0.12, h * 0.16, shade(c, 0.75)),  # light kit
    ]
    for k in range(5):
        angle = k * 2.0 * math.pi / 5.0
        q = quat_from_axis_angle((0, 0, 1), angle)
        r = d * 0.29
        out.append(
            box(
                r * math.cos(angle),
                r * math.sin(angle),
                -h * 0.12,
                d * 0.46,
                d * 0.13,
                h * 0.04,
                c,
                q,
            )
        )
    return out


# --- furniture, doors, ladders -----------------------------------------------------------------


@model("shelf")
def _shelf(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    t = 0.02
    out = [
        box(lx / 2 - t / 2, 0, 0, t, ly, lz, c),  # back
        box(0, ly / 2 - t / 2, 0, lx, t, lz, c),
        box(0, -ly / 2 + t / 2, 0, lx, t, lz, c),
        box(0, 0, lz / 2 - t / 2, lx, ly, t, c),
        box(0, 0, -lz / 2 + t / 2, lx, ly, t, c),
    ]
    colors = [(0.7, 0.15, 0.15), (0.15, 0.3, 0.6), (0.2, 0.5, 0.25), (0.85, 0.7, 0.2)]
    for level in range(4):
        z = -lz / 2 + (level + 1) * lz / 5
        out.append(box(0, 0, z, lx, ly, t, c))
        for k in range(5):  # books on each shelf
            y = -ly * 0.35 + k * ly * 0.16
            height = lz / 5 * (0.55 + 0.08 * ((k + level) % 3))
            out.append(
                box(
                    lx * 0.05,
                    y,
                    z + t / 2 + height / 2,
                    lx * 0.7,
                    ly * 0.1,
                    height,
                    colors[(k + level) % 4],
                )
            )
    return out


@model("floor_lamp")
def _floor_lamp(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    return [
        cyl(0, 0, -h * 0.49, d * 0.8, h * 0.02, c),
        cyl(0, 0, -h * 0.1, d * 0.1, h * 0.78, c),
        cyl(0, 0, h * 0.39, d, h * 0.22, (0.95, 0.9, 0.78)),  # shade
    ]


@model("coat_rack")
def _coat_rack(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    out = [
        cyl(0, 0, -h * 0.49, d * 0.9, h * 0.02, c),
        cyl(0, 0, 0, d * 0.1, h * 0.98, c),
        box(d * 0.1, 0, h * 0.15, d * 0.45, d * 0.5, h * 0.4, (0.3, 0.35, 0.5)),  # a coat
    ]
    for k in range(4):
        angle = k * math.pi / 2
        out.append(
            box(
                d * 0.2 * math.cos(angle),
                d * 0.2 * math.sin(angle),
                h * 0.45,
                d * 0.25,
                d * 0.05,
                d * 0.05,
                c,
                quat_from_axis_angle((0, 0, 1), angle),
            )
        )
    return out


@model("standee")
def _standee(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    skin = (0.9, 0.72, 0.6)
    return [
        box(0, 0, 0, lx * 0.6, ly, lz, (0.8, 0.7, 0.55)),  # cardboard
        box(-lx * 0.35, 0, -lz * 0.28, lx * 0.1, ly * 0.45, lz * 0.42, (0.2, 0.25, 0.45)),  # legs
        box(-lx * 0.35, 0, lz * 0.15, lx * 0.1, ly * 0.7, lz * 0.42, c),  # torso
        cyl(-lx * 0.35, 0, lz * 0.43, ly * 0.3, lx * 0.1, skin, ALONG_X),  # face
    ]


@model("ladder")
def _ladder(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    rail = ly * 0.1
    out = [
        box(0, ly / 2 - rail / 2, 0, lx, rail, lz, c),
        box(0, -ly / 2 + rail / 2, 0, lx, rail, lz, c),
    ]
    rungs = int(lz / 0.3)
    for k in range(rungs):
        z = -lz / 2 + (k + 0.6) * lz / rungs
        out.append(cyl(0, 0, z, lx * 0.35, ly - 2 * rail, shade(c, 0.9), ALONG_Y))
    return out


@model("door")
def _door(s: Size, c: Rgb) -> list[Part]:
    lx, ly, lz = s
    glassy = sum(c) / 3.0 > 0.7
    face = GLASS if glassy else shade(c, 0.85)
    out = [box(0, 0, 0, lx * (0.6 if glassy else 1.0), ly, lz, face if glassy else c)]
    if glassy:  # a frame around the glass
        frame = (0.3, 0.3, 0.32)
        out += [
            box(0, ly * 0.47, 0, lx, ly * 0.06, lz, frame),
            box(0, -ly * 0.47, 0, lx, ly * 0.06, lz, frame),
            box(0, 0, lz * 0.48, lx, ly, lz * 0.04, frame),
            box(0, 0, -lz * 0.48, lx, ly, lz * 0.04, frame),
        ]
    else:  # inset panels on both faces
        for z in (lz * 0.22, -lz * 0.22):
            for side in (1, -1):
                out.append(box(side * lx * 0.5, 0, z, lx * 0.06, ly * 0.6, lz * 0.34, face))
    for side in (1, -1):  # handles near the free (+y) edge
        out.append(box(side * lx * 0.9, ly * 0.38, 0, lx * 0.6, ly * 0.12, lz * 0.02, STEEL))
    return out


@model("punching_bag")
def _punching_bag(s: Size, c: Rgb) -> list[Part]:
    d, h = s[0], s[2]
    return [
        cyl(0, 0, 0, d, h * 0.96, c),
        cyl(0, 0, h * 0.49, d * 0.8, h * 0.02, DARK),
        cyl(0, 0, h * 0.25, d * 1.01, h * 0.05, contrast(c)),
        cyl(0, 0, -h * 0.25, d * 1.01, h * 0.05, contrast(c)),
    ]
