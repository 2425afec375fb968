"""The image a BilliardPhys model is shown: every ball where the scene puts it, in its colour,
the cue ball's arrow along its velocity, the same bytes for the same scene."""

from __future__ import annotations

import io

from PIL import Image

from reacthuman.billiards.physics import POCKETS, RADIUS
from reacthuman.billiards.render import (
    ARROW,
    ARROW_SECONDS,
    CLOTH,
    POCKET,
    SCALE,
    ball_colour,
    table_png,
    to_pixels,
)
from reacthuman.billiards.scenes import generate


def test_the_image_shows_each_ball_in_its_colour_where_it_is_and_the_cue_balls_arrow():
    scene = generate(8, 4)
    image = Image.open(io.BytesIO(table_png(scene))).convert("RGB")
    assert image.size == (1020, 570)
    for ball, (x, y) in enumerate(scene.positions):
        px, py = to_pixels(x, y)
        beside_label = (round(px + 0.7 * RADIUS * SCALE), round(py))
        assert image.getpixel(beside_label) == ball_colour(ball), ball
    for pocket in POCKETS:
        assert image.getpixel(tuple(round(v) for v in to_pixels(*pocket))) == POCKET
    x, y = scene.positions[0]
    vx, vy = scene.cue_velocity
    middle = to_pixels(x + 0.7 * vx * ARROW_SECONDS, y + 0.7 * vy * ARROW_SECONDS)
    assert image.getpixel(tuple(round(v) for v in middle)) == ARROW
    away = to_pixels(x - 0.7 * vx * ARROW_SECONDS, y - 0.7 * vy * ARROW_SECONDS)  # behind it
    assert image.getpixel(tuple(round(v) for v in away)) == CLOTH


def test_the_same_scene_gives_the_same_png_and_another_scene_another():
    assert table_png(generate(3, 2)) == table_png(generate(3, 2))
    assert table_png(generate(3, 2)) != table_png(generate(4, 2))


def test_the_paths_image_draws_a_rolling_balls_path_and_where_it_ends():
    from reacthuman.billiards.render import paths_image
    from reacthuman.billiards.scenes import BilliardScene

    scene = BilliardScene(
        scene_id="t", seed=0, horizon=2, positions=((0.3, 0.5), (1.0, 0.9)), cue_velocity=(0.4, 0.0)
    )
    image = paths_image(scene)
    travelled = 0.4 * 2 - 0.5 * 0.0196 * 4  # no cushion, no ball on its way
    middle = to_pixels(0.3 + travelled / 2, 0.5)
    assert image.getpixel(tuple(round(v) for v in middle)) == ball_colour(0)
    end = to_pixels(0.3 + travelled, 0.5)
    ring = (round(end[0] + RADIUS * SCALE - 1), round(end[1]))
    assert image.getpixel(ring) == ball_colour(0)
    assert image.getpixel(tuple(round(v) for v in to_pixels(0.3, 0.8))) == CLOTH
