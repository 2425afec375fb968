"""Closed-form and point-mass kinematics for the motion a family sampler intends.

Samplers design each event from initial conditions alone (paper 3.4: physics is never
scripted mid-scene). To label a scene before simulating it, and to give the simulation issue
something to validate against, each sampler predicts the hazard point's path with the models
here: a point mass bouncing and sliding on horizontal rectangles, a rigid body toppling about
a floor edge, a ladder sliding down a wall, a hinged door and a pendulum. They are deliberately
simple; the simulator measures the real motion.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from reacthuman.scenes.geometry import Quat, Vec3, dot, rotate_into, vec3
from reacthuman.scenes.spec import Shape, ShapeKind

G = 9.81
DT = 1.0 / 240.0  # the simulator's step, so predicted and measured paths share a clock
REST_SPEED = 0.02  # m/s: slower than this on a support counts as at rest
# Genesis floors every contact's friction at this (solvers/rigid/collider/contact.py): a pair
# of slicker surfaces still slides at it.
SIM_MIN_FRICTION = 0.01
# The rigid solver reproduces restitution up to about this much (stiffer springs gain energy
# at dt = 1/240); predictions use the same cap so they agree with the simulation.
SIM_MAX_RESTITUTION = 0.4
TUMBLE_GAIN = 0.35  # share of a tread landing's vertical speed that tumbling turns forward


def principal_inertia(shape: Shape, mass_kg: float) -> Vec3:
    """Principal moments of a solid primitive about its centre, in its own frame."""
    m = mass_kg
    x, y, z = shape.size
    if shape.kind is ShapeKind.box:
        return (m * (y * y + z * z) / 12, m * (x * x + z * z) / 12, m * (x * x + y * y) / 12)
    if shape.kind is ShapeKind.sphere:
        moment = 0.1 * m * x * x  # 2/5 m r^2 with r = d / 2
        return (moment, moment, moment)
    r = x / 2
    across = m * (3 * r * r + z * z) / 12
    return (across, across, 0.5 * m * r * r)


def kinetic_energy(
    shape: Shape,
    mass_kg: float,
    com_vel: Sequence[float],
    ang_vel: Sequence[float],
    orientation: Quat,
) -> float:
    """A rigid body's kinetic energy: 1/2 m v^2 of its centre plus 1/2 w.I.w of its spin
    (``ang_vel`` in the world frame; ``orientation`` turns the body frame into the world's)."""
    body = rotate_into(orientation, ang_vel)
    moments = principal_inertia(shape, mass_kg)
    spin = 0.5 * sum(i * c * c for i, c in zip(moments, body, strict=True))
    return 0.5 * mass_kg * dot(com_vel, com_vel) + spin


@dataclass
class Sample:
    t: float
    pos: Vec3
    vel: Vec3
    energy: float | None = None  # J, the whole object's (None: 1/2 m v^2 of the point)


@dataclass
class MotionPath:
    """Samples of the hazard point at DT, plus the first floor contact if there is one."""

    samples: list[Sample] = field(default_factory=list)
    floor_time: float | None = None
    first_contact: float | None = None  # the first landing on any support, s

    @property
    def end(self) -> Sample:
        return self.samples[-1]

    def append(
        self, t: float, pos: Sequence[float], vel: Sequence[float], energy: float | None = None
    ) -> None:
        self.samples.append(Sample(t, vec3(pos), vec3(vel), energy))

    def hold_until(self, horizon: float) -> None:
        """Stay where the last sample is until the horizon."""
        last = self.end
        steps = int(round((horizon - last.t) / DT))
        for i in range(1, steps + 1):
            self.append(last.t + i * DT, last.pos, (0.0, 0.0, 0.0), 0.0)

    def tuples(self) -> list[tuple[float, Vec3, Vec3, float | None]]:
        """(t, position, velocity, energy) per sample, as ``reach`` reads motion."""
        return [(s.t, s.pos, s.vel, s.energy) for s in self.samples]

    def moved_along_x(self, dx: float) -> MotionPath:
        """The same motion, ``dx`` further along x (a motion that does not depend on where it
        happens, placed once it is known)."""
        return MotionPath(
            [
                Sample(s.t, (s.pos[0] + dx, s.pos[1], s.pos[2]), s.vel, s.energy)
                for s in self.samples
            ],
            self.floor_time,
            self.first_contact,
        )

    def at(self, t: float) -> Sample:
        index = min(max(int(round(t / DT)), 0), len(self.samples) - 1)
        return self.samples[index]


@dataclass(frozen=True)
class Support:
    """A horizontal rectangle an object can land on and slide along (table top, step, floor)."""

    height: float
    x_range: tuple[float, float] = (-math.inf, math.inf)
    y_range: tuple[float, float] = (-math.inf, math.inf)
    friction: float = 0.5
    is_floor: bool = False
    tumble: bool = False  # a stair tread: landing on it tips the object on down the stairs

    def holds(self, x: float, y: float) -> bool:
        return self.x_range[0] <= x <= self.x_range[1] and self.y_range[0] <= y <= self.y_range[1]


def floor(friction: float) -> Support:
    return Support(0.0, friction=friction, is_floor=True)


def point_mass_path(
    start_t: float,
    pos: Sequence[float],
    vel: Sequence[float],
    *,
    half_height: float,
    supports: Sequence[Support],
    restitution: float,
    friction: float,
    floor_friction: float,
    rolling: bool,
    horizon: float,
    path: MotionPath | None = None,
) -> MotionPath:
    """Fly, bounce, slide or roll a point mass over horizontal supports until the horizon.

    A landing faster than 0.5 m/s bounces with ``restitution``; slower ones stick and slide
    with Coulomb deceleration, the larger of the object's and the support's friction as
    MuJoCo-style solvers combine them, never below ``SIM_MIN_FRICTION`` (rolling balls keep
    their speed: Genesis has no rolling resistance). Leaving a support's rectangle starts a
    new fall.
    """
    path = path if path is not None else MotionPath()
    if not path.samples:
        path.append(start_t, pos, vel)
    x, y, z = pos
    # A centre that starts lower than it could rest on the floor (an object leaving the foot
    # of a ramp, tilted) is on the floor, not in it.
    z = max(z, half_height)
    vx, vy, vz = vel
    t = start_t
    on: Support | None = None
    all_supports = [*supports, floor(floor_friction)]
    while t < horizon - 1e-9:
        t += DT
        if on is not None and on.holds(x, y):
            speed = math.hypot(vx, vy)
            decel = (
                0.0 if rolling or on.tumble else max(friction, on.friction, SIM_MIN_FRICTION) * G
            )
            if speed <= max(decel * DT, REST_SPEED):
                vx = vy = 0.0
            elif decel > 0.0:
                k = (speed - decel * DT) / speed
                vx, vy = vx * k, vy * k
            x, y, vz = x + vx * DT, y + vy * DT, 0.0
            z = on.height + half_height
        else:
            on = None
            vz -= G * DT
            x, y, z_new = x + vx * DT, y + vy * DT, z + vz * DT
            for support in all_supports:
                level = support.height + half_height
                if z >= level - 1e-9 and z_new <= level and support.holds(x, y):
                    z_new = level
                    if support.is_floor and path.floor_time is None:
                        path.floor_time = t
                    if path.first_contact is None:
                        path.first_contact = t
                    if support.tumble:
                        # Tumbling turns part of the landing into forward speed (-x: downstairs).
                        vx -= TUMBLE_GAIN * abs(vz)
                    bounce = min(restitution, SIM_MAX_RESTITUTION)
                    if -vz > 0.5 and bounce > 0.05:
                        vz = -bounce * vz
                    else:
                        vz, on = 0.0, support
                    break
            z = z_new
        path.append(t, (x, y, z), (vx, vy, vz))
    return path


def integrate_angle(
    accel: Callable[[float, float], float],
    theta0: float,
    omega0: float,
    *,
    stop: Callable[[float, float], bool],
    horizon: float,
) -> list[tuple[float, float, float]]:
    """(t, theta, omega) at DT for theta'' = accel(theta, omega), until ``stop`` or the horizon."""
    out = [(0.0, theta0, omega0)]
    theta, omega, t = theta0, omega0, 0.0
    while t < horizon - 1e-9:
        # Semi-implicit Euler at the simulator's step: stable for pendulums and topples.
        omega += accel(theta, omega) * DT
        theta += omega * DT
        t += DT
        out.append((t, theta, omega))
        if stop(theta, omega):
            break
    return out


def topple_angles(
    height: float,
    depth: float,
    tilt: float,
    horizon: float,
    stop: float = math.pi / 2,
    omega0: float = 0.0,
) -> list[tuple]:
    """A uniform box (or rod, depth ~ 0) toppling about a floor edge from ``tilt`` rad, turning
    at ``omega0`` rad/s to begin with.

    The angle is measured from upright toward the observer; the box lands flat at pi/2 (or
    the caller stops it at ``stop``).
    """
    beta = math.atan2(depth, height)  # the centre of mass is past the edge once tilt > beta
    r_cm = 0.5 * math.hypot(height, depth)
    inertia_per_mass = (height**2 + depth**2) / 3.0

    def accel(theta: float, _omega: float) -> float:
        return G * r_cm * math.sin(theta - beta) / inertia_per_mass

    return integrate_angle(accel, tilt, omega0, stop=lambda th, _w: th >= stop, horizon=horizon)


def ladder_angles(
    length: float, mu_floor: float, mu_wall: float, lean: float, horizon: float
) -> list[tuple[float, float, float]]:
    """A ladder sliding down a wall: (t, lean from vertical, lean rate) until it lies flat.

    Newton-Euler for a uniform rod with Coulomb friction at both ends (the feet pushed toward
    the wall, the top held up), solved for the angular acceleration and the two normal forces
    at every step. Just past the no-slip lean, tan(lean) = 2 mu_f / (1 - mu_f mu_w), friction
    almost holds it: it creeps, then gathers speed.
    """
    half = length / 2.0
    inertia = length * length / 12.0  # per unit mass

    def accel(theta: float, omega: float) -> float:
        s, c = math.sin(theta), math.cos(theta)
        # Unknowns (theta'', N_f, N_w) per unit mass, rows: x, z, torque about the centre.
        a = [
            [-half * c, -mu_floor, 1.0],
            [-half * s, -1.0, -mu_wall],
            [inertia, -half * (s - mu_floor * c), half * (mu_wall * s + c)],
        ]
        b = [-half * s * omega * omega, half * c * omega * omega - G, 0.0]
        return max(_solve3(a, b)[0], 0.0) if theta < math.pi / 2 else 0.0

    return integrate_angle(
        accel, lean, 0.0, stop=lambda theta, _w: theta >= math.pi / 2, horizon=horizon
    )


def _solve3(a: list[list[float]], b: list[float]) -> list[float]:
    """Cramer's rule for a 3x3 system."""

    def det(m: list[list[float]]) -> float:
        return (
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        )

    d = det(a)
    out = []
    for col in range(3):
        m = [row[:] for row in a]
        for r in range(3):
            m[r][col] = b[r]
        out.append(det(m) / d)
    return out
