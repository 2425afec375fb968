"""A monocular heuristic: the probes answered from the egocentric frames alone, as a simple
vision pipeline would, to show what pixels without physics give.

What moves is found by background subtraction (the frames' pixelwise median is the still
room; a pixel far from it is the hazard), its centroid in each frame is cast as a ray from the
camera (the observation's intrinsics and pose), and the hazard is placed ``DEPTH`` metres in
front of the camera along it: a single camera cannot tell a near slow object from a far fast
one, so a fixed depth stands in for what a model must infer. From those positions the numeric
probes follow as the labels do (distance, speed, displacement, height, direction; time to
reach from the closing speed along the floor, never when it does not close; no chest-height
crossing, which needs a path), and each choice probe picks the option nearest the estimate.
The main light's side is the brighter half of the first egocentric frame.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from reacthuman.layout import brain_folder
from reacthuman.observation import CameraInfo, Observation, frame_pixels
from reacthuman.probes.labels import (
    NEVER,
    Direction,
    Form,
    Kind,
    LightSide,
    Probe,
    direction_of,
)
from reacthuman.scenes.geometry import cross, normalize, sub
from reacthuman.scenes.reach import REACH_RADIUS
from reacthuman.scenes.spec import CameraName

DEPTH = 3.0  # m in front of the egocentric camera where the moving pixels are placed
THRESHOLD = 40  # grey levels from the background that make a pixel foreground
MIN_PIXELS = 4  # fewer foreground pixels than this: nothing seen moving in that frame

Point = tuple[float, float, float]
Answer = float | str | None  # as probes.scoring judges it


def _pixels(folder: Path, file: str) -> np.ndarray:
    return np.asarray(frame_pixels(folder, file)).astype(np.int16)


def moving_pixels(frames: Sequence[np.ndarray]) -> list[tuple[float, float] | None]:
    """Per frame, the centroid (u, v) of the pixels that differ from the frames' median (None
    where too few do; all None under three frames, whose median is no background)."""
    if len(frames) < 3:
        return [None] * len(frames)
    stack = np.stack(frames)
    background = np.median(stack, axis=0)
    found: list[tuple[float, float] | None] = []
    for frame in stack:
        mask = (np.abs(frame - background) > THRESHOLD).any(axis=2)
        vs, us = np.nonzero(mask)
        found.append((float(us.mean()), float(vs.mean())) if len(us) >= MIN_PIXELS else None)
    return found


def place(camera: CameraInfo, u: float, v: float, depth: float = DEPTH) -> Point:
    """The world point ``depth`` metres in front of ``camera`` whose image is pixel (u, v)."""
    forward = normalize(sub(camera.lookat, camera.pos))
    right = normalize(cross(forward, camera.up))
    up = cross(right, forward)
    x, y = (u - camera.cx) / camera.fx, -(v - camera.cy) / camera.fy
    return (
        camera.pos[0] + depth * (forward[0] + x * right[0] + y * up[0]),
        camera.pos[1] + depth * (forward[1] + x * right[1] + y * up[1]),
        camera.pos[2] + depth * (forward[2] + x * right[2] + y * up[2]),
    )


def estimates(observation: Observation, folder: Path) -> dict[Kind, object]:
    """The heuristic's reading of one scene: numbers per kind, a Direction, a LightSide
    (a kind is absent where the frames do not give it)."""
    camera = next((c for c in observation.cameras if c.name == CameraName.egocentric), None)
    frames = sorted(
        (f for f in observation.frames if f.view == CameraName.egocentric), key=lambda f: f.t
    )
    if camera is None or not frames:
        raise ValueError(f"{observation.scene_id}: no egocentric camera and frames to read")
    images = [_pixels(folder, f.file) for f in frames]
    out: dict[Kind, object] = {}
    half = images[0].shape[1] // 2
    left, right = images[0][:, :half].mean(), images[0][:, half:].mean()
    out[Kind.light] = LightSide.left if left > right else LightSide.right
    seen = [
        (f.t, place(camera, *uv)) for f, uv in zip(frames, moving_pixels(images), strict=True) if uv
    ]
    if len(seen) < 2:
        return out
    robot = observation.robot.pos
    first, (ta, a), (tb, b) = seen[0][1], seen[-2], seen[-1]
    horizontal = math.hypot(b[0] - robot[0], b[1] - robot[1])
    out[Kind.distance] = horizontal
    out[Kind.speed] = math.dist(a, b) / (tb - ta)
    out[Kind.displacement] = math.dist(first, b)
    out[Kind.height] = max(b[2], 0.0)
    out[Kind.direction] = direction_of(a, b, robot)
    closing = (math.hypot(a[0] - robot[0], a[1] - robot[1]) - horizontal) / (tb - ta)
    out[Kind.time_to_reach] = (
        NEVER if closing <= 0 else max(horizontal - REACH_RADIUS, 0.0) / closing
    )
    return out


def _number(text: str) -> float | None:
    """An amount option's number ("2.5 m" -> 2.5); None for "never"."""
    try:
        return float(text.split()[0])
    except ValueError:
        return None


def answer(probe: Probe, found: dict[Kind, object]) -> Answer:
    """The heuristic's answer to ``probe`` from its ``estimates`` (None: it has none)."""
    value = found.get(probe.kind)
    if value is None:
        return None
    if probe.form is Form.numeric:
        return value if isinstance(value, float | str) else None
    choices = probe.choices()
    for letter, text in choices.items():
        if isinstance(value, Direction | LightSide) and text == value.value:
            return letter
        if value == NEVER and text == NEVER:
            return letter
    if not isinstance(value, float):
        return None
    numbers = {letter: _number(text) for letter, text in choices.items()}
    scored = {k: abs(math.log(n / value)) for k, n in numbers.items() if n and value > 0}
    return min(scored, key=lambda k: scored[k]) if scored else None


def monocular_answers(probes: Sequence[Probe], scenes: dict[str, Path]) -> list[Answer]:
    """The heuristic's answer to every probe; ``scenes`` maps scene ids to their folders in
    the observation set."""
    missing = sorted({p.scene_id for p in probes} - set(scenes))
    if missing:
        raise ValueError(
            f"{len(missing)} probed scene(s) not in the observation set: {', '.join(missing[:5])}"
        )
    cache: dict[str, dict[Kind, object]] = {}
    answers = []
    for probe in probes:
        if probe.scene_id not in cache:
            folder = brain_folder(scenes[probe.scene_id])
            cache[probe.scene_id] = estimates(Observation.load(folder / "observation.json"), folder)
        answers.append(answer(probe, cache[probe.scene_id]))
    return answers
