"""A readable, terminal-sized summary of one SceneSpec (``reacthuman scenes show``)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from reacthuman.scenes.dressing import DRESSING_PREFIX
from reacthuman.scenes.labels import provisional_label
from reacthuman.scenes.spec import SceneSpec


def _v(v: Sequence[float]) -> str:
    return "(" + ", ".join(f"{c:.2f}" for c in v) + ")"


def describe(spec: SceneSpec) -> str:
    label, safety = provisional_label(spec)
    hazard = spec.hazard
    motion = spec.intended
    truth = hazard.catalogue_name + (f", imitating {hazard.imitates}" if hazard.imitates else "")
    flags = hazard.hazards.active() + ([] if hazard.graspable else ["large"])
    lines = [
        f"{spec.scene_id}  ({spec.family.value}, {spec.speed_band.value} speed, "
        f"group {spec.group}, generator {spec.generator.version})",
        f"  {spec.description}",
        "",
        f"room       {spec.room.type.value}, {spec.room.size[0]:.2f} x {spec.room.size[1]:.2f} m, "
        f"ceiling {spec.room.size[2]:.2f} m",
        f"observer   at {_v(spec.observer.pos)}, facing {math.degrees(spec.observer.yaw):.0f} deg",
        f"hazard     {hazard.looks_like} -> really {truth}",
        f"           {hazard.mass_kg:g} kg, {hazard.shape.kind.value} {_v(hazard.shape.size)} m, "
        f"friction {hazard.friction:.2f}, restitution {hazard.restitution:.2f}, "
        f"hazards: {', '.join(flags) or 'none'}",
        f"           starts at {_v(hazard.pose.pos)} moving {_v(hazard.lin_vel)} m/s",
    ]
    for obj in spec.objects:
        if obj.id != hazard.id:
            lines.append(
                f"object     {obj.id}: {obj.looks_like} ({obj.role.value}) at {_v(obj.pose.pos)}"
            )
    dressing = [p for p in spec.furniture if p.id.startswith(DRESSING_PREFIX)]
    for piece in spec.furniture:
        if piece not in dressing:
            lines.append(
                f"furniture  {piece.id}: {piece.kind.value} {_v(piece.size)} m at "
                f"{_v(piece.pose.pos)}"
            )
    room = spec.room
    lines.append(
        f"dressing   {room.floor_finish.value} floor, {room.wall_finish.value} walls; "
        f"{', '.join(p.kind.value.replace('_', ' ') for p in dressing) or 'nothing else'}"
    )
    for cam in spec.cameras:
        lines.append(
            f"camera     {cam.name.value:<11}at {_v(cam.pos)} looking at {_v(cam.lookat)}, "
            f"fov {cam.fov_deg:.0f} deg"
        )
    lines.append(
        f"timing     event at t0 = {spec.timing.t0:g} s, window {spec.timing.window:g} s, "
        f"ground truth to t0 + {spec.timing.horizon:g} s"
    )
    if motion.reaches_observer:
        lines.append(
            f"intended   reaches the robot after {motion.arrival_time:.2f} s at "
            f"{motion.arrival_speed:.1f} m/s ({motion.arrival_kinetic_energy:.1f} J)"
        )
    else:
        lines.append("intended   does not reach the robot")
    lines.append(
        f"label      {label.value}"
        + (f" (dangerous: {', '.join(safety.reasons)})" if safety.dangerous else "")
    )
    return "\n".join(lines)
