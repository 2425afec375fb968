"""Procedural meshes for visual parts that primitives cannot draw: a beach ball's panels, a
tennis ball's seam, a tapered cup, a knife's blade.

Each function returns a ``Mesh`` (vertices and triangles, in metres, in the part's own frame,
counter-clockwise seen from outside) that ``sim.mjcf`` writes inline into the object's MJCF
document, so nothing is read from disk and the same inputs give the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from reacthuman.scenes.geometry import Vec3, cross, normalize, sub

Face = tuple[int, int, int]


@dataclass(frozen=True)
class Mesh:
    vertices: tuple[Vec3, ...]
    faces: tuple[Face, ...]


def _grid_faces(rows: int, cols: int) -> list[Face]:
    """Two triangles per cell of a (rows + 1) x (cols + 1) vertex grid, row-major."""
    width = cols + 1
    faces: list[Face] = []
    for i in range(rows):
        for j in range(cols):
            a = i * width + j
            b, c, d = a + 1, a + width + 1, a + width
            faces += [(a, d, c), (a, c, b)]
    return faces


def sphere_patch(
    radius: float,
    polar: tuple[float, float],
    azimuth: tuple[float, float],
    rows: int = 10,
    cols: int = 8,
) -> Mesh:
    """The part of a sphere between two polar angles (0 at +z) and two azimuths (from +x)."""
    vertices = []
    for i in range(rows + 1):
        theta = polar[0] + (polar[1] - polar[0]) * i / rows
        for j in range(cols + 1):
            phi = azimuth[0] + (azimuth[1] - azimuth[0]) * j / cols
            vertices.append(
                (
                    radius * math.sin(theta) * math.cos(phi),
                    radius * math.sin(theta) * math.sin(phi),
                    radius * math.cos(theta),
                )
            )
    # Rows run from the pole down and columns eastward, so the grid's triangles face outward.
    return Mesh(tuple(vertices), tuple(_grid_faces(rows, cols)))


def cap(radius: float, direction: Vec3, angle: float, rows: int = 3, cols: int = 12) -> Mesh:
    """A spherical cap of half-angle ``angle`` around ``direction``, lifted 0.5 % off the
    sphere so it draws over it (a soccer ball's patch, a bowling ball's finger hole); its
    corners stand out by the sag of a flat facet, so no facet sinks under the sphere."""
    axis = normalize(direction)
    helper = (1.0, 0.0, 0.0) if abs(axis[0]) < 0.9 else (0.0, 1.0, 0.0)
    u = normalize(cross(axis, helper))
    v = cross(axis, u)
    r = radius * 1.005 / math.cos(angle / rows / 2.0) ** 2
    vertices: list[Vec3] = [(axis[0] * r, axis[1] * r, axis[2] * r)]
    for i in range(1, rows + 1):
        theta = angle * i / rows
        for j in range(cols):
            phi = 2.0 * math.pi * j / cols
            dx = math.sin(theta) * math.cos(phi)
            dy = math.sin(theta) * math.sin(phi)
            dz = math.cos(theta)
            vertices.append(_along(r, (axis, dz), (u, dx), (v, dy)))
    faces: list[Face] = [(0, 1 + j, 1 + (j + 1) % cols) for j in range(cols)]
    for i in range(rows - 1):
        a0, b0 = 1 + i * cols, 1 + (i + 1) * cols
        for j in range(cols):
            j1 = (j + 1) % cols
            faces += [(a0 + j, b0 + j, b0 + j1), (a0 + j, b0 + j1, a0 + j1)]
    return Mesh(tuple(vertices), tuple(faces))


def tube(points: Sequence[Vec3], radius: float, sides: int = 6, closed: bool = True) -> Mesh:
    """A thin tube through ``points`` (a seam, a line, a stitch), a loop when ``closed``."""
    n = len(points)
    vertices: list[Vec3] = []
    for i, p in enumerate(points):
        ahead = points[(i + 1) % n] if closed or i + 1 < n else p
        behind = points[i - 1] if closed or i > 0 else p
        tangent = normalize(sub(ahead, behind))
        helper = (0.0, 0.0, 1.0) if abs(tangent[2]) < 0.9 else (1.0, 0.0, 0.0)
        u = normalize(cross(tangent, helper))
        v = cross(tangent, u)
        for k in range(sides):
            a = 2.0 * math.pi * k / sides
            c, s = math.cos(a) * radius, math.sin(a) * radius
            vertices.append(
                (p[0] + u[0] * c + v[0] * s, p[1] + u[1] * c + v[1] * s, p[2] + u[2] * c + v[2] * s)
            )
    segments = n if closed else n - 1
    faces: list[Face] = []
    for i in range(segments):
        a0, b0 = i * sides, ((i + 1) % n) * sides
        for k in range(sides):
            k1 = (k + 1) % sides
            faces += [(a0 + k, b0 + k1, b0 + k), (a0 + k, a0 + k1, b0 + k1)]
    return Mesh(tuple(vertices), tuple(faces))


def tennis_seam(radius: float, count: int = 64) -> list[Vec3]:
    """The closed curve of a tennis ball's (or a baseball's) seam on a sphere of ``radius``."""
    a, b = 0.75, 0.25
    out = []
    for i in range(count):
        t = 2.0 * math.pi * i / count
        p = (
            a * math.cos(t) + b * math.cos(3 * t),
            a * math.sin(t) - b * math.sin(3 * t),
            2.0 * math.sqrt(a * b) * math.sin(2 * t),
        )
        q = normalize(p)
        out.append((q[0] * radius, q[1] * radius, q[2] * radius))
    return out


def great_circle(radius: float, normal: Vec3, count: int = 48) -> list[Vec3]:
    axis = normalize(normal)
    helper = (1.0, 0.0, 0.0) if abs(axis[0]) < 0.9 else (0.0, 1.0, 0.0)
    u = normalize(cross(axis, helper))
    v = cross(axis, u)
    angles = [2.0 * math.pi * i / count for i in range(count)]
    return [_along(radius, (u, math.cos(t)), (v, math.sin(t))) for t in angles]


def _along(length: float, *terms: tuple[Vec3, float]) -> Vec3:
    """``length`` times the sum of weighted axes: a point given in a local frame."""
    x = sum(axis[0] * w for axis, w in terms)
    y = sum(axis[1] * w for axis, w in terms)
    z = sum(axis[2] * w for axis, w in terms)
    return (length * x, length * y, length * z)


def frustum(bottom: float, top: float, height: float, sides: int = 24) -> Mesh:
    """A closed tapered cylinder (diameters ``bottom`` and ``top``), centred, axis on z."""
    vertices: list[Vec3] = [(0.0, 0.0, -height / 2), (0.0, 0.0, height / 2)]
    for z, d in ((-height / 2, bottom), (height / 2, top)):
        for k in range(sides):
            a = 2.0 * math.pi * k / sides
            vertices.append((d / 2 * math.cos(a), d / 2 * math.sin(a), z))
    faces: list[Face] = []
    for k in range(sides):
        k1 = (k + 1) % sides
        lo0, lo1, hi0, hi1 = 2 + k, 2 + k1, 2 + sides + k, 2 + sides + k1
        faces += [(0, lo1, lo0), (1, hi0, hi1), (lo0, lo1, hi1), (lo0, hi1, hi0)]
    return Mesh(tuple(vertices), tuple(faces))


def prism(outline: Sequence[tuple[float, float]], thickness: float) -> Mesh:
    """A flat outline (x, y; convex, counter-clockwise) extruded ``thickness`` along z,
    centred: a knife's blade, a scissor blade."""
    n = len(outline)
    h = thickness / 2
    vertices: list[Vec3] = [(x, y, -h) for x, y in outline] + [(x, y, h) for x, y in outline]
    faces: list[Face] = []
    for k in range(1, n - 1):  # fans over the two faces
        faces += [(0, k + 1, k), (n, n + k, n + k + 1)]
    for k in range(n):
        k1 = (k + 1) % n
        faces += [(k, k1, n + k1), (k, n + k1, n + k)]
    return Mesh(tuple(vertices), tuple(faces))
