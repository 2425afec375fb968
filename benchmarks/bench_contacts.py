"""Contact facts the scene designs rely on, measured in Genesis (BENCHMARKS.md).

1. The floor: a thin box dropped flat onto Genesis's plane primitive falls through it; onto a
   0.5 m static slab (the simulator's floor, ``sim.mjcf.floor_document``) it stays, and a
   ball bounces the same on both.
2. Inclines: a box sliding down a board 0.5-2 degrees past its friction angle follows the
   closed-form constant acceleration g (sin a - mu cos a) that shelf_slide and sliding_object
   design with.

    .venv/bin/python benchmarks/bench_contacts.py
"""

from __future__ import annotations

import math
import os
import tempfile

import numpy as np

from reacthuman.genesis_runtime import as_numpy, genesis
from reacthuman.sim.contacts import CONTACT_TIMECONST, STATIC_DAMPRATIO
from reacthuman.sim.settings import DT

PANEL = (0.6, 0.6, 0.02)  # m, a ceiling panel
COARSE = {"sdf_min_res": 16, "sdf_max_res": 16}


def _mjcf(text: str) -> str:
    handle, path = tempfile.mkstemp(suffix=".xml")
    os.write(handle, text.encode())
    os.close(handle)
    return path


def _body(geom: str, mass: float, inertia: tuple[float, float, float]) -> str:
    diag = " ".join(f"{i:.6g}" for i in inertia)
    return (
        '<mujoco><worldbody><body name="o"><freejoint/>'
        f'<inertial pos="0 0 0" mass="{mass}" diaginertia="{diag}"/>{geom}'
        "</body></worldbody></mujoco>"
    )


def drop(floor: str, shape: str, height: float, damping: float, mass: float) -> tuple[float, float]:
    """(lowest centre height minus the resting one, restitution of the first bounce)."""
    gs = genesis()
    scene = gs.Scene(sim_options=gs.options.SimOptions(dt=DT), show_viewer=False)
    solref = f'solref="{CONTACT_TIMECONST} {STATIC_DAMPRATIO}"'
    if floor == "plane":
        plane = scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.6))
    else:
        slab = f'<geom type="box" size="5 5 0.25" pos="0 0 -0.25" {solref}/>'
        scene.add_entity(
            gs.morphs.MJCF(
                file=_mjcf(
                    f'<mujoco><worldbody><body name="floor">{slab}</body></worldbody></mujoco>'
                )
            ),
            material=gs.materials.Rigid(**COARSE),
        )
    own = f'solref="{CONTACT_TIMECONST} {damping}"'
    if shape == "panel":
        half = PANEL[2] / 2
        sx, sy, sz = PANEL
        geom = f'<geom type="box" size="{sx / 2} {sy / 2} {sz / 2}" {own}/>'
        inertia = (
            mass * (sy**2 + sz**2) / 12,
            mass * (sx**2 + sz**2) / 12,
            mass * (sx**2 + sy**2) / 12,
        )
    else:
        half = 0.05
        geom = f'<geom type="sphere" size="{half}" {own}/>'
        inertia = (0.4 * mass * half**2,) * 3
    body = scene.add_entity(
        gs.morphs.MJCF(file=_mjcf(_body(geom, mass, inertia)), pos=(0.0, 0.0, height)),
        material=gs.materials.Rigid(**COARSE),
    )
    scene.build()
    if floor == "plane":
        for g in plane.geoms:
            params = as_numpy(g.get_sol_params()).copy()
            params[0], params[1] = CONTACT_TIMECONST, STATIC_DAMPRATIO
            g.set_sol_params(params)
    heights = []
    for _ in range(int(2.5 / DT)):
        scene.step()
        heights.append(float(as_numpy(body.get_pos())[2]))
    z = np.array(heights) - half
    impact = int(np.argmin(z[: int((math.sqrt(2 * height / 9.81) + 0.1) / DT)]))
    bounce = max(float(z[impact : impact + int(0.8 / DT)].max()), 0.0)
    return float(z.min()), math.sqrt(bounce / (height - half))


def incline(past_deg: float, mu: float = 0.5, speed: float = 0.0) -> tuple[float, float]:
    """(distance slid in 1 s, closed-form distance) for a box on a board past its angle."""
    gs = genesis()
    angle = math.atan(mu) + math.radians(past_deg)
    scene = gs.Scene(sim_options=gs.options.SimOptions(dt=DT), show_viewer=False)
    q = (math.cos(-angle / 2), 0.0, math.sin(-angle / 2), 0.0)
    quat = " ".join(f"{c:.6g}" for c in q)
    board = (
        '<mujoco><worldbody><body name="b"><geom type="box" size="1.5 0.3 0.015" '
        f'quat="{quat}" pos="0 0 1.5" friction="0.35 0.005 0.0001" solref="0.02 0.05"/>'
        "</body></worldbody></mujoco>"
    )
    scene.add_entity(gs.morphs.MJCF(file=_mjcf(board)), material=gs.materials.Rigid(**COARSE))
    size = (0.2, 0.15, 0.08)
    geom = (
        f'<geom type="box" size="{size[0] / 2} {size[1] / 2} {size[2] / 2}" '
        f'friction="{mu} 0.005 0.0001" solref="0.02 1.2"/>'
    )
    up = np.array([math.cos(angle), 0.0, math.sin(angle)])
    normal = np.array([-math.sin(angle), 0.0, math.cos(angle)])
    start = np.array([0.0, 0.0, 1.5]) + 0.8 * up + (0.015 + size[2] / 2 + 0.002) * normal
    body = scene.add_entity(
        gs.morphs.MJCF(file=_mjcf(_body(geom, 1.0, (0.01, 0.01, 0.01))), pos=tuple(start), quat=q),
        material=gs.materials.Rigid(**COARSE),
    )
    scene.build()
    body.set_dofs_velocity(np.array([*(-speed * up), 0.0, 0.0, 0.0]))
    for _ in range(int(1.0 / DT)):
        scene.step()
    slid = float(np.dot(start - as_numpy(body.get_pos()), up))
    accel = 9.81 * (math.sin(angle) - mu * math.cos(angle))
    return slid, speed + 0.5 * accel


def main() -> None:
    print("1. A 6 kg, 2 cm panel dropped flat, and a ball's first bounce (restitution)")
    header = f"   {'floor':<8}{'panel from 3 m':>16}{'from 6 m':>10}   "
    print(header + "ball e at 0.3 m / 2 m, object damping ratio 1.2, 0.8, 0.5")
    for floor in ("plane", "slab"):
        low3, _ = drop(floor, "panel", 3.0, 1.95, 6.0)
        low6, _ = drop(floor, "panel", 6.0, 1.95, 6.0)
        balls = [
            "/".join(f"{drop(floor, 'ball', h, d, 0.5)[1]:.2f}" for h in (0.3, 2.0))
            for d in (1.2, 0.8, 0.5)
        ]
        print(f"   {floor:<8}{low3:>14.2f} m{low6:>8.2f} m   " + ", ".join(balls))
    print("2. A box on a board past its friction angle (mu 0.5): distance slid in 1 s")
    for past in (0.5, 1.0, 2.0):
        for speed in (0.0, 0.2):
            slid, closed = incline(past, speed=speed)
            print(
                f"   {past:.1f} deg past, {speed:.1f} m/s at the start: {slid:.3f} m "
                f"(closed form {closed:.3f} m)"
            )


if __name__ == "__main__":
    main()
