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

from reacthuman.scenes.geometry import Quat, Vec3, add, normalize, quat_from_axis_angle, scale
from reacthuman.sim.meshes import (
    Mesh,
    cap,
    frustum,
    great_circle,
    prism,
    sphere_patch,
    tennis_seam,
    tube,
)

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
POT: Rgb = (0.93, 0.92, 0.88)  # white glazed ceramic
CLEAR = 0.3  # opacity of clear glass and plastic
STEAM: Rgb = (0.97, 0.97, 0.97)


@dataclass(frozen=True)
class Texture:
    """A MuJoCo built-in texture over a part: ``checker`` squares of the part's colour and
    ``second``, speckled with ``marks`` of colour ``mark`` (felt, peel, cork, carpet)."""

    builtin: str  # checker | flat | gradient
    second: Rgb
    mark: Rgb
    marks: float  # share of texels speckled, 0..1
    repeat: tuple[float, float] = (1.0, 1.0)
    texels: int = 64
    edges: bool = False  # lines of colour ``mark`` along the cells' edges (tiles' grout)


@dataclass(frozen=True)
class Part:
    kind: str  # box | sphere | ellipsoid | cylinder (axis along the part's z) | mesh
    pos: Vec3
    size: Vec3  # full extents; sphere (d, d, d); cylinder (d, d, h); mesh (1, 1, 1)
    color: Rgb
    quat: Quat = IDENTITY
    mesh: Mesh | None = None  # the geometry of a mesh part, in the part's frame
    alpha: float = 1.0  # under 1: see-through (glass, clear plastic, steam)
    texture: Texture | None = None


def shade(color: Rgb, k: float) -> Rgb:
    """Darker (k < 1) or lighter (k > 1) version of a colour."""
    if k <= 1.0:
        return (color[0] * k, color[1] * k, color[2] * k)
    return tuple(c + (1.0 - c) * (k - 1.0) for c in color)  # type: ignore[return-value]


def contrast(color: Rgb) -> Rgb:
    return DARK if sum(color) / 3.0 > 0.5 else (0.9, 0.9, 0.9)


def box(
    x, y, z, sx, sy, sz, color, quat=IDENTITY, alpha: float = 1.0, texture: Texture | None = None
) -> Part:
    return Part("box", (x, y, z), (sx, sy, sz), color, quat, alpha=alpha, texture=texture)


def cyl(x, y, z, d, h, color, quat=IDENTITY, alpha: float = 1.0) -> Part:
    return Part("cylinder", (x, y, z), (d, d, h), color, quat, alpha=alpha)


def ball(x, y, z, d, color, alpha: float = 1.0, texture: Texture | None = None) -> Part:
    return Part("sphere", (x, y, z), (d, d, d), color, alpha=alpha, texture=texture)


def shaped(
    mesh: Mesh, color: Rgb, pos: Vec3 = (0.0, 0.0, 0.0), quat: Quat = IDENTITY, alpha: float = 1.0
) -> Part:
    return Part("mesh", pos, (1.0, 1.0, 1.0), color, quat, mesh=mesh, alpha=alpha)


def see_through(part: Part, alpha: float) -> Part:
    return Part(
        part.kind, part.pos, part.size, part.color, part.quat, part.mesh, alpha, part.texture
    )


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


def _circle(radius: float, z: float, centre: tuple[float, float] = (0.0, 0.0), n: int = 24):
    return [
        (centre[0] + radius * math.cos(t), centre[1] + radius * math.sin(t), z)
        for t in (2.0 * math.pi * i / n for i in range(n))
    ]


def _steam(width: float, base: float, rise: float, at: tuple[float, float] = (0.0, 0.0)):
    """Wisps of steam over something hot: faint white puffs rising from ``base``."""
    return [
        ball(at[0] + dx * width, at[1] + dy * width, base + dz * rise, k * width, STEAM, alpha=0.35)
        for dx, dy, dz, k in (
            (0.0, 0.0, 0.35, 0.45),
            (0.15, 0.1, 0.75, 0.38),
            (-0.1, -0.05, 1.1, 0.3),
        )
    ]


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
    """A cylindrical mug of coffee with a loop handle on its -y side."""
    d, h = s[0], s[2]
    body = d * 0.72
    y0 = d / 2 - body / 2
    grip_y = y0 - body / 2 - d * 0.11
    mid = (y0 - body / 2 + grip_y) / 2
    return [
        cyl(0, y0, 0, body, h, c),
        cyl(0, y0, h * 0.47, body * 0.84, h * 0.08, (0.25, 0.15, 0.08)),  # coffee
        box(0, grip_y, 0, d * 0.09, d * 0.07, h * 0.62, c),
        box(0, mid, h * 0.28, d * 0.09, d * 0.2, h * 0.08, c),
        box(0, mid, -h * 0.28, d * 0.09, d * 0.2, h * 0.08, c),
    ]


@model("wine_glass")
def _wine_glass(s: Size, c: Rgb) -> list[Part]:
    """Clear glass (see-through) on a stem, red wine in the bowl."""
    d, h = s[0], s[2]
    return [
        cyl(0, 0, -h * 0.48, d * 0.75, h * 0.04, c, alpha=CLEAR),  # foot
        cyl(0, 0, -h * 0.22, d * 0.1, h * 0.5, c, alpha=CLEAR),  # stem
        shaped(frustum(d * 0.55, d, h * 0.44), c, (0, 0, h * 0.28), alpha=CLEAR),  # bowl
        shaped(frustum(d * 0.5, d * 0.82, h * 0.18), (0.55, 0.05, 0.12), (0, 0, h * 0.15)),  # wine
    ]


@model("beer_bottle")
def _beer_bottle(s: Size, c: Rgb) -> list[Part]:
    """Brown glass with a cream label, a long neck and a gold crown cap."""
    d, h = s[0], s[2]
    return [
        cyl(0, 0, -h * 0.2, d, h * 0.6, c, alpha=0.9),
        cyl(0, 0, -h * 0.18, d * 1.01, h * 0.28, (0.93, 0.88, 0.72)),  # label
        cyl(0, 0, -h * 0.12, d * 1.02, h * 0.05, (0.7, 0.1, 0.1)),  # the label's red band
        shaped(frustum(d, d * 0.4, h * 0.14), c, (0, 0, h * 0.17), alpha=0.9),  # shoulder
        cyl(0, 0, h * 0.35, d * 0.4, h * 0.22, c, alpha=0.9),  # neck
        cyl(0, 0, h * 0.475, d * 0.46, h * 0.05, (0.85, 0.7, 0.2)),  # crown cap
    ]


@model("water_bottle")
def _water_bottle(s: Size, c: Rgb) -> list[Part]:
    """Clear ribbed plastic showing the water inside, a blue label band and a blue cap."""
    d, h = s[0], s[2]
    blue = (0.1, 0.35, 0.8)
    out = [
        cyl(0, 0, -h * 0.1, d, h * 0.8, c, alpha=CLEAR),
        cyl(0, 0, -h * 0.14, d * 0.94, h * 0.7, (0.6, 0.8, 0.95), alpha=0.45),  # water
        cyl(0, 0, h * 0.0, d * 1.01, h * 0.12, blue),  # label
        shaped(frustum(d, d * 0.45, h * 0.12), c, (0, 0, h * 0.36), alpha=CLEAR),
        cyl(0, 0, h * 0.46, d * 0.45, h * 0.08, blue),  # cap
    ]
    for z in (-0.38, -0.3, -0.22, 0.16, 0.24):  # ribs
        out.append(cyl(0, 0, h * z, d * 1.02, h * 0.015, (0.85, 0.92, 0.98), alpha=0.6))
    return out


@model("party_cup")
def _party_cup(s: Size, c: Rgb) -> list[Part]:
    """A tapered red plastic cup, white inside, ridged, with a rolled rim."""
    d, h = s[0], s[2]
    out = [
        shaped(frustum(d * 0.68, d * 0.97, h), c),
        cyl(0, 0, h * 0.5, d * 0.9, h * 0.012, (0.96, 0.96, 0.96)),  # the white inside
        shaped(tube(_circle(d * 0.49, h * 0.5), d * 0.02), shade(c, 1.15)),  # rim
    ]
    for z, k in ((-0.15, 0.8), (0.12, 0.89), (0.3, 0.94)):  # ridges
        out.append(shaped(tube(_circle(d * k / 2, h * z), d * 0.01), shade(c, 0.7)))
    return out


@model("coffee_cup")
def _coffee_cup(s: Size, c: Rgb) -> list[Part]:
    """A tapered white paper cup, a brown sleeve, a black lid, and steam above it."""
    d, h = s[0], s[2]
    return [
        shaped(frustum(d * 0.7, d * 0.9, h * 0.88), c, (0, 0, -h * 0.06)),
        shaped(frustum(d * 0.8, d * 0.88, h * 0.34), (0.55, 0.38, 0.22), (0, 0, -h * 0.02)),
        cyl(0, 0, h * 0.43, d, h * 0.1, (0.12, 0.12, 0.12)),  # lid
        cyl(d * 0.25, 0, h * 0.49, d * 0.12, h * 0.02, (0.02, 0.02, 0.02)),  # sip hole
        *_steam(d * 0.7, h * 0.5, d),
    ]


@model("knife")
def _knife(s: Size, c: Rgb) -> list[Part]:
    """A bright steel blade tapering to a point along its edge, a steel bolster, and a black
    handle with three rivets; lying flat, blade toward +x."""
    lx, ly, lz = s
    outline = [
        (-0.15 * lx, -0.5 * ly),
        (0.2 * lx, -0.5 * ly),
        (0.42 * lx, -0.15 * ly),
        (0.5 * lx, 0.35 * ly),
        (-0.15 * lx, 0.5 * ly),
    ]
    out = [
        shaped(prism(outline, lz * 0.2), STEEL),
        box(-0.155 * lx, 0, 0, lx * 0.03, ly * 0.75, lz * 0.55, shade(STEEL, 0.85)),  # bolster
        box(-0.33 * lx, 0, 0, lx * 0.34, ly * 0.5, lz, BLACK),  # handle
    ]
    for x in (-0.24, -0.33, -0.42):
        out.append(cyl(x * lx, 0, 0, ly * 0.14, lz * 1.04, shade(STEEL, 1.1)))  # rivets
    return out


@model("scissors")
def _scissors(s: Size, c: Rgb) -> list[Part]:
    """Two crossed steel blades on a pivot screw and two black finger loops."""
    lx, ly, lz = s
    out = []
    for side in (1, -1):
        outline = [(0.0, -0.1 * ly), (0.5 * lx, 0.0), (0.0, 0.1 * ly)]
        turn = quat_from_axis_angle((0, 0, 1), side * 0.1)
        out.append(shaped(prism(outline, lz * 0.25), c, (0, 0, side * lz * 0.15), turn))
        out.append(box(-0.1 * lx, side * ly * 0.1, 0, lx * 0.2, ly * 0.1, lz * 0.5, BLACK))
        loop = _circle(ly * 0.19, 0.0, (-0.32 * lx, side * ly * 0.26))
        out.append(shaped(tube(loop, ly * 0.055), BLACK))
    out.append(cyl(0, 0, 0, ly * 0.12, lz, shade(STEEL, 0.6)))  # pivot screw
    return out


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
        *_steam(d * 0.5, h * 0.5, d * 0.6),
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
        *_steam(d * 0.35, h * 0.2, d * 0.5, (d * 0.45, 0.0)),  # from the spout
    ]


@model("apple")
def _apple(s: Size, c: Rgb) -> list[Part]:
    """A glossy red apple flecked with yellow, a dimple at the top, a stem and a leaf."""
    d = s[0]
    skin = Texture("checker", shade(c, 0.85), (0.85, 0.65, 0.2), 0.08, (3.0, 3.0))
    return [
        Part("sphere", (0, 0, -d * 0.02), (d, d, d * 0.92), c, texture=skin),
        ball(0, 0, d * 0.4, d * 0.22, shade(c, 0.5)),  # dimple
        cyl(0, 0, d * 0.5, d * 0.06, d * 0.22, (0.35, 0.22, 0.1)),  # stem
        box(d * 0.1, 0, d * 0.56, d * 0.24, d * 0.12, d * 0.02, GREEN),  # leaf
    ]


@model("orange")
def _orange(s: Size, c: Rgb) -> list[Part]:
    """A dimpled orange peel and a small green-brown navel; no stem."""
    d = s[0]
    peel = Texture("checker", shade(c, 0.88), shade(c, 1.2), 0.25, (6.0, 6.0))
    return [
        ball(0, 0, 0, d, c, texture=peel),
        shaped(cap(d / 2, (0, 0, 1), 0.18, 1, 8), (0.4, 0.45, 0.15)),
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
    """A cardboard moving box: a taped top and a black 'this way up' label on its sides."""
    lx, ly, lz = s
    return [
        box(0, 0, 0, lx, ly, lz, c),
        box(-lx * 0.0, -ly * 0.5, lz * 0.1, lx * 0.7, ly * 0.02, lz * 0.4, contrast(c)),  # label
        box(0, 0, lz * 0.5, lx * 0.15, ly * 1.0, lz * 0.01, shade(c, 1.3)),  # tape
    ]


@model("cereal_box")
def _cereal_box(s: Size, c: Rgb) -> list[Part]:
    """A tall printed cereal box: a red title band with white lettering and a bowl of flakes
    with milk and a spoon on its front and back."""
    lx, ly, lz = s
    out = [box(0, 0, 0, lx, ly, lz, c)]
    for side in (1, -1):
        y = side * ly * 0.5

        def face(x: float, z: float, w: float, t: float, color: Rgb, y: float = y) -> Part:
            return box(x, y, z, w, ly * 0.02, t, color)

        out.append(face(0, lz * 0.3, lx * 0.92, lz * 0.2, (0.8, 0.1, 0.1)))
        for k in range(5):  # the title's letters
            out.append(face(lx * (-0.32 + 0.16 * k), lz * 0.3, lx * 0.1, lz * 0.12, WHITE))
        out.append(face(0, -lz * 0.18, lx * 0.7, lz * 0.12, (0.15, 0.3, 0.7)))  # the bowl
        out.append(face(0, -lz * 0.1, lx * 0.62, lz * 0.05, (0.96, 0.96, 0.92)))  # milk
        for k in range(4):  # flakes
            out.append(
                face(lx * (-0.2 + 0.13 * k), -lz * 0.05, lx * 0.1, lz * 0.05, (0.9, 0.6, 0.2))
            )
        spoon = box(lx * 0.25, y, -lz * 0.0, lx * 0.05, ly * 0.02, lz * 0.2, STEEL)
        out.append(spoon)
    return out


@model("soda_can")
def _soda_can(s: Size, c: Rgb) -> list[Part]:
    """A red aluminium can: a white wave around it, tapered silver ends and a ring pull."""
    d, h = s[0], s[2]
    wave = [
        (d * 0.5 * math.cos(t), d * 0.5 * math.sin(t), h * 0.08 * math.sin(2 * t))
        for t in (2.0 * math.pi * i / 32 for i in range(32))
    ]
    return [
        cyl(0, 0, 0, d, h * 0.8, c),
        shaped(tube(wave, h * 0.03), WHITE),
        shaped(frustum(d, d * 0.82, h * 0.08), STEEL, (0, 0, h * 0.44)),
        shaped(frustum(d * 0.82, d, h * 0.08), STEEL, (0, 0, -h * 0.44)),
        box(d * 0.12, 0, h * 0.49, d * 0.3, d * 0.15, h * 0.02, shade(STEEL, 0.8)),  # ring pull
    ]


@model("soup_can")
def _soup_can(s: Size, c: Rgb) -> list[Part]:
    """A tin of soup: a paper label red above and white below with a gold medallion, ribbed
    steel showing above and below it."""
    d, h = s[0], s[2]
    out = [
        cyl(0, 0, 0, d * 0.97, h, STEEL),
        cyl(0, 0, h * 0.2, d, h * 0.36, c),  # label, red half
        cyl(0, 0, -h * 0.16, d, h * 0.36, WHITE),  # label, white half
    ]
    for side in (1, -1):
        out.append(
            Part(
                "cylinder",
                (side * d * 0.5, 0, -h * 0.14),
                (d * 0.3, d * 0.3, d * 0.02),
                (0.85, 0.7, 0.2),
                ALONG_X,
            )
        )
    for z in (-0.46, -0.41, 0.41, 0.46):  # ribs
        out.append(cyl(0, 0, h * z, d * 1.0, h * 0.02, shade(STEEL, 0.8)))
    return out


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
    """A plump square cushion: stuffed round in the middle, thin at its four corners, piped
    round the edge, with a band of pattern across it."""
    lx, ly, lz = s
    return [
        Part("ellipsoid", (0, 0, 0), (lx * 1.02, ly * 1.02, lz), c),
        box(0, 0, 0, lx * 0.92, ly * 0.92, lz * 0.35, c),
        box(0, 0, 0, lx * 0.93, ly * 0.93, lz * 0.04, shade(c, 0.65)),  # piping
        Part("ellipsoid", (0, 0, lz * 0.02), (lx * 0.9, ly * 0.3, lz * 1.0), (0.75, 0.55, 0.3)),
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
    """A clear glass vase (see-through) with a thicker base, water inside, and green stems with
    three flowers above its rim."""
    d, h = s[0], s[2]
    return [
        cyl(0, 0, -h * 0.44, d, h * 0.12, shade(GLASS, 0.85), alpha=0.6),  # thick base
        cyl(0, 0, -h * 0.05, d * 0.96, h * 0.7, shade(GLASS, 1.1), alpha=CLEAR),
        cyl(0, 0, -h * 0.12, d * 0.8, h * 0.5, (0.55, 0.75, 0.85), alpha=0.45),  # water
        cyl(0, 0, h * 0.33, d * 1.04, h * 0.04, shade(GLASS, 0.8), alpha=0.7),  # rim
        cyl(0, 0, h * 0.2, d * 0.12, h * 0.6, GREEN),  # stems
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
        leaves.append(ball(x * d, y * d, z, d * (0.62 if i == 0 else 0.45), c))
    return [
        shaped(frustum(d * 0.55, d * 0.76, pot_h * 0.9), POT, (0, 0, -h / 2 + pot_h * 0.45)),
        cyl(0, 0, -h / 2 + pot_h * 0.95, d * 0.82, pot_h * 0.12, POT),
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
    """A wooden toy block: natural wood edges, each face a different bright colour with a
    raised letter in the middle."""
    lx, ly, lz = s
    faces = [c, (0.15, 0.4, 0.85), (0.95, 0.8, 0.1), (0.2, 0.65, 0.25), c, (0.15, 0.4, 0.85)]
    out = [box(0, 0, 0, lx, ly, lz, (0.85, 0.7, 0.45))]
    inset = 0.8
    placements = [
        ((lx * 0.5, 0, 0), (0.02, inset, inset)),
        ((-lx * 0.5, 0, 0), (0.02, inset, inset)),
        ((0, ly * 0.5, 0), (inset, 0.02, inset)),
        ((0, -ly * 0.5, 0), (inset, 0.02, inset)),
        ((0, 0, lz * 0.5), (inset, inset, 0.02)),
        ((0, 0, -lz * 0.5), (inset, inset, 0.02)),
    ]
    for (pos, (kx, ky, kz)), color in zip(placements, faces, strict=True):
        out.append(box(*pos, lx * kx, ly * ky, lz * kz, color))
        letter = tuple(0.3 if k == inset else 0.03 for k in (kx, ky, kz))
        out.append(box(*pos, lx * letter[0], ly * letter[1], lz * letter[2], WHITE))
    return out


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
    """A small square fabric pouch, plump in the middle, with a stitched seam round its edge."""
    lx, ly, lz = s
    seam = shade(c, 0.6)
    out = [
        box(0, 0, 0, lx * 0.86, ly * 0.86, lz, c),
        box(0, 0, -lz * 0.1, lx, ly * 0.8, lz * 0.5, c),
        box(0, 0, -lz * 0.1, lx * 0.8, ly, lz * 0.5, c),
        box(0, 0, lz * 0.5, lx * 0.5, ly * 0.5, lz * 0.02, shade(c, 1.2)),  # a label patch
    ]
    for x, y, sx, sy in (
        (lx * 0.5, 0, 0.02, 0.8),
        (-lx * 0.5, 0, 0.02, 0.8),
        (0, ly * 0.5, 0.8, 0.02),
        (0, -ly * 0.5, 0.8, 0.02),
    ):
        out.append(box(x, y, -lz * 0.1, lx * sx, ly * sy, lz * 0.1, seam))
    return out


@model("suitcase")
def _suitcase(s: Size, c: Rgb) -> list[Part]:
    """An upright hard-shell suitcase: ribbed shell, a zip round its middle, a telescopic
    handle raised above it, a carry handle on top, and four spinner wheels."""
    lx, ly, lz = s
    out = [
        box(0, 0, lz * 0.02, lx * 0.92, ly, lz * 0.86, c),
        box(0, 0, lz * 0.02, lx * 0.05, ly * 1.01, lz * 0.87, shade(c, 1.6)),  # the zip's seam
        box(0, 0, lz * 0.44, lx * 0.2, ly * 0.3, lz * 0.03, DARK),  # carry handle
        box(-lx * 0.1, 0, lz * 0.485, lx * 0.12, ly * 0.42, lz * 0.03, (0.55, 0.55, 0.58)),  # bar
    ]
    for side in (1, -1):
        out.append(
            box(
                -lx * 0.1,
                side * ly * 0.19,
                lz * 0.46,
                lx * 0.06,
                ly * 0.04,
                lz * 0.06,
                (0.55, 0.55, 0.58),
            )
        )
        for x in (lx * 0.35, -lx * 0.35):
            out.append(cyl(x, side * ly * 0.4, -lz * 0.46, lz * 0.07, lx * 0.08, DARK, ALONG_Y))
    for k in (-0.3, -0.1, 0.1, 0.3):  # ribs on both faces
        for side in (1, -1):
            out.append(
                box(
                    side * lx * 0.465,
                    ly * k,
                    lz * 0.02,
                    lx * 0.03,
                    ly * 0.06,
                    lz * 0.8,
                    shade(c, 1.25),
                )
            )
    return out


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
        box(0, 0, -lz * 0.1, lx * 0.95, ly * 0.92, lz * 0.02, shade(c, 0.7)),  # the floor inside
        *_slots(lx, ly, lz),
        # clothes heaped inside, showing over the rim
        Part(
            "ellipsoid",
            (-lx * 0.15, -ly * 0.1, lz * 0.3),
            (lx * 0.5, ly * 0.6, lz * 0.5),
            (0.3, 0.45, 0.75),
        ),
        Part(
            "ellipsoid",
            (lx * 0.2, ly * 0.12, lz * 0.32),
            (lx * 0.45, ly * 0.5, lz * 0.45),
            (0.85, 0.3, 0.3),
        ),
        Part(
            "ellipsoid",
            (lx * 0.05, -ly * 0.2, lz * 0.38),
            (lx * 0.35, ly * 0.35, lz * 0.35),
            (0.95, 0.9, 0.7),
        ),
    ]


def _slots(lx: float, ly: float, lz: float) -> list[Part]:
    """A laundry basket's lattice of narrow vertical slits and its two hand-holds, on all four
    sides."""
    dark = (0.3, 0.3, 0.32)
    out = []
    for z in (-0.2, 0.12):
        for k in range(-6, 7):
            for side in (1, -1):
                out.append(
                    box(
                        lx * 0.07 * k, side * ly * 0.505, lz * z, lx * 0.025, 0.004, lz * 0.25, dark
                    )
                )
        for k in range(-4, 5):
            for side in (1, -1):
                out.append(
                    box(
                        side * lx * 0.505, ly * 0.09 * k, lz * z, 0.004, ly * 0.035, lz * 0.25, dark
                    )
                )
    for side in (1, -1):  # hand-holds near the rim
        out.append(box(side * lx * 0.505, 0, lz * 0.38, 0.004, ly * 0.35, lz * 0.08, dark))
    return out


def _ball_parts(d: float, c: Rgb, texture: Texture | None = None) -> list[Part]:
    return [ball(0, 0, 0, d, c, texture=texture)]


@model("tennis_ball")
def _tennis_ball(s: Size, c: Rgb) -> list[Part]:
    """Yellow-green felt with the white curved seam."""
    d = s[0]
    felt = Texture("checker", shade(c, 0.92), shade(c, 1.3), 0.3, (4.0, 4.0))
    return [*_ball_parts(d, c, felt), shaped(tube(tennis_seam(d * 0.5), d * 0.03), WHITE)]


@model("baseball")
def _baseball(s: Size, c: Rgb) -> list[Part]:
    """White leather with the curved seam stitched in red."""
    d = s[0]
    out = _ball_parts(d, c)
    for k in (0.97, 1.03):  # the two rows of stitches either side of the seam
        seam = [scale(normalize((x * k, y * k, z)), d * 0.502) for x, y, z in tennis_seam(d / 2)]
        out.append(shaped(tube(seam, d * 0.018), (0.8, 0.08, 0.08)))
    return out


@model("basketball")
def _basketball(s: Size, c: Rgb) -> list[Part]:
    """Pebbled orange with the black lines of its eight panels."""
    d = s[0]
    grain = Texture("checker", shade(c, 0.96), shade(c, 0.85), 0.1, (8.0, 8.0))
    out = _ball_parts(d, c, grain)
    for normal in ((0, 0, 1), (1, 0, 0)):
        out.append(shaped(tube(great_circle(d * 0.502, normal), d * 0.012), BLACK))
    for sign in (1, -1):  # the two curved lines, circles round the y axis
        ring = [
            (
                d * 0.502 * math.sin(0.85) * math.cos(t),
                sign * d * 0.502 * math.cos(0.85),
                d * 0.502 * math.sin(0.85) * math.sin(t),
            )
            for t in (2.0 * math.pi * i / 40 for i in range(40))
        ]
        out.append(shaped(tube(ring, d * 0.012), BLACK))
    return out


@model("soccer_ball")
def _soccer_ball(s: Size, c: Rgb) -> list[Part]:
    """White with twelve black pentagons (at an icosahedron's corners)."""
    d = s[0]
    g = (1.0 + math.sqrt(5.0)) / 2.0
    corners = (
        [(0, a, b * g) for a in (1, -1) for b in (1, -1)]
        + [(a, b * g, 0) for a in (1, -1) for b in (1, -1)]
        + [(a * g, 0, b) for a in (1, -1) for b in (1, -1)]
    )
    return _ball_parts(d, c) + [shaped(cap(d / 2, p, 0.3, 1, 5), BLACK) for p in corners]


@model("beach_ball")
def _beach_ball(s: Size, c: Rgb) -> list[Part]:
    """Six coloured vinyl panels from pole to pole and white caps."""
    d = s[0]
    colors = [c, (1.0, 0.85, 0.1), (0.1, 0.35, 0.85), WHITE, (0.15, 0.65, 0.25), (1.0, 0.55, 0.1)]
    out = _ball_parts(d, WHITE)
    for k, color in enumerate(colors):
        lune = sphere_patch(
            d * 0.503, (0.2 * math.pi, 0.8 * math.pi), (k * math.pi / 3, (k + 1) * math.pi / 3)
        )
        out.append(shaped(lune, color))
    return out


@model("bouncy_ball")
def _bouncy_ball(s: Size, c: Rgb) -> list[Part]:
    """A small glossy rubber ball with two swirls of a lighter shade."""
    d = s[0]
    out = _ball_parts(d, c)
    for normal in ((1, 0.3, 0.2), (-0.2, 1, 0.5)):
        out.append(shaped(tube(great_circle(d * 0.5, normal), d * 0.07), shade(c, 1.6)))
    return out


@model("billiard_ball")
def _billiard_ball(s: Size, c: Rgb) -> list[Part]:
    """A glossy black ball with a white spot bearing an 8 on either side."""
    d = s[0]
    out = _ball_parts(d, c)
    turns = [2.0 * math.pi * i / 16 for i in range(16)]
    for side in (1, -1):
        out.append(shaped(cap(d / 2, (side, 0, 0.2), 0.42, 2, 16), WHITE))
        for dz in (0.07, -0.07):  # the 8: two small black rings on the spot
            centre = normalize((side, 0, 0.2 + dz * 2.2))
            mid = scale(centre, d * 0.508)
            ring = [
                add(mid, (0.0, d * 0.045 * math.cos(t), d * 0.045 * math.sin(t))) for t in turns
            ]
            out.append(shaped(tube(ring, d * 0.012, 4), BLACK))
    return out


@model("bowling_ball")
def _bowling_ball(s: Size, c: Rgb) -> list[Part]:
    """A large glossy marbled ball with three finger holes."""
    d = s[0]
    marble = Texture("checker", shade(c, 0.85), shade(c, 1.6), 0.12, (3.0, 3.0))
    out = _ball_parts(d, c, marble)
    for direction, angle in (
        ((-0.35, -0.22, 1.0), 0.11),
        ((-0.35, 0.22, 1.0), 0.11),
        ((-0.8, 0.0, 0.75), 0.14),
    ):
        out.append(shaped(cap(d / 2, direction, angle, 2, 12), BLACK))
    return out


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
    """A low trainer seen from the side: a thick sole with a grey midsole line, the upper
    rising from the rounded toe to the padded heel collar, grey laces over the instep, a blue
    side stripe, and the dark opening for the foot."""
    lx, ly, lz = s
    side_on = quat_from_axis_angle((1, 0, 0), math.pi / 2)  # the outline in x-z, across y

    def outline(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x * lx, z * lz) for x, z in points]

    toe = outline([(0.0, -0.5), (0.5, -0.5), (0.5, -0.2), (0.42, -0.02), (0.05, 0.2)])
    heel = outline([(-0.5, -0.5), (0.06, -0.5), (0.06, 0.2), (-0.3, 0.5), (-0.5, 0.48)])
    stripe = outline([(-0.35, -0.25), (0.25, -0.25), (0.25, -0.15), (-0.35, 0.1)])
    out = [
        box(0, 0, -lz * 0.4, lx, ly, lz * 0.2, WHITE),  # sole
        box(0, 0, -lz * 0.33, lx * 1.005, ly * 1.005, lz * 0.04, (0.55, 0.55, 0.55)),
        shaped(prism(toe, ly * 0.9), c, quat=side_on),
        shaped(prism(heel, ly * 0.92), c, quat=side_on),
        box(
            -lx * 0.33, 0, lz * 0.42, lx * 0.2, ly * 0.55, lz * 0.08, (0.12, 0.12, 0.12)
        ),  # opening
    ]
    for side in (1, -1):
        out.append(
            shaped(prism(stripe, ly * 0.02), (0.15, 0.35, 0.8), (0, side * ly * 0.46, 0), side_on)
        )
    for k in range(4):  # laces
        x, z = 0.22 - 0.08 * k, 0.1 + 0.05 * k
        out.append(box(lx * x, 0, lz * z, lx * 0.025, ly * 0.45, lz * 0.05, (0.6, 0.6, 0.62)))
    return out


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
    """Silvered glass in a wooden frame, with the pale streaks of reflected light a mirror
    shows."""
    lx, ly, lz = s
    out = _framed(s, WOOD, c, 0.08)
    tilt = quat_from_axis_angle((1, 0, 0), 0.6)
    for dy, w in ((-0.12, 0.1), (0.05, 0.05)):
        out.append(box(-lx * 0.32, ly * dy, 0, lx * 0.02, ly * w, lz * 0.55, shade(c, 1.6), tilt))
    return out


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
    """A mineral-fibre ceiling tile: white, flecked with small grey fissures underneath, a
    bevelled edge."""
    lx, ly, lz = s
    fissures = Texture("flat", c, (0.6, 0.6, 0.58), 0.06, (3.0, 3.0), 128)
    return [
        box(0, 0, 0, lx, ly, lz, c, texture=fissures),
        box(0, 0, -lz * 0.5, lx * 0.94, ly * 0.94, lz * 0.05, c, texture=fissures),
        box(0, 0, -lz * 0.45, lx, ly, lz * 0.05, shade(c, 0.85)),  # the bevel's shadow
    ]


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
    """A life-size cardboard cut-out of a person, cut to the figure's outline: shoes, jeans,
    a red shirt with arms at its sides, hands, a face with eyes and dark hair."""
    lx, ly, lz = s
    skin, shirt, jeans, hair = (
        (0.9, 0.72, 0.6),
        (0.75, 0.15, 0.15),
        (0.2, 0.28, 0.5),
        (0.2, 0.13, 0.08),
    )
    t = lx * 0.6
    out = []
    for side in (1, -1):
        out += [
            box(0, side * ly * 0.1, -lz * 0.485, t, ly * 0.2, lz * 0.03, BLACK),  # shoes
            box(0, side * ly * 0.09, -lz * 0.25, t, ly * 0.16, lz * 0.45, jeans),  # legs
            box(0, side * ly * 0.3, lz * 0.12, t, ly * 0.12, lz * 0.3, shirt),  # arms
            box(0, side * ly * 0.3, -lz * 0.08, t, ly * 0.1, lz * 0.1, skin),  # hands
            box(
                -t * 0.52, side * ly * 0.06, lz * 0.405, lx * 0.04, ly * 0.04, lz * 0.012, BLACK
            ),  # eyes
        ]
    out += [
        box(0, 0, lz * 0.12, t, ly * 0.46, lz * 0.3, shirt),  # torso
        box(0, 0, lz * 0.3, t, ly * 0.1, lz * 0.06, skin),  # neck
        box(0, 0, lz * 0.4, t, ly * 0.3, lz * 0.14, skin),  # head
        box(0, 0, lz * 0.48, t, ly * 0.32, lz * 0.04, hair),
        box(t * 0.05, 0, 0, lx * 0.1, ly * 0.3, lz * 0.9, c),  # the cardboard stand behind
    ]
    return out


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
    """A panelled wooden door with handles near its free (+y) edge."""
    lx, ly, lz = s
    face = shade(c, 0.85)
    out = [box(0, 0, 0, lx, ly, lz, c)]
    for z in (lz * 0.22, -lz * 0.22):  # inset panels on both faces
        for side in (1, -1):
            out.append(box(side * lx * 0.5, 0, z, lx * 0.06, ly * 0.6, lz * 0.34, face))
    return out + _handles(lx, ly, lz)


@model("glass_door")
def _glass_door(s: Size, c: Rgb) -> list[Part]:
    """A see-through glass pane in a dark aluminium frame."""
    lx, ly, lz = s
    frame = (0.3, 0.3, 0.32)
    return [
        box(0, 0, 0, lx * 0.6, ly, lz, c, alpha=CLEAR),
        box(0, ly * 0.47, 0, lx, ly * 0.06, lz, frame),
        box(0, -ly * 0.47, 0, lx, ly * 0.06, lz, frame),
        box(0, 0, lz * 0.48, lx, ly, lz * 0.04, frame),
        box(0, 0, -lz * 0.48, lx, ly, lz * 0.04, frame),
        *_handles(lx, ly, lz),
    ]


def _handles(lx: float, ly: float, lz: float) -> list[Part]:
    return [
        box(side * lx * 0.9, ly * 0.38, 0, lx * 0.6, ly * 0.12, lz * 0.02, STEEL)
        for side in (1, -1)
    ]


@model("punching_bag")
def _punching_bag(s: Size, c: Rgb) -> list[Part]:
    """A heavy leather bag: a domed top on four chains to a swivel, stitched seams, a red
    logo band."""
    d, h = s[0], s[2]
    out = [
        cyl(0, 0, -h * 0.02, d, h * 0.92, c),
        Part("ellipsoid", (0, 0, h * 0.44), (d, d, h * 0.12), c),  # domed top
        Part("ellipsoid", (0, 0, -h * 0.48), (d, d, h * 0.08), c),  # rounded bottom
        cyl(0, 0, h * 0.1, d * 1.01, h * 0.14, (0.75, 0.1, 0.1)),  # logo band
        cyl(0, 0, h * 0.1, d * 1.02, h * 0.04, WHITE),
    ]
    for k in range(4):  # chains from the top's rim to the swivel above
        a = k * math.pi / 2 + math.pi / 4
        rim = (d * 0.38 * math.cos(a), d * 0.38 * math.sin(a), h * 0.47)
        out.append(shaped(tube([rim, (0.0, 0.0, h * 0.62)], d * 0.015, 4, closed=False), STEEL))
    for k in range(6):  # vertical seams
        a = k * math.pi / 3
        out.append(
            box(
                d * 0.5 * math.cos(a),
                d * 0.5 * math.sin(a),
                -h * 0.02,
                d * 0.02,
                d * 0.02,
                h * 0.88,
                shade(c, 2.5),
            )
        )
    return out
