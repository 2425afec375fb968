"""MJCF documents for Genesis: objects that collide as their catalogue primitive and look
like what they are, and the static room with its furniture.

Each dynamic object is one body: its collision primitive (with the catalogue's mass,
inertia and friction; hidden in group 3) plus visual-only parts from ``visuals``. Free objects
get a free joint; doors and pendulums a hinge at their anchor. Everything static (walls,
ceiling, floor colour, furniture) is one body welded to the world; the floor's collision is a
separate slab (``floor_document``).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence

from reacthuman.scenes.geometry import (
    Quat,
    Vec3,
    add,
    quat_from_axis_angle,
    quat_mul,
    quat_rotate,
    sub,
)
from reacthuman.scenes.kinematics import principal_inertia
from reacthuman.scenes.spec import (
    VISUAL_ONLY_KINDS,
    Furniture,
    FurnitureKind,
    SceneObject,
    SceneSpec,
)
from reacthuman.sim.room_visuals import dressing_parts, floor_texture, is_dressing, wall_texture
from reacthuman.sim.visuals import Part, Rgb, Texture, parts, shade

# m, wall and ceiling thickness: slabs a 12 m/s throw cannot pass through (at 0.1 m a pair of
# scissors thrown past the robot went through the back wall and fell 39 m below the floor)
WALL = 0.5
WALL_FRICTION = 0.1  # ladder_slip designs for this (PAINTED_WALL_FRICTION)
VISUAL = {"contype": "0", "conaffinity": "0", "group": "1"}
HIDDEN_COLLISION = {"group": "3"}


def _f(x: float) -> str:
    return f"{x:.6g}"


def _v(values: Iterable[float]) -> str:
    return " ".join(_f(x) for x in values)


def _rgba(color: Sequence[float], alpha: float = 1.0) -> str:
    return _v((*color, alpha))


def _friction(sliding: float) -> str:
    """MJCF's friction triple: ``sliding``, then the torsional and rolling coefficients."""
    return f"{_f(sliding)} 0.005 0.0001"


def _document(name: str) -> tuple[ET.Element, ET.Element]:
    """A ``<mujoco>`` document holding one body called ``name``: (document, body)."""
    document = ET.Element("mujoco", model=name)
    body = ET.SubElement(ET.SubElement(document, "worldbody"), "body", name=name)
    return document, body


def _text(document: ET.Element) -> str:
    return ET.tostring(document, encoding="unicode")


def _geom(
    body: ET.Element, kind: str, pos: Vec3, size: Vec3, quat: Quat, extra: dict[str, str]
) -> ET.Element:
    """A geom in ``body`` from full extents (MJCF sizes are half extents; cylinders radius,
    half height)."""
    half: tuple[float, ...]
    if kind in ("box", "ellipsoid"):
        half = (size[0] / 2, size[1] / 2, size[2] / 2)
    elif kind == "sphere":
        half = (size[0] / 2,)
    else:
        half = (size[0] / 2, size[2] / 2)
    attributes = {"type": kind, "pos": _v(pos), "quat": _v(quat), "size": _v(half), **extra}
    return ET.SubElement(body, "geom", attributes)


class _Assets:
    """The ``<asset>`` section of a document, made on first use: inline meshes and built-in
    textures with their materials, named ``<prefix>_<n>`` in the order parts ask for them."""

    def __init__(self, document: ET.Element, prefix: str) -> None:
        self.document, self.prefix, self.count = document, prefix, 0
        self.element: ET.Element | None = None

    def add(self, tag: str, attributes: dict[str, str]) -> str:
        if self.element is None:
            self.element = ET.Element("asset")
            self.document.insert(0, self.element)
        self.count += 1
        name = f"{self.prefix}_{tag}{self.count}"
        ET.SubElement(self.element, tag, {"name": name, **attributes})
        return name


def _material(assets: _Assets, color: Rgb, t: Texture, alpha: float = 1.0) -> str:
    """A material showing built-in texture ``t`` over ``color``; its name."""
    texture = assets.add(
        "texture",
        {
            "type": "2d",
            "builtin": t.builtin,
            "rgb1": _v(color),
            "rgb2": _v(t.second),
            "mark": "edge" if t.edges else "random",
            "random": _f(t.marks),
            "markrgb": _v(t.mark),
            "width": str(t.texels),
            "height": str(t.texels),
        },
    )
    return assets.add(
        "material",
        {"texture": texture, "texrepeat": _v(t.repeat), "rgba": _rgba((1, 1, 1), alpha)},
    )


def _part(
    body: ET.Element,
    part: Part,
    assets: _Assets,
    origin: Vec3 = (0.0, 0.0, 0.0),
    frame: Quat = (1.0, 0.0, 0.0, 0.0),
    extra: dict[str, str] | None = None,
) -> ET.Element:
    """A part placed in a parent frame (``frame`` rotation, then ``origin`` offset); visual
    only unless ``extra`` says otherwise."""
    pos = add(origin, quat_rotate(frame, part.pos))
    quat = quat_mul(frame, part.quat)
    attributes = {**(VISUAL if extra is None else extra), "rgba": _rgba(part.color, part.alpha)}
    if part.texture is not None:
        attributes["material"] = _material(assets, part.color, part.texture, part.alpha)
        del attributes["rgba"]
    if part.kind == "mesh":
        if part.mesh is None:
            raise ValueError("a mesh part needs its mesh")
        mesh = assets.add(
            "mesh",
            {
                "vertex": " ".join(_v(v) for v in part.mesh.vertices),
                "face": " ".join(" ".join(str(i) for i in f) for f in part.mesh.faces),
                "inertia": "shell",  # open surfaces (a panel, a seam) have no volume
            },
        )
        geom = {"type": "mesh", "mesh": mesh, "pos": _v(pos), "quat": _v(quat), **attributes}
        return ET.SubElement(body, "geom", geom)
    return _geom(body, part.kind, pos, part.size, quat, attributes)


def inertia(obj: SceneObject) -> Vec3:
    """Principal moments of the solid primitive about its centre."""
    return principal_inertia(obj.shape, obj.mass_kg)


def object_document(obj: SceneObject, solref: tuple[float, float]) -> tuple[str, Vec3, Quat]:
    """(MJCF text, entity position, entity orientation) for one dynamic object.

    A free object's body frame is the object's own; a jointed object's body frame sits on
    the joint anchor, aligned with the world, and its geoms carry the object's pose.
    """
    looks = parts(obj.visual_model, obj.shape.size, obj.color)
    document, body = _document(obj.id)
    assets = _Assets(document, obj.id)
    if obj.joint is None:
        origin: Vec3 = (0.0, 0.0, 0.0)
        frame: Quat = (1.0, 0.0, 0.0, 0.0)
        ET.SubElement(body, "freejoint")
        entity_pos, entity_quat = obj.pose.pos, obj.pose.quat
    else:
        origin = sub(obj.pose.pos, obj.joint.anchor)
        frame = obj.pose.quat
        hinge = {
            "name": f"{obj.id}_joint",
            "type": "hinge",
            "pos": "0 0 0",
            "axis": _v(obj.joint.axis),
            "damping": _f(obj.joint.damping),
        }
        ET.SubElement(body, "joint", hinge)
        entity_pos, entity_quat = obj.joint.anchor, (1.0, 0.0, 0.0, 0.0)
    ixx, iyy, izz = inertia(obj)
    # The inertia frame is the object's own; MJCF's inertial quat rotates it into the body.
    inertial = {
        "pos": _v(origin),
        "quat": _v(frame),
        "mass": _f(obj.mass_kg),
        "diaginertia": _v((ixx, iyy, izz)),
    }
    ET.SubElement(body, "inertial", inertial)
    collision = {
        **HIDDEN_COLLISION,
        "friction": _friction(obj.friction),
        "solref": _v(solref),
        "rgba": "1 0 1 1",
    }
    _geom(body, obj.shape.kind.value, origin, obj.shape.size, frame, collision)
    for p in looks:
        _part(body, p, assets, origin, frame)
    if obj.joint is not None and obj.joint.kind == "pendulum":
        # The rope: a thin visual rod from the pivot to the object's top.
        top = add(origin, quat_rotate(frame, (0.0, 0.0, obj.shape.size[2] / 2)))
        rope = {"type": "cylinder", "fromto": f"0 0 0 {_v(top)}", "size": "0.006", **VISUAL}
        ET.SubElement(body, "geom", {**rope, "rgba": "0.25 0.22 0.2 1"})
    text = _text(document)
    return text, entity_pos, entity_quat


# --- static world -----------------------------------------------------------------------------


def _furniture_parts(piece: Furniture) -> list[Part]:
    """Solid parts of a piece in its own frame (they collide and are seen)."""
    sx, sy, sz = piece.size
    c = piece.color
    out: list[Part] = []
    dy: float  # an int for the table's legs, a float elsewhere
    if piece.kind in (FurnitureKind.table, FurnitureKind.stool):
        top = 0.04 if piece.kind is FurnitureKind.table else 0.05
        leg = 0.05 if piece.kind is FurnitureKind.table else 0.04
        out.append(Part("box", (0, 0, sz / 2 - top / 2), (sx, sy, top), c))
        for dx in (-1, 1):
            for dy in (-1, 1):
                out.append(
                    Part(
                        "box",
                        (dx * (sx / 2 - leg), dy * (sy / 2 - leg), -top / 2),
                        (leg, leg, sz - top),
                        shade(c, 0.8),
                    )
                )
    elif piece.kind is FurnitureKind.counter:
        top = 0.04
        out.append(Part("box", (0, 0, sz / 2 - top / 2), (sx, sy, top), (0.85, 0.85, 0.82)))
        out.append(Part("box", (0.02, 0, -top / 2), (sx - 0.04, sy, sz - top), c))
        for dy in (-sy / 4, sy / 4):  # cabinet doors and handles on the robot's side
            out.append(
                Part(
                    "box",
                    (-sx / 2 + 0.005, dy, -top),
                    (0.01, sy / 2 - 0.04, sz * 0.7),
                    shade(c, 0.9),
                )
            )
            out.append(
                Part("box", (-sx / 2, dy + 0.1, sz * 0.15), (0.02, 0.02, 0.12), (0.7, 0.7, 0.72))
            )
    elif piece.kind is FurnitureKind.wall_shelf:
        out.append(Part("box", (0, 0, 0), (sx, sy, sz), c))
        for dy in (-sy * 0.35, sy * 0.35):
            out.append(Part("box", (sx * 0.3, dy, -0.06), (sx * 0.4, 0.02, 0.12), (0.3, 0.3, 0.3)))
    elif piece.kind is FurnitureKind.hanging_shelf:
        # The board (its own frame tilts with it) and the one bracket still holding, under
        # its high end (+x); the wall is on the side the piece's local +y or -y faces.
        out.append(Part("box", (0, 0, 0), (sx, sy, sz), c))
        out.append(Part("box", (sx / 2 - 0.06, 0, -0.07), (0.03, sy * 0.8, 0.14), (0.3, 0.3, 0.3)))
    elif piece.kind is FurnitureKind.stairs:
        steps = piece.steps or 1
        run, rise = sx / steps, sz / steps
        for i in range(steps):  # solid blocks from the floor up to each tread
            height = (i + 1) * rise
            out.append(
                Part(
                    "box",
                    (-sx / 2 + (i + 0.5) * run, 0, -sz / 2 + height / 2),
                    (run, sy, height),
                    c if i % 2 == 0 else shade(c, 0.92),
                )
            )
    elif piece.kind is FurnitureKind.ramp:
        # A board whose top face is the incline rising along +x from 0 to sz.
        angle = math.atan2(sz, sx)
        length = math.hypot(sx, sz)
        thick = 0.03
        q = (math.cos(-angle / 2), 0.0, math.sin(-angle / 2), 0.0)
        normal = (-math.sin(angle), 0.0, math.cos(angle))
        center = (-normal[0] * thick / 2, -normal[1] * thick / 2, -normal[2] * thick / 2)
        out.append(Part("box", center, (length, sy, thick), c, q))
        out.append(Part("box", (sx / 2 - 0.02, 0, 0), (0.04, sy, sz), shade(c, 0.8)))  # prop
    elif piece.kind is FurnitureKind.person:
        out += _person_parts(sx, sy, sz, c)
    else:  # door posts, ceiling mounts, platforms: plain solids
        out.append(Part("box", (0, 0, 0), (sx, sy, sz), c))
    return out


def _person_parts(sx: float, sy: float, sz: float, shirt: Rgb) -> list[Part]:
    """A child standing in a (sx, sy, sz) box facing -x, the right arm held out forward and
    down where a toss left it: shoes, trousers, a shirt in the piece's colour, skin, hair."""
    skin, trousers, hair = (0.88, 0.7, 0.58), (0.22, 0.25, 0.35), (0.25, 0.16, 0.08)
    z0 = -sz / 2  # the floor, in the piece's frame
    leg, torso, head = 0.45 * sz, 0.33 * sz, 0.15 * sz
    w = min(sy, 0.42)
    out = []
    for side in (1, -1):
        out += [
            Part("box", (-0.02, side * w * 0.16, z0 + 0.03), (0.2, w * 0.22, 0.06), BLACK_SHOE),
            Part("box", (0.0, side * w * 0.16, z0 + leg / 2), (0.12, w * 0.22, leg), trousers),
        ]
    chest = z0 + leg + torso / 2
    out += [
        Part("box", (0.0, 0.0, chest), (0.16, w * 0.62, torso), shirt),
        Part("box", (0.0, w * 0.4, chest), (0.1, w * 0.16, torso * 0.9), shirt),  # left arm
        Part("box", (0.0, 0.0, z0 + leg + torso + 0.03), (0.08, 0.08, 0.06), skin),  # neck
        Part("sphere", (0.0, 0.0, z0 + sz - head / 2), (head, head, head), skin),
        Part(
            "ellipsoid",
            (0.015, 0.0, z0 + sz - head * 0.3),
            (head * 1.06,) * 2 + (head * 0.7,),
            hair,
        ),
        Part("sphere", (-head * 0.45, head * 0.2, z0 + sz - head * 0.5), (0.02,) * 3, BLACK_SHOE),
        Part("sphere", (-head * 0.45, -head * 0.2, z0 + sz - head * 0.5), (0.02,) * 3, BLACK_SHOE),
    ]
    # The throwing arm, from the shoulder forward and down to the box's front face.
    shoulder = (0.0, -w * 0.4, z0 + leg + torso * 0.9)
    hand = (-sx / 2 + 0.05, -w * 0.3, z0 + leg * 1.05)
    arm = [hand[i] - shoulder[i] for i in range(3)]
    length = math.sqrt(sum(a * a for a in arm))
    pitch = math.atan2(-arm[2], math.hypot(arm[0], arm[1]))  # downward from horizontal
    yaw = math.atan2(arm[1], arm[0])
    tilt = quat_mul(quat_from_axis_angle((0, 0, 1), yaw), quat_from_axis_angle((0, 1, 0), pitch))
    middle = tuple((shoulder[i] + hand[i]) / 2 for i in range(3))
    out.append(Part("box", middle, (length, 0.08, 0.08), shirt, tilt))  # type: ignore[arg-type]
    out.append(Part("sphere", hand, (0.07, 0.07, 0.07), skin))
    return out


BLACK_SHOE = (0.08, 0.08, 0.09)
FLOOR_DEPTH = 0.5  # m: the floor is a thick slab, not a half-space (see floor_document)


def floor_document(spec: SceneSpec, solref: tuple[float, float]) -> str:
    """The floor as a thick static slab, collision only (world_document draws its colour).

    Genesis's plane primitive lets a thin box that lands flat fall straight through it (a 2 cm
    panel dropped from 3 m ends up 18 m below the floor; BENCHMARKS.md); a slab stops it and
    gives the same bounces as the plane.
    """
    sx, sy, _height = spec.room.size
    size = (sx + 2 * WALL, sy + 2 * WALL, FLOOR_DEPTH)
    extra = {
        **HIDDEN_COLLISION,
        "friction": _friction(spec.room.floor_friction),
        "solref": _v(solref),
        "rgba": "0.5 0.5 0.5 1",
    }
    document, body = _document("floor")
    _geom(body, "box", (0.0, 0.0, -FLOOR_DEPTH / 2.0), size, (1.0, 0.0, 0.0, 0.0), extra)
    return _text(document)


def world_document(spec: SceneSpec, solref: tuple[float, float]) -> str:
    """Walls, ceiling, floor colour and furniture, welded to the world. The robot is the G1,
    added by the simulator (``sim.body``); no stand-in figure is drawn."""
    sx, sy, height = spec.room.size
    document, body = _document("room")
    assets = _Assets(document, "room")
    room = spec.room
    # Painted walls are slippery (a ladder's top slides down them: ladder_slip's design).
    wall = {"solref": _v(solref), "friction": _friction(WALL_FRICTION)}
    skirting = {**VISUAL, "rgba": "0.9 0.9 0.88 1"}
    level = (1, 0, 0, 0)

    def look(color: Rgb, texture: Texture | None) -> dict[str, str]:
        if texture is None:
            return {"rgba": _rgba(color)}
        return {"material": _material(assets, color, texture)}

    # The floor's look (the collision floor is floor_document's slab); just below z = 0.
    span = (sx + 2 * WALL, sy + 2 * WALL)
    floor = {
        **VISUAL,
        **look(room.floor_color, floor_texture(room.floor_finish, room.floor_color, span)),
    }
    _geom(body, "box", (0, 0, -0.0105), (*span, 0.02), level, floor)
    ceiling = {**wall, "rgba": _rgba(shade(room.wall_color, 1.05))}
    _geom(body, "box", (0, 0, height + WALL / 2), (*span, WALL), level, ceiling)
    for sign in (-1, 1):
        across = room.wall_color
        _geom(
            body,
            "box",
            (sign * (sx / 2 + WALL / 2), 0, height / 2),
            (WALL, sy + 2 * WALL, height),
            level,
            {**wall, **look(across, wall_texture(room.wall_finish, across, (sy, height)))},
        )
        along = shade(room.wall_color, 0.95)
        _geom(
            body,
            "box",
            (0, sign * (sy / 2 + WALL / 2), height / 2),
            (sx, WALL, height),
            level,
            {**wall, **look(along, wall_texture(room.wall_finish, along, (sx, height)))},
        )
        # Skirting boards make the floor's edge readable in the images.
        _geom(body, "box", (sign * (sx / 2 - 0.005), 0, 0.04), (0.01, sy, 0.08), level, skirting)
        _geom(body, "box", (0, sign * (sy / 2 - 0.005), 0.04), (sx, 0.01, 0.08), level, skirting)
    for piece in spec.furniture:
        contact = {"friction": _friction(piece.friction), "solref": _v(solref)}
        if piece.kind in VISUAL_ONLY_KINDS:  # seen, never touched
            contact = dict(VISUAL)
        shapes = dressing_parts(piece) if is_dressing(piece.kind) else _furniture_parts(piece)
        for part in shapes:
            _part(body, part, assets, piece.pose.pos, piece.pose.quat, contact)
    return _text(document)
