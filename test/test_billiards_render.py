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


def test_the_rollout_video_shows_the_table_moving_to_the_horizon(tmp_path):
    """A frame per 1/25 s after the shot image; the cue ball is where the exact simulation
    puts it at each frame's time, gone from where it started, and a pocketed ball vanishes."""
    import imageio.v2 as imageio
    import numpy as np

    from reacthuman.billiards.render import VIDEO_FPS, rollout_frame, rollout_video
    from reacthuman.billiards.scenes import BilliardScene

    scene = BilliardScene(
        scene_id="t", seed=0, horizon=1, positions=((1.6, 0.6), (0.5, 0.5)), cue_velocity=(1.4, 1.4)
    )  # straight into the top-right pocket at about 0.27 s
    path = rollout_video(scene, tmp_path / "t.mp4")
    reader = imageio.get_reader(path)
    assert reader.count_frames() == 1 + VIDEO_FPS * scene.horizon
    assert reader.get_meta_data()["size"] == (1024, 576)  # grown to multiples of 8
    early = rollout_frame(scene, 0.1)
    travelled = 1.4 * 0.1 - 0.5 * 0.0196 * 0.01 / 2**0.5  # per axis, along the diagonal
    px, py = to_pixels(1.6 + travelled, 0.6 + travelled)
    assert early.getpixel((round(px + 0.7 * RADIUS * SCALE), round(py))) == ball_colour(0)
    assert early.getpixel(tuple(round(v) for v in to_pixels(1.6, 0.6))) == CLOTH
    late = np.asarray(rollout_frame(scene, 0.5))
    assert not (late == np.array(ball_colour(0), dtype=np.uint8)).all(axis=2).any()  # pocketed
    assert late[tuple(round(v) for v in reversed(to_pixels(0.5, 0.5)))].tolist() != list(CLOTH)
