"""Exact ground truth of a billiard table: an event-driven simulation in closed form.

BilliardPhys-Bench's physics (section 2.1): balls roll on a table x in [0, 2], y in [0, 1]
(metres) under constant friction, so each decelerates at ``mu * g`` along its own straight
line until it stops after ``v0^2 / (2 mu g)`` (``mu`` = 0.002, ``g`` = 9.8); ball-ball and
ball-wall collisions are perfectly elastic (equal masses, no spin), and a ball whose centre
enters a pocket is gone. Between two events every ball's position is a quadratic in time, so
the next event is a root in closed form:

* a wall, a pocket, a stop: the moving ball's distance along its line, ``d(t) = v t - a t^2/2``,
  solves a quadratic, and ``t`` follows from ``d``;
* two balls touching: their centres' distance squared is a quartic in ``t`` (a quadratic in
  the distance along its line when one ball stands), solved by ``numpy.roots`` and polished
  by Newton's method on the quartic itself.

The simulation jumps from event to event, never steps: a position at a horizon is exact to
rounding, and so is every collision the cue ball takes part in (the benchmark's Q1 and Q2).
The paper gives neither the balls' nor the pockets' size: a pool ball (57.15 mm across) and
pockets that swallow a centre within 6 cm of the corner or of the long cushion's middle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

MU = 0.002
G = 9.8
DECELERATION = MU * G  # m/s^2
WIDTH, HEIGHT = 2.0, 1.0  # the table's playing surface, metres
RADIUS = 0.028575  # a pool ball
POCKET_RADIUS = 0.06  # a centre this close to a pocket's centre falls in
POCKETS = ((0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (0.0, 1.0), (1.0, 1.0), (2.0, 1.0))
EPS = 1e-12  # s: events closer than this to now are the one just handled


class Wall(StrEnum):
    """The cushions as the benchmark names them (y grows toward TOP)."""

    LEFT = "LEFT"
    RIGHT = "RIGHT"
    BOTTOM = "BOTTOM"
    TOP = "TOP"


@dataclass(frozen=True)
class Event:
    """Something that happened at ``t``: two balls touching (``other``), a ball on a wall,
    into a pocket (``pocket``: its index in ``POCKETS``) or coming to rest."""

    t: float
    kind: str  # "ball", "wall", "pocket", "stop"
    ball: int
    other: int | None = None
    wall: Wall | None = None
    pocket: int | None = None


@dataclass
class Ball:
    pos: np.ndarray  # (2,)
    vel: np.ndarray  # (2,)
    pocketed: bool = False

    @property
    def speed(self) -> float:
        return float(math.hypot(self.vel[0], self.vel[1]))

    def accel(self) -> np.ndarray:
        speed = self.speed
        if speed == 0.0 or self.pocketed:
            return np.zeros(2)
        return -DECELERATION * self.vel / speed

    def at(self, dt: float) -> tuple[np.ndarray, np.ndarray]:
        """Position and velocity ``dt`` seconds on (no event in between)."""
        speed = self.speed
        if speed == 0.0 or self.pocketed:
            return self.pos.copy(), self.vel.copy()
        dt = min(dt, speed / DECELERATION)
        direction = self.vel / speed
        travelled = speed * dt - 0.5 * DECELERATION * dt * dt
        left = max(speed - DECELERATION * dt, 0.0)
        return self.pos + direction * travelled, direction * left


@dataclass
class Outcome:
    """A table's future to ``horizon``: every event in order and where each ball is then
    (None: pocketed)."""

    horizon: float
    events: list[Event]
    positions: list[tuple[float, float] | None]
    velocities: list[tuple[float, float]]

    def hit_by(self, ball: int = 0) -> set[int]:
        """The balls ``ball`` touched (the benchmark's Q1 for the cue ball)."""
        touched = set()
        for e in self.events:
            if e.kind == "ball" and ball in (e.ball, e.other):
                touched.add(e.other if e.ball == ball else e.ball)
        return {b for b in touched if b is not None}

    def walls_of(self, ball: int = 0) -> set[Wall]:
        """The cushions ``ball`` touched (Q2)."""
        return {e.wall for e in self.events if e.kind == "wall" and e.ball == ball and e.wall}


def _time_at_distance(speed: float, distance: float) -> float | None:
    """When a ball starting at ``speed`` has rolled ``distance`` (None: it stops first)."""
    disc = speed * speed - 2.0 * DECELERATION * distance
    if disc < 0.0:
        return None
    return (speed - math.sqrt(disc)) / DECELERATION if distance > 0 else 0.0


def _wall_time(ball: Ball) -> tuple[float, Wall] | None:
    """The first cushion the ball's centre reaches (within a radius of it) on its line."""
    speed = ball.speed
    if speed == 0.0 or ball.pocketed:
        return None
    best: tuple[float, Wall] | None = None
    direction = ball.vel / speed
    sides = ((0, WIDTH, Wall.LEFT, Wall.RIGHT), (1, HEIGHT, Wall.BOTTOM, Wall.TOP))
    for axis, high, low_wall, high_wall in sides:
        component = direction[axis]
        if component == 0.0:
            continue
        bound, wall = (high - RADIUS, high_wall) if component > 0 else (RADIUS, low_wall)
        distance = (bound - ball.pos[axis]) / component
        if distance < 0.0:
            distance = 0.0  # already past it (rounding): the wall is now
        t = _time_at_distance(speed, distance)
        if t is not None and (best is None or t < best[0]):
            best = (t, wall)
    return best


def _pocket_time(ball: Ball) -> tuple[float, int] | None:
    """When the ball's centre first comes within ``POCKET_RADIUS`` of a pocket."""
    speed = ball.speed
    if speed == 0.0 or ball.pocketed:
        return None
    direction = ball.vel / speed
    best: tuple[float, int] | None = None
    for index, centre in enumerate(POCKETS):
        offset = ball.pos - np.asarray(centre)
        # |offset + direction d|^2 = r^2: d^2 + 2 (offset . direction) d + |offset|^2 - r^2 = 0
        half_b = float(offset @ direction)
        c = float(offset @ offset) - POCKET_RADIUS**2
        disc = half_b * half_b - c
        if disc < 0.0:
            continue
        distance = -half_b - math.sqrt(disc)
        if distance < 0.0:
            if c <= 0.0:  # already inside: falls in now
                distance = 0.0
            else:
                continue
        t = _time_at_distance(speed, distance)
        if t is not None and (best is None or t < best[0]):
            best = (t, index)
    return best


def _contact_time(a: Ball, b: Ball, limit: float) -> float | None:
    """When two balls first touch (centres ``2 RADIUS`` apart, closing), within ``limit``
    seconds, with both moving on their current quadratics."""
    dp = a.pos - b.pos
    dv = a.vel - b.vel
    da = 0.5 * (a.accel() - b.accel())
    # |dp + dv t + da t^2|^2 - (2R)^2, a quartic in t
    coefficients = [
        float(da @ da),
        float(2.0 * (dv @ da)),
        float(dv @ dv + 2.0 * (dp @ da)),
        float(2.0 * (dp @ dv)),
        float(dp @ dp) - (2.0 * RADIUS) ** 2,
    ]
    while coefficients and abs(coefficients[0]) < 1e-300:
        coefficients.pop(0)
    if len(coefficients) < 2:
        return None
    polynomial = np.poly1d(coefficients)
    slope = polynomial.deriv()
    found: float | None = None
    for root in np.roots(coefficients):
        if abs(root.imag) > 1e-7 * max(1.0, abs(root.real)):
            continue
        t = float(root.real)
        for _ in range(3):  # Newton on the quartic: numpy.roots is an eigenvalue estimate
            step = slope(t)
            if step == 0.0:
                break
            t -= float(polynomial(t) / step)
        if t < -EPS or t > limit:
            continue
        t = max(t, 0.0)
        gap = dp + dv * t + da * t * t
        closing = float(gap @ (dv + 2.0 * da * t))
        if closing >= 0.0:
            continue  # touching while separating (the contact just resolved)
        if found is None or t < found:
            found = t
    return found


def _collide(a: Ball, b: Ball) -> None:
    """Equal masses, perfectly elastic, no spin: the velocities' components along the line
    of centres are exchanged."""
    normal = b.pos - a.pos
    normal = normal / math.hypot(normal[0], normal[1])
    exchanged = float((a.vel - b.vel) @ normal)
    a.vel = a.vel - exchanged * normal
    b.vel = b.vel + exchanged * normal


def simulate(positions: np.ndarray, velocities: np.ndarray, horizon: float) -> Outcome:
    """Balls at ``positions`` (n, 2) with ``velocities`` (n, 2), rolled to ``horizon`` s."""
    positions = np.asarray(positions, dtype=np.float64)
    velocities = np.asarray(velocities, dtype=np.float64)
    if positions.shape != velocities.shape or positions.ndim != 2 or positions.shape[1] != 2:
        raise ValueError(
            f"positions {positions.shape} and velocities {velocities.shape}: expected (n, 2) each"
        )
    if not (np.isfinite(positions).all() and np.isfinite(velocities).all()):
        raise ValueError("positions and velocities must be finite numbers")
    if horizon < 0 or not math.isfinite(horizon):
        raise ValueError(f"horizon {horizon}: a time in seconds, zero or more")
    balls = [Ball(p.copy(), v.copy()) for p, v in zip(positions, velocities, strict=True)]
    _check_placement(balls)
    now = 0.0
    events: list[Event] = []
    while True:
        left = horizon - now
        candidates: list[tuple[float, Event]] = []
        for i, ball in enumerate(balls):
            if ball.pocketed or ball.speed == 0.0:
                continue
            stop = ball.speed / DECELERATION
            candidates.append((stop, Event(0.0, "stop", i)))
            wall = _wall_time(ball)
            if wall is not None:
                candidates.append((wall[0], Event(0.0, "wall", i, wall=wall[1])))
            pocket = _pocket_time(ball)
            if pocket is not None:
                candidates.append((pocket[0], Event(0.0, "pocket", i, pocket=pocket[1])))
        for i, a in enumerate(balls):
            for j in range(i + 1, len(balls)):
                b = balls[j]
                if a.pocketed or b.pocketed or (a.speed == 0.0 and b.speed == 0.0):
                    continue
                limit = min(left, max(a.speed, b.speed) / DECELERATION)
                t = _contact_time(a, b, limit)
                if t is not None:
                    candidates.append((t, Event(0.0, "ball", i, other=j)))
        due = [(t, e) for t, e in candidates if t <= left]
        if not due:
            _advance(balls, left)
            now = horizon
            break
        order = {"pocket": 0, "ball": 1, "wall": 2, "stop": 3}  # ties: what removes a ball first
        dt, event = min(due, key=lambda te: (te[0], order[te[1].kind], te[1].ball))
        _advance(balls, dt)
        now += dt
        events.append(_handle(balls, event, now))
        if len(events) > 100_000:
            raise RuntimeError("more than 100,000 events: the table never settles")
    return Outcome(
        horizon,
        events,
        [None if b.pocketed else (float(b.pos[0]), float(b.pos[1])) for b in balls],
        [(float(b.vel[0]), float(b.vel[1])) for b in balls],
    )


def _check_placement(balls: list[Ball]) -> None:
    for i, ball in enumerate(balls):
        x, y = ball.pos
        if not (RADIUS <= x <= WIDTH - RADIUS and RADIUS <= y <= HEIGHT - RADIUS):
            raise ValueError(f"ball {i} at ({x:g}, {y:g}) is not on the table")
        for j in range(i):
            gap = math.dist(ball.pos, balls[j].pos)
            if gap < 2.0 * RADIUS - 1e-9:
                raise ValueError(f"balls {j} and {i} overlap ({gap:.4f} m between centres)")


def _advance(balls: list[Ball], dt: float) -> None:
    for ball in balls:
        ball.pos, ball.vel = ball.at(dt)


def _handle(balls: list[Ball], event: Event, now: float) -> Event:
    ball = balls[event.ball]
    if event.kind == "stop":
        ball.vel = np.zeros(2)
    elif event.kind == "pocket":
        ball.pocketed = True
        ball.vel = np.zeros(2)
    elif event.kind == "wall":
        axis = 0 if event.wall in (Wall.LEFT, Wall.RIGHT) else 1
        ball.vel[axis] = -ball.vel[axis]
    else:
        assert event.other is not None
        _collide(ball, balls[event.other])
    return Event(now, event.kind, event.ball, event.other, event.wall, event.pocket)
