"""BilliardPhys tables played again in Genesis: an independent check of the exact simulation.

The benchmark's answers come from ``physics``, an event-driven simulation in closed form.
This steps the same tables in Genesis's rigid solver and compares what the cue ball touched
(Q1, Q2) and where every ball is at the horizon (Q3). The two share nothing but the table's
numbers, so an error in the event simulation's root finding, ordering or collision rules
shows up as a disagreement here.

How the paper's physics is put to Genesis:

* A ball is a sphere on three slide joints (x, y, z): it slides and never spins, as the
  paper's balls decelerate at ``mu g`` along their line and carry no spin into collisions.
* The cloth is a plane with Coulomb friction and an elliptic friction cone (the default
  pyramidal cone brakes along the axes: a ball rolling at 63 degrees to x slowed along y
  only). Genesis floors a contact's friction at 0.01 (``collider/contact.py``), so the cloth's
  friction is 0.01 under a gravity of ``mu g / 0.01`` = 1.96 m/s^2: the same deceleration as
  mu = 0.002 under 9.8 m/s^2. Gravity does nothing else here.
* The cushions are the x and y joints' limits (a centre stops one radius from the edge), so
  a bounce carries no friction.
* Ball-ball contacts and the limits are elastic. Genesis's constraints are soft, a damped
  spring in MuJoCo's parametrisation (time constant, damping ratio, impedance); a damping
  ratio of 0.0002, impedance 0.99 and a stiffness that makes a contact last
  ``CONTACT_STEPS`` steps give a restitution of 0.999 (head on and on a cushion, 0.7 to
  3.7 m/s). A longer contact bends glancing hits (the balls slide past each other while the
  spring is compressed), hence the short step.
* A pocket is a rule, as in the exact simulation: after every step a ball whose centre
  (where a hard cushion would hold it) is within ``POCKET_RADIUS`` of a pocket is taken off
  the table, lifted clear of the cloth.

What remains different is Genesis's: a contact lasts half a millisecond (a ball leaves a
cushion slightly behind where a hard one would send it) and ball-ball contacts carry the
0.01 friction floor (a cut leaves up to half a degree off). Where a table's outcome hangs on
a near miss or a chain of collisions those differences decide it, so each table is also
classed steady or sensitive (``sensitive``) and agreement is reported for each
(``reacthuman billiards cross-check``).
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from pydantic import BaseModel, ConfigDict

from reacthuman.billiards.bench import BANDS, band_of
from reacthuman.billiards.physics import (
    DECELERATION,
    HEIGHT,
    POCKET_RADIUS,
    POCKETS,
    RADIUS,
    WIDTH,
    Wall,
)
from reacthuman.billiards.scenes import BALLS, BilliardScene, BilliardTruth, shot, truth
from reacthuman.genesis_runtime import as_numpy, genesis

DT = 5e-5  # s a physics step
CONTACT_STEPS = 10  # steps a ball-ball or ball-cushion contact lasts
DAMPING_RATIO = 0.0002  # of the contact spring: restitution 0.999
IMPEDANCE = 0.99
CLOTH_FRICTION = 0.01  # Genesis's least contact friction
GRAVITY = DECELERATION / CLOTH_FRICTION  # m/s^2: friction * gravity = mu * g
CENTRE = np.array([WIDTH / 2, HEIGHT / 2])  # m the origin of the balls' joints
NUDGE = 3e-3  # m, and TURN: how far a shot is nudged to find a sensitive table
TURN = math.radians(0.5)
LIFT = 30.0  # m above the cloth a pocketed ball is put: it falls for the rest of the play
_BALL_MASS = 0.17  # kg, a pool ball's (equal masses are what matters)


class Replay(BaseModel):
    """A table as Genesis played it: what the cue ball touched and where the balls are at
    the horizon (None: pocketed)."""

    model_config = ConfigDict(frozen=True)

    hits: tuple[int, ...]
    walls: tuple[Wall, ...]
    positions: tuple[tuple[float, float] | None, ...]


class Agreement(BaseModel):
    """One table's exact answers against Genesis's."""

    model_config = ConfigDict(frozen=True)

    scene_id: str
    horizon: int
    events: int  # on the table before the horizon, exact simulation
    sensitive: bool  # a nudge the size of Genesis's own error changes the exact answers
    hits_agree: bool
    walls_agree: bool
    pocketed_agree: bool  # the same balls pocketed
    worst_distance: float | None  # m, the largest gap between a ball's two positions
    truth: BilliardTruth
    genesis: Replay

    @property
    def positions_agree(self) -> bool:
        """Every ball within one radius of where the exact simulation puts it (Q3's rule)."""
        return self.pocketed_agree and (
            self.worst_distance is None or self.worst_distance <= RADIUS
        )


def table_mjcf(balls: int = BALLS) -> str:
    """The table as MJCF: the cloth, and ``balls`` balls on slide joints whose limits are the
    cushions (a centre stops one radius from the table's edge). Joint positions are measured
    from the table's middle (``CENTRE``), where every ball's body sits."""
    friction = f'friction="{CLOTH_FRICTION} 0 0"'
    x_range = f'limited="true" range="{RADIUS - CENTRE[0]} {CENTRE[0] - RADIUS}"'
    y_range = f'limited="true" range="{RADIUS - CENTRE[1]} {CENTRE[1] - RADIUS}"'
    bodies = [
        f'<body name="ball{i}" pos="{CENTRE[0]} {CENTRE[1]} {RADIUS}">'
        f'<joint name="ball{i}_x" type="slide" axis="1 0 0" {x_range}/>'
        f'<joint name="ball{i}_y" type="slide" axis="0 1 0" {y_range}/>'
        f'<joint name="ball{i}_z" type="slide" axis="0 0 1"/>'
        f'<geom type="sphere" size="{RADIUS}" mass="{_BALL_MASS}" {friction}/></body>'
        for i in range(balls)
    ]
    return (
        '<mujoco model="billiard table"><worldbody>'
        f'<geom name="cloth" type="plane" size="10 10 0.1" {friction}/>'
        + "".join(bodies)
        + "</worldbody></mujoco>"
    )


def elastic_contact() -> np.ndarray:
    """MuJoCo-style solver parameters of an elastic contact lasting ``CONTACT_STEPS``."""
    omega = math.pi / (CONTACT_STEPS * DT)  # rad/s of the contact spring
    time_constant = 1.0 / (omega * DAMPING_RATIO)
    return np.array([time_constant, DAMPING_RATIO, IMPEDANCE, IMPEDANCE, 0.001, 0.5, 2.0])


class GenesisTable:
    """A built Genesis scene of the table with ``envs`` environments: up to ``envs`` tables
    played side by side, one per environment (building compiles Genesis's kernels once per
    process; play as many batches on it as wanted)."""

    def __init__(self, envs: int = 1) -> None:
        if envs < 1:
            raise ValueError(f"envs {envs}: at least one environment")
        gs = genesis()
        self.envs = envs
        self.scene = gs.Scene(
            sim_options=gs.options.SimOptions(dt=DT, gravity=(0.0, 0.0, -GRAVITY)),
            rigid_options=gs.options.RigidOptions(
                enable_self_collision=True,
                constraint_timeconst=2 * DT,
                friction_cone=gs.friction_cone.elliptic,
            ),
            show_viewer=False,
        )
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "billiard_table.xml"
            path.write_text(table_mjcf())
            self.entity = self.scene.add_entity(gs.morphs.MJCF(file=str(path)))
            self.scene.build(n_envs=envs)
        solver = self.scene.sim.rigid_solver
        balls = [g.idx for g in self.entity.geoms if g.type != gs.GEOM_TYPE.PLANE]
        solver.set_sol_params(np.tile(elastic_contact(), (len(balls), 1)), geoms_idx=balls)
        cushions = [j.idx for j in self.entity.joints if j.name.endswith(("_x", "_y"))]
        solver.set_sol_params(np.tile(elastic_contact(), (len(cushions), 1)), joints_idx=cushions)

    def play(
        self,
        scenes: Sequence[BilliardScene],
        progress: Callable[[int], None] | None = None,
    ) -> list[Replay]:
        """Play ``scenes`` (at most ``envs``) to their horizons, side by side."""
        if not 0 < len(scenes) <= self.envs:
            raise ValueError(f"{len(scenes)} tables for {self.envs} environments")
        if any(len(s.positions) != BALLS for s in scenes):
            raise ValueError(f"every table needs {BALLS} balls")
        n = len(scenes)
        position = np.zeros((self.envs, BALLS, 3))
        velocity = np.zeros((self.envs, BALLS, 3))
        for i in range(BALLS):  # spare environments: the balls at rest in a row
            position[:, i, :2] = (0.2 + 0.25 * i - CENTRE[0], 0.0)
        for e, scene in enumerate(scenes):
            position[e, :, :2] = np.asarray(scene.positions) - CENTRE
            velocity[e, 0, :2] = scene.cue_velocity
        self.entity.set_dofs_position(position.reshape(self.envs, -1))
        self.entity.set_dofs_velocity(velocity.reshape(self.envs, -1))
        last = np.array([round(s.horizon / DT) for s in scenes])
        on_table = np.ones((n, BALLS), dtype=bool)
        hits = np.zeros((n, BALLS), dtype=bool)
        walls = np.zeros((n, len(Wall)), dtype=bool)
        final: list[np.ndarray | None] = [None] * n
        pockets = np.asarray(POCKETS)
        played = 0  # table-steps not yet reported to ``progress``
        for step in range(1, int(last.max()) + 1):
            self.scene.step()
            dofs = as_numpy(self.entity.get_dofs_position()).reshape(self.envs, BALLS, 3)
            xy = dofs[:n, :, :2] + CENTRE
            live = step <= last
            gap = np.linalg.norm(xy - xy[:, :1], axis=2)
            hits |= live[:, None] & on_table & on_table[:, :1] & (gap < 2 * RADIUS)
            cue = xy[:, 0]
            touching = np.stack(
                [
                    cue[:, 0] < RADIUS,
                    cue[:, 0] > WIDTH - RADIUS,
                    cue[:, 1] < RADIUS,
                    cue[:, 1] > HEIGHT - RADIUS,
                ],
                axis=1,
            )
            walls |= live[:, None] & on_table[:, :1] & touching
            # a centre pressed into a (soft) cushion counts where a hard one would hold it
            held = np.clip(xy, (RADIUS, RADIUS), (WIDTH - RADIUS, HEIGHT - RADIUS))
            to_pocket = np.linalg.norm(held[:, :, None, :] - pockets, axis=3).min(axis=2)
            falling = on_table & (to_pocket < POCKET_RADIUS) & live[:, None]
            if falling.any():
                self._lift(falling)
                on_table &= ~falling
            for ended in np.flatnonzero(last == step):
                final[ended] = xy[ended].copy()
            played += int(live.sum())
            if progress is not None and (step % 500 == 0 or step == last.max()):
                progress(played)
                played = 0
        order = list(Wall)
        replays = []
        for e in range(n):
            end = final[e]
            assert end is not None
            replays.append(
                Replay(
                    hits=tuple(int(b) for b in np.flatnonzero(hits[e]) if b != 0),
                    walls=tuple(order[w] for w in np.flatnonzero(walls[e])),
                    positions=tuple(
                        (float(end[b, 0]), float(end[b, 1])) if on_table[e, b] else None
                        for b in range(BALLS)
                    ),
                )
            )
        return replays

    def _lift(self, falling: np.ndarray) -> None:
        """Take the ``falling`` balls (environment, ball) off the table: the cushions are the
        x and y joints' limits, so a pocketed ball is lifted clear of the cloth instead, at
        rest, each to its own height so that two never meet while they fall."""
        for e, b in zip(*np.nonzero(falling), strict=True):
            dofs = [3 * int(b) + 2]
            self.entity.set_dofs_position(
                np.array([[LIFT + 3 * RADIUS * int(b)]]), dofs, envs_idx=[int(e)]
            )
            self.entity.set_dofs_velocity(
                np.zeros((1, 3)), [3 * int(b), 3 * int(b) + 1, 3 * int(b) + 2], envs_idx=[int(e)]
            )


def _answers(scene: BilliardScene, start: np.ndarray, velocity: np.ndarray) -> Replay:
    """The exact answers to the scene's shot from ``start`` at ``velocity`` (unrounded)."""
    out, hits, walls = shot(start, velocity, scene.horizon)
    return Replay(hits=hits, walls=walls, positions=tuple(out.positions))


def _differ(a: Replay, b: Replay) -> bool:
    """Different answers to Q1, Q2 or Q3 (a ball more than a radius away, or pocketed in
    one only)."""
    if a.hits != b.hits or set(a.walls) != set(b.walls):
        return True
    for p, q in zip(a.positions, b.positions, strict=True):
        if (p is None) != (q is None):
            return True
        if p is not None and q is not None and math.dist(p, q) > RADIUS:
            return True
    return False


def sensitive(scene: BilliardScene) -> bool:
    """Whether the exact answers change when the shot is nudged by about as much as Genesis
    departs from exact physics: the cue ball started ``NUDGE`` metres off in x or y, or its
    heading turned by ``TURN``. Genesis's contacts last half a millisecond (a ball leaves a
    cushion up to 2-3 mm behind where a hard one would send it) and carry a 0.01 friction
    floor (a cut leaves up to half a degree off); where a near miss or a chain of collisions
    turns that into another outcome, any stepping simulator disagrees with the exact one, so
    a disagreement there says nothing about either."""
    start = np.asarray(scene.positions, dtype=float)
    velocity = np.asarray(scene.cue_velocity, dtype=float)
    exact = _answers(scene, start, velocity)
    shots = []
    for dx, dy in ((NUDGE, 0.0), (-NUDGE, 0.0), (0.0, NUDGE), (0.0, -NUDGE)):
        moved = start.copy()
        moved[0] += (dx, dy)
        shots.append((moved, velocity))
    for angle in (TURN, -TURN):
        c, s = math.cos(angle), math.sin(angle)
        turned = np.array([c * velocity[0] - s * velocity[1], s * velocity[0] + c * velocity[1]])
        shots.append((start, turned))
    for moved, turned in shots:
        try:
            if _differ(exact, _answers(scene, moved, turned)):
                return True
        except ValueError:  # nudged onto another ball or off the cloth: as good as touching
            return True
    return False


def compare(scene: BilliardScene, replay: Replay) -> Agreement:
    """The exact answers of ``scene`` against Genesis's ``replay`` of it."""
    exact = truth(scene)
    pocketed_agree = all(
        (a is None) == (b is None) for a, b in zip(exact.positions, replay.positions, strict=True)
    )
    gaps = [
        math.dist(a, b)
        for a, b in zip(exact.positions, replay.positions, strict=True)
        if a is not None and b is not None
    ]
    return Agreement(
        scene_id=scene.scene_id,
        horizon=scene.horizon,
        events=exact.events,
        sensitive=sensitive(scene),
        hits_agree=exact.hits == replay.hits,
        walls_agree=set(exact.walls) == set(replay.walls),
        pocketed_agree=pocketed_agree,
        worst_distance=max(gaps) if gaps else None,
        truth=exact,
        genesis=replay,
    )


def cross_check(
    scenes: Sequence[BilliardScene],
    envs: int = 8,
    progress: Callable[[int], None] | None = None,
    table: GenesisTable | None = None,
) -> list[Agreement]:
    """Every table of ``scenes`` played in Genesis and compared with its exact answers,
    ``envs`` tables at a time (``progress`` is told the table-steps played)."""
    table = table or GenesisTable(envs)
    agreements: list[Agreement] = []
    for start in range(0, len(scenes), table.envs):
        batch = list(scenes[start : start + table.envs])
        for scene, replay in zip(batch, table.play(batch, progress), strict=True):
            agreements.append(compare(scene, replay))
    return agreements


def _share(flags: Sequence[bool]) -> str:
    return f"{100 * sum(flags) / len(flags):.0f} % ({sum(flags)}/{len(flags)})"


def agreement_table(agreements: Sequence[Agreement]) -> str:
    """Markdown: per horizon and per band of events, how often Genesis agrees with the
    exact simulation on Q1, Q2 and Q3, and the median and largest position gap."""
    groups: list[tuple[str, list[Agreement]]] = [
        (f"{h} s", [a for a in agreements if a.horizon == h])
        for h in sorted({a.horizon for a in agreements})
    ]
    groups += [
        (band, [a for a in agreements if band_of(a.events) == band]) for _low, _high, band in BANDS
    ]
    groups.append(("steady", [a for a in agreements if not a.sensitive]))
    groups.append(("sensitive", [a for a in agreements if a.sensitive]))
    groups.append(("all", list(agreements)))
    lines = [
        "| tables | n | Q1 hits agree | Q2 walls agree | same balls pocketed | "
        "Q3 all within a radius | median gap (mm) | largest gap (mm) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, rows in groups:
        if not rows:
            continue
        gaps = [a.worst_distance for a in rows if a.worst_distance is not None]
        median = f"{1000 * float(np.median(gaps)):.1f}" if gaps else "n/a"
        largest = f"{1000 * max(gaps):.1f}" if gaps else "n/a"
        lines.append(
            f"| {name} | {len(rows)} | {_share([a.hits_agree for a in rows])} | "
            f"{_share([a.walls_agree for a in rows])} | "
            f"{_share([a.pocketed_agree for a in rows])} | "
            f"{_share([a.positions_agree for a in rows])} | "
            f"{median} | {largest} |"
        )
    return "\n".join(lines)
