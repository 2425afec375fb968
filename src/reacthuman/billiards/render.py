"""The image a model is shown: the table from above, every ball with its id, the cue ball's
velocity as an arrow, and the axes in metres (the paper's Figure 4, top).

Drawn with Pillow, not a renderer: the picture is a diagram of exact state, and the same
scene gives the same PNG bytes (tested).
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from reacthuman.billiards.physics import HEIGHT, POCKET_RADIUS, POCKETS, RADIUS, WIDTH
from reacthuman.billiards.scenes import BilliardScene

SCALE = 450  # pixels per metre
MARGIN = 60  # pixels around the cloth, for the cushions and the axes
CLOTH = (21, 110, 62)
CUSHION = (92, 52, 24)
POCKET = (12, 12, 12)
CUE = (250, 250, 245)
BALL_COLOURS = (
    (236, 190, 20),  # 1 yellow
    (30, 80, 200),  # 2 blue
    (210, 40, 40),  # 3 red
    (120, 50, 160),  # 4 purple
    (240, 120, 20),  # 5 orange
    (110, 20, 40),  # 6 maroon (a green ball would vanish on the cloth)
)
ARROW = (255, 255, 255)
ARROW_SECONDS = 0.5  # the arrow is where the cue ball would be in this long, without friction
TEXT = (235, 235, 235)


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def to_pixels(x: float, y: float) -> tuple[float, float]:
    """Table metres to image pixels (y up on the table, down in the image)."""
    return MARGIN + x * SCALE, MARGIN + (HEIGHT - y) * SCALE


def ball_colour(ball: int) -> tuple[int, int, int]:
    return CUE if ball == 0 else BALL_COLOURS[(ball - 1) % len(BALL_COLOURS)]


def _cloth() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """The empty table: cloth, cushions, pockets and the axes in metres."""
    size = (int(2 * MARGIN + WIDTH * SCALE), int(2 * MARGIN + HEIGHT * SCALE))
    image = Image.new("RGB", size, CUSHION)
    draw = ImageDraw.Draw(image)
    draw.rectangle((*to_pixels(0.0, HEIGHT), *to_pixels(WIDTH, 0.0)), fill=CLOTH)
    for px, py in (to_pixels(*p) for p in POCKETS):
        r = POCKET_RADIUS * SCALE
        draw.ellipse((px - r, py - r, px + r, py + r), fill=POCKET)
    small = _font(14)
    for tick in range(5):  # x every 0.5 m, y every 0.25 m, outside the cloth
        x = 0.5 * tick
        px, py = to_pixels(x, 0.0)
        draw.text((px, py + 32), f"{x:g}", fill=TEXT, font=small, anchor="mt")
        y = 0.25 * tick
        px, py = to_pixels(0.0, y)
        draw.text((px - 32, py), f"{y:g}", fill=TEXT, font=small, anchor="rm")
    draw.text((size[0] - 8, size[1] - 8), "x (m)", fill=TEXT, font=small, anchor="rd")
    draw.text((8, 8), "y (m)", fill=TEXT, font=small, anchor="lt")
    return image, draw


def _balls(draw: ImageDraw.ImageDraw, positions: Sequence[tuple[float, float] | None]) -> None:
    """Every ball still on the table, in its colour with its id."""
    label = _font(int(RADIUS * SCALE * 1.1))
    r = RADIUS * SCALE
    for ball, where in enumerate(positions):
        if where is None:
            continue
        px, py = to_pixels(*where)
        draw.ellipse((px - r, py - r, px + r, py + r), fill=ball_colour(ball), outline=(0, 0, 0))
        ink = (0, 0, 0) if ball in (0, 1, 5) else (255, 255, 255)
        draw.text((px, py), str(ball), fill=ink, font=label, anchor="mm")


def table_image(scene: BilliardScene) -> Image.Image:
    """The scene as the model sees it."""
    image, draw = _cloth()
    _balls(draw, scene.positions)
    vx, vy = scene.cue_velocity
    x, y = scene.positions[0]
    r = RADIUS * SCALE
    _arrow(draw, to_pixels(x, y), to_pixels(x + vx * ARROW_SECONDS, y + vy * ARROW_SECONDS), r)
    return image


def _arrow(
    draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], skip: float
) -> None:
    """A line from the ball's edge to ``end`` with a head there."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length <= skip:
        return
    ux, uy = dx / length, dy / length
    begin = (start[0] + ux * skip, start[1] + uy * skip)
    draw.line((*begin, *end), fill=ARROW, width=4)
    head = 16.0
    left = (end[0] - head * (ux - 0.5 * uy), end[1] - head * (uy + 0.5 * ux))
    right = (end[0] - head * (ux + 0.5 * uy), end[1] - head * (uy - 0.5 * ux))
    draw.polygon((end, left, right), fill=ARROW)


def table_png(scene: BilliardScene) -> bytes:
    """The image as PNG bytes (what goes to the model and into the run folder)."""
    out = io.BytesIO()
    table_image(scene).save(out, format="PNG", optimize=False)
    return out.getvalue()


def paths_image(scene: BilliardScene, samples: int = 120) -> Image.Image:
    """The table with every ball's exact path to the horizon (the paper's Figure 4, middle):
    a line per moving ball through its positions at evenly spaced times and at every event
    (so each bounce is a corner), a ring where it ends, a cross where it was pocketed."""
    import numpy as np

    from reacthuman.billiards.physics import simulate

    velocities = np.zeros((len(scene.positions), 2))
    velocities[0] = scene.cue_velocity
    start = np.asarray(scene.positions)
    final = simulate(start, velocities, float(scene.horizon))
    times = sorted(
        {scene.horizon * k / samples for k in range(samples + 1)} | {e.t for e in final.events}
    )
    tracks: list[list[tuple[float, float]]] = [[] for _ in scene.positions]
    for t in times:
        for ball, where in enumerate(simulate(start, velocities, t).positions):
            if where is not None:
                tracks[ball].append(to_pixels(*where))
    image = table_image(scene)
    draw = ImageDraw.Draw(image)
    r = RADIUS * SCALE
    for ball, track in enumerate(tracks):
        if len(set(track)) > 1:
            draw.line(track, fill=ball_colour(ball), width=3)
        where = final.positions[ball]
        if where is None:
            px, py = track[-1]
            draw.line((px - r, py - r, px + r, py + r), fill=ball_colour(ball), width=4)
            draw.line((px - r, py + r, px + r, py - r), fill=ball_colour(ball), width=4)
        elif where != scene.positions[ball]:
            px, py = to_pixels(*where)
            draw.ellipse((px - r, py - r, px + r, py + r), outline=ball_colour(ball), width=3)
    return image


VIDEO_FPS = 25


def rollout_frame(scene: BilliardScene, t: float) -> Image.Image:
    """The table at ``t`` seconds as the exact simulation has it, the time in a corner."""
    import numpy as np

    from reacthuman.billiards.physics import simulate

    velocities = np.zeros((len(scene.positions), 2))
    velocities[0] = scene.cue_velocity
    image, draw = _cloth()
    _balls(draw, simulate(np.asarray(scene.positions), velocities, t).positions)
    draw.text(
        (image.width - 8, 8), f"t = {t:.2f} s of {scene.horizon} s", fill=TEXT,
        font=_font(18), anchor="rt",
    )  # fmt: skip
    return image


def rollout_video(scene: BilliardScene, path: Path, fps: int = VIDEO_FPS) -> Path:
    """The table's roll-out from the shot to the horizon as an MP4 file (for people: the
    model is shown the first frame only, with the arrow)."""
    import imageio.v2 as imageio

    frames = round(scene.horizon * fps)
    path.parent.mkdir(parents=True, exist_ok=True)
    writer: Any = imageio.get_writer(path, fps=fps, codec="libx264", quality=7, macro_block_size=8)
    try:
        writer.append_data(_even(table_image(scene)))
        for k in range(1, frames + 1):
            writer.append_data(_even(rollout_frame(scene, k / fps)))
    finally:
        writer.close()
    return path


def _even(image: Image.Image) -> Any:
    """The frame grown with cushion colour to multiples of 8 pixels (what H.264 players
    expect), as an array."""
    import numpy as np

    width, height = -(-image.width // 8) * 8, -(-image.height // 8) * 8
    canvas = Image.new("RGB", (width, height), CUSHION)
    canvas.paste(image, (0, 0))
    return np.asarray(canvas)
