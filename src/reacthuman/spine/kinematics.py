"""The G1's kinematics in numpy and numba: link poses from joint positions, and the
damped-least-squares inverse kinematics the hand tracker solves every tick.

The spine needs the G1's kinematics, not a physics engine: on a robot's computer (the spine
node beside a physical G1) and in the node graph's process it used to import Genesis and
build a kinematic copy of the G1 only for this (about 12 s of CPU and 1 GB in every such
process, and a Genesis call per pose and per solve each tick). The model is read from the
same MJCF the simulator loads (``spine.g1.g1_document``): bodies with their position and
orientation in the parent's frame, a hinge per moving body (MJCF's ``axis``, ``range``), the
pelvis on a free joint. ``qpos`` is laid out as Genesis lays out the entity's: the pelvis's
position and orientation quaternion (w, x, y, z), then one angle per hinge in document order.

The solver is Genesis's ``inverse_kinematics_multilink`` for positions only (the one the
tracker called until 2026-12-06): at most ``iterations`` Gauss-Newton steps
``dq = J^T (J J^T + damping^2 I)^-1 e`` on the stacked error of all target points, each
step clamped to ``max_step`` per joint and the joints to their ranges, until every point is
within ``tolerance``. Link poses agree with Genesis's (float32) to 2e-7 m, and solved arms
to about 2e-4 rad where the targets are within reach (test/test_kinematics.py, against
Genesis); being float64 they are not its bits. A solve costs about 0.06 ms, Genesis's call
0.7-0.8 ms.
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

import numba
import numpy as np

from reacthuman.spine.g1 import g1_document
from reacthuman.spine.urdf import mjcf_floats

IK_ITERATIONS = 20  # Genesis's defaults for inverse_kinematics_multilink
IK_DAMPING = 0.01
IK_TOLERANCE = 5e-4  # m: a target point within this is reached
IK_MAX_STEP = 0.5  # rad per joint and step


def quat_matrix(quat: Sequence[float] | np.ndarray) -> np.ndarray:
    """The rotation matrix of a (w, x, y, z) quaternion (normalised first)."""
    w, x, y, z = np.asarray(quat, dtype=float) / np.linalg.norm(quat)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def _floats(text: str | None, default: tuple[float, ...]) -> np.ndarray:
    return np.array(mjcf_floats(text, default), dtype=float)


@dataclass(frozen=True)
class Body:
    """One body of the tree: its frame in its parent's at zero angle, and its hinge."""

    name: str
    parent: int  # index of the parent body, -1 for the pelvis
    pos: np.ndarray  # (3,) in the parent's frame
    rot: np.ndarray  # (3, 3) in the parent's frame
    joint: str | None  # the hinge's name (None: welded to its parent)
    q: int  # the hinge's index in qpos (-1: none)
    axis: np.ndarray  # (3,) unit, in the body's frame
    limits: tuple[float, float]


@dataclass(frozen=True)
class PointTargets:
    """What a solve moves and places: points fixed in bodies, and the hinges it may turn."""

    ends: np.ndarray  # (k,) body indices
    points: np.ndarray  # (k, 3) in those bodies' frames
    hinges: np.ndarray  # (m,) body indices of the hinges to turn
    moves: np.ndarray  # (k, m): whether hinge j is above end c (it moves that point)
    order: np.ndarray  # the bodies whose frames a solve needs, parents first


class G1Kinematics:
    """The G1's body tree (module docstring). Built once per process: ``g1_kinematics()``."""

    def __init__(self, document: str) -> None:
        root = ET.fromstring(document)
        pelvis = root.find(".//body[@name='pelvis']")
        if pelvis is None or pelvis.find("freejoint") is None:
            raise ValueError("the G1 document has no pelvis on a free joint")
        self.bodies: list[Body] = []
        self.n_qs = 7

        def walk(element: ET.Element, parent: int) -> None:
            joints = element.findall("joint")
            if len(joints) > 1:
                raise ValueError(f"body {element.get('name')!r} has {len(joints)} joints")
            joint = joints[0] if joints and parent >= 0 else None
            if joint is not None and joint.get("type", "hinge") != "hinge":
                raise ValueError(f"joint {joint.get('name')!r} is not a hinge")
            axis = _floats(joint.get("axis") if joint is not None else None, (0.0, 0.0, 1.0))
            limits = _floats(joint.get("range") if joint is not None else None, (-np.inf, np.inf))
            index = len(self.bodies)
            self.bodies.append(
                Body(
                    name=element.get("name", f"body{index}"),
                    parent=parent,
                    pos=_floats(element.get("pos"), (0.0, 0.0, 0.0))
                    if parent >= 0
                    else np.zeros(3),
                    rot=quat_matrix(_floats(element.get("quat"), (1.0, 0.0, 0.0, 0.0))),
                    joint=joint.get("name") if joint is not None else None,
                    q=self.n_qs if joint is not None else -1,
                    axis=axis / np.linalg.norm(axis),
                    limits=(float(limits[0]), float(limits[1])),
                )
            )
            if joint is not None:
                self.n_qs += 1
            for child in element.findall("body"):
                walk(child, index)

        walk(pelvis, -1)
        self.index = {body.name: i for i, body in enumerate(self.bodies)}
        self.qs = {b.joint: b.q for b in self.bodies if b.joint is not None}
        b = self.bodies
        self._parent = np.array([x.parent for x in b], dtype=np.int64)
        self._pos = np.array([x.pos for x in b])
        self._rot = np.array([x.rot for x in b])
        self._axis = np.array([x.axis for x in b])
        self._slot = np.array([x.q for x in b], dtype=np.int64)
        self._lo = np.array([x.limits[0] for x in b])
        self._hi = np.array([x.limits[1] for x in b])
        self._orders: dict[tuple[str, ...], np.ndarray] = {}

    def body(self, name: str) -> int:
        try:
            return self.index[name]
        except KeyError:
            raise KeyError(f"the G1 has no body {name!r}") from None

    def _tree(self) -> tuple[np.ndarray, ...]:
        return self._parent, self._pos, self._rot, self._axis, self._slot

    def order(self, names: Sequence[str]) -> np.ndarray:
        """The bodies from the pelvis down to each named one, each after its parent."""
        key = tuple(names)
        if key not in self._orders:
            self._orders[key] = self._order(key)
        return self._orders[key]

    def _order(self, names: Sequence[str]) -> np.ndarray:
        wanted: set[int] = set()
        for name in names:
            i = self.body(name)
            while i >= 0 and i not in wanted:
                wanted.add(i)
                i = self.bodies[i].parent
        return np.array(sorted(wanted), dtype=np.int64)  # document order: parents first

    def _frames(self, qpos: np.ndarray, names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        out_pos = np.zeros((len(self.bodies), 3))
        out_rot = np.zeros((len(self.bodies), 3, 3))
        qpos = np.ascontiguousarray(qpos, dtype=float)
        _tree_frames(qpos, *self._tree(), self.order(names), out_pos, out_rot)
        return out_pos, out_rot

    def frames(
        self, qpos: np.ndarray, names: Sequence[str]
    ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """World position (3,) and rotation (3, 3) of the named bodies at ``qpos``."""
        pos, rot = self._frames(qpos, names)
        return {name: (pos[i], rot[i]) for name in names for i in (self.body(name),)}

    def points(
        self, qpos: np.ndarray, targets: Sequence[tuple[str, Sequence[float]]]
    ) -> np.ndarray:
        """World positions (n, 3) of points fixed in bodies: (body name, point in its frame)."""
        pos, rot = self._frames(qpos, [name for name, _ in targets])
        return np.array(
            [
                pos[i] + rot[i] @ np.asarray(point, dtype=float)
                for name, point in targets
                for i in (self.body(name),)
            ]
        )

    def targets(
        self, ends: Sequence[str], points: Sequence[Sequence[float]], joints: Sequence[str]
    ) -> PointTargets:
        """The tables a solve needs for these points and hinges (built once by the caller)."""
        end_idx = [self.body(name) for name in ends]
        by_joint = {b.joint: i for i, b in enumerate(self.bodies) if b.joint is not None}
        missing = [j for j in joints if j not in by_joint]
        if missing:
            raise KeyError(f"the G1 has no joint {missing[0]!r}")
        hinges = [by_joint[j] for j in joints]
        above = [set(self._order([name]).tolist()) for name in ends]
        return PointTargets(
            ends=np.array(end_idx, dtype=np.int64),
            points=np.asarray(points, dtype=float).reshape(len(end_idx), 3),
            hinges=np.array(hinges, dtype=np.int64),
            moves=np.array([[h in chain for h in hinges] for chain in above]),
            order=self.order(ends),
        )

    def solve(
        self,
        qpos: np.ndarray,
        targets: PointTargets,
        goals: np.ndarray,
        iterations: int = IK_ITERATIONS,
        damping: float = IK_DAMPING,
        tolerance: float = IK_TOLERANCE,
        max_step: float = IK_MAX_STEP,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Solve ``n`` problems at once (module docstring): ``qpos`` (n, n_qs), each a posture
        with its start in the hinges to turn; ``goals`` (n, k, 3) where the points should be.
        Returns the solved qpos (n, n_qs) and each point's error, goal minus reached (n, k, 3)."""
        qpos = np.array(qpos, dtype=float, ndmin=2)
        n, k = qpos.shape[0], len(targets.ends)
        goals = np.ascontiguousarray(goals, dtype=float).reshape(n, k, 3)
        error = np.zeros((n, k, 3))
        _solve(
            qpos, *self._tree(), targets.order, self._lo, self._hi, targets.ends, targets.points,
            targets.hinges, targets.moves, goals, error, iterations, damping, tolerance, max_step,
        )  # fmt: skip
        return qpos, error


def _compiled(function: Callable[..., None]) -> Callable[..., None]:
    """``function`` compiled by numba, cached on disk beside this module (the first process
    compiles for about 8 s, later ones load in about 0.4 s)."""
    return cast(Callable[..., None], numba.njit(cache=True)(function))


@functools.cache
def g1_kinematics() -> G1Kinematics:
    """The G1's kinematics, parsed once per process (milliseconds)."""
    return G1Kinematics(g1_document())


@_compiled
def _tree_frames(qpos, parent, pos, rot, axis, slot, order, out_pos, out_rot):  # pragma: no cover
    """World positions and rotations of the bodies in ``order`` (each after its parent),
    into ``out_pos`` (B, 3) and ``out_rot`` (B, 3, 3). Written out in scalars: numba's small
    matrix products call BLAS, whose overhead is most of the cost at 3 x 3."""
    local = np.empty((3, 3))
    for b in order:
        if parent[b] < 0:
            w, x, y, z = qpos[3], qpos[4], qpos[5], qpos[6]
            norm = np.sqrt(w * w + x * x + y * y + z * z)
            w, x, y, z = w / norm, x / norm, y / norm, z / norm
            out_pos[b, 0], out_pos[b, 1], out_pos[b, 2] = qpos[0], qpos[1], qpos[2]
            out_rot[b, 0, 0] = 1 - 2 * (y * y + z * z)
            out_rot[b, 0, 1] = 2 * (x * y - w * z)
            out_rot[b, 0, 2] = 2 * (x * z + w * y)
            out_rot[b, 1, 0] = 2 * (x * y + w * z)
            out_rot[b, 1, 1] = 1 - 2 * (x * x + z * z)
            out_rot[b, 1, 2] = 2 * (y * z - w * x)
            out_rot[b, 2, 0] = 2 * (x * z - w * y)
            out_rot[b, 2, 1] = 2 * (y * z + w * x)
            out_rot[b, 2, 2] = 1 - 2 * (x * x + y * y)
            continue
        p = parent[b]
        if slot[b] >= 0:  # the hinge's turn, Rodrigues' formula, after the body's rotation
            ax, ay, az = axis[b, 0], axis[b, 1], axis[b, 2]
            s, c = np.sin(qpos[slot[b]]), np.cos(qpos[slot[b]])
            t = 1.0 - c
            turn = (
                (c + t * ax * ax, t * ax * ay - s * az, t * ax * az + s * ay),
                (t * ax * ay + s * az, c + t * ay * ay, t * ay * az - s * ax),
                (t * ax * az - s * ay, t * ay * az + s * ax, c + t * az * az),
            )
            for r in range(3):
                for col in range(3):
                    local[r, col] = (
                        rot[b, r, 0] * turn[0][col]
                        + rot[b, r, 1] * turn[1][col]
                        + rot[b, r, 2] * turn[2][col]
                    )
        else:
            local[:, :] = rot[b]
        for r in range(3):
            out_pos[b, r] = out_pos[p, r] + (
                out_rot[p, r, 0] * pos[b, 0]
                + out_rot[p, r, 1] * pos[b, 1]
                + out_rot[p, r, 2] * pos[b, 2]
            )
            for col in range(3):
                out_rot[b, r, col] = (
                    out_rot[p, r, 0] * local[0, col]
                    + out_rot[p, r, 1] * local[1, col]
                    + out_rot[p, r, 2] * local[2, col]
                )


@_compiled
def _solve(
    qpos, parent, pos, rot, axis, slot, order, lo, hi, ends, points, hinges, moves, goals,
    error, iterations, damping, tolerance, max_step,
):  # fmt: skip  # pragma: no cover - compiled
    """The solver's loop (module docstring) for each row of ``qpos``, solved in place."""
    n = qpos.shape[0]
    k = ends.shape[0]
    m = hinges.shape[0]
    frame_pos = np.zeros((parent.shape[0], 3))
    frame_rot = np.zeros((parent.shape[0], 3, 3))
    jac = np.zeros((3 * k, m))
    system = np.zeros((3 * k, 3 * k))
    reached_at = np.zeros((k, 3))
    for i in range(n):
        for it in range(iterations + 1):
            _tree_frames(qpos[i], parent, pos, rot, axis, slot, order, frame_pos, frame_rot)
            done = True
            for c in range(k):
                e = ends[c]
                for r in range(3):
                    reached_at[c, r] = frame_pos[e, r] + (
                        frame_rot[e, r, 0] * points[c, 0]
                        + frame_rot[e, r, 1] * points[c, 1]
                        + frame_rot[e, r, 2] * points[c, 2]
                    )
                    error[i, c, r] = goals[i, c, r] - reached_at[c, r]
                miss = error[i, c, 0] ** 2 + error[i, c, 1] ** 2 + error[i, c, 2] ** 2
                if np.sqrt(miss) > tolerance:
                    done = False
            if done or it == iterations:
                break
            jac[:, :] = 0.0
            for c in range(k):
                for j in range(m):
                    if moves[c, j]:
                        h = hinges[j]
                        tx, ty, tz = 0.0, 0.0, 0.0  # the hinge's axis in the world
                        for col in range(3):
                            tx += frame_rot[h, 0, col] * axis[h, col]
                            ty += frame_rot[h, 1, col] * axis[h, col]
                            tz += frame_rot[h, 2, col] * axis[h, col]
                        dx = reached_at[c, 0] - frame_pos[h, 0]
                        dy = reached_at[c, 1] - frame_pos[h, 1]
                        dz = reached_at[c, 2] - frame_pos[h, 2]
                        jac[3 * c, j] = ty * dz - tz * dy
                        jac[3 * c + 1, j] = tz * dx - tx * dz
                        jac[3 * c + 2, j] = tx * dy - ty * dx
            for r in range(3 * k):
                for col in range(3 * k):
                    acc = damping * damping if r == col else 0.0
                    for j in range(m):
                        acc += jac[r, j] * jac[col, j]
                    system[r, col] = acc
            v = np.linalg.solve(system, error[i].copy().reshape(3 * k))
            for j in range(m):
                h = hinges[j]
                step = 0.0
                for r in range(3 * k):
                    step += jac[r, j] * v[r]
                q = qpos[i, slot[h]] + min(max(step, -max_step), max_step)
                qpos[i, slot[h]] = min(max(q, lo[h]), hi[h])
