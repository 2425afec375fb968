"""The heuristic brain on synthetic head-camera frames: how the motion looks decides, or the
legend's words under the legend ablation."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from reacthuman.brain.baselines import catch_plan, dodge_plan, no_action_plan
from reacthuman.brain.heuristic import (
    FAST_RATE,
    LARGE_SHARE,
    frames_only_plan,
    heuristic_from,
    heuristic_plan,
    motion_between,
)
from reacthuman.observation import Frame, LegendEntry, Observation, RobotPose
from reacthuman.scenes.spec import CameraName

WIDTH, HEIGHT = 640, 360
WINDOW = 0.6  # s between the first and the last frame


def room() -> np.ndarray:
    """A textured, static background (a wall and a floor), BGR."""
    image = np.full((HEIGHT, WIDTH, 3), (170, 180, 190), np.uint8)
    image[240:] = (90, 110, 130)
    image[::40, :] = (150, 160, 170)
    return image


def with_box(center: tuple[int, int], size: tuple[int, int]) -> np.ndarray:
    image = room()
    (x, y), (w, h) = center, size
    cv2.rectangle(image, (x - w // 2, y - h // 2), (x + w // 2, y + h // 2), (30, 40, 200), -1)
    return image


def test_nothing_moving_is_no_action():
    assert frames_only_plan(room(), room(), WINDOW) == no_action_plan()
    noisy = room().astype(np.int16) + np.random.default_rng(0).integers(-3, 4, room().shape)
    assert frames_only_plan(room(), noisy.clip(0, 255).astype(np.uint8), WINDOW) == no_action_plan()


def test_a_small_slow_object_is_caught():
    # a mug-sized thing dropping 60 px (a sixth of the picture's height) in the window
    first, last = with_box((300, 120), (24, 24)), with_box((300, 180), (24, 24))
    motion = motion_between(first, last, WINDOW)
    assert motion.share < LARGE_SHARE and motion.rate < FAST_RATE
    assert frames_only_plan(first, last, WINDOW) == catch_plan()


def test_a_large_moving_region_is_dodged():
    # a cabinet-sized slab leaning 40 px over
    first, last = with_box((320, 180), (160, 300)), with_box((360, 180), (160, 300))
    assert motion_between(first, last, WINDOW).share >= LARGE_SHARE
    assert frames_only_plan(first, last, WINDOW) == dodge_plan()


def test_a_small_fast_object_is_dodged():
    # a ball thrown across most of the picture within the window
    first, last = with_box((60, 100), (20, 20)), with_box((560, 260), (20, 20))
    motion = motion_between(first, last, WINDOW)
    assert motion.share < LARGE_SHARE and motion.rate >= FAST_RATE
    assert frames_only_plan(first, last, WINDOW) == dodge_plan()
    # the same frames further apart in time are slow again
    assert frames_only_plan(first, last, 10 * WINDOW) == catch_plan()


def observation(legend: list[str] | None) -> Observation:
    return Observation(
        scene_id="s",
        window=WINDOW,
        frame_times=[0.0, WINDOW],
        frames=[
            Frame(view=CameraName.egocentric, t=t, file=f"frames/egocentric_{n}.png")
            for n, t in enumerate((0.0, WINDOW))
        ],
        cameras=[],
        robot=RobotPose(pos=(0.0, 0.0, 0.0), yaw=0.0),
        legend=None
        if legend is None
        else [LegendEntry(id=f"object_{n}", looks_like=t) for n, t in enumerate(legend, 1)],
    )


@pytest.mark.parametrize(
    ("legend", "expected"),
    [
        (None, catch_plan()),  # frames only: small and slow
        (["a yellow-green tennis ball"], catch_plan()),
        (["a chef's knife with a steel blade"], dodge_plan()),  # the legend's words decide
    ],
)
def test_the_legend_decides_only_under_the_ablation(legend, expected):
    first, last = with_box((300, 120), (24, 24)), with_box((300, 180), (24, 24))
    assert heuristic_from(observation(legend), first, last, WINDOW) == expected
    assert heuristic_from(observation(legend), room(), room(), WINDOW) == no_action_plan()


def test_the_brain_reads_the_head_cameras_first_and_last_frames_from_its_folder(tmp_path):
    (tmp_path / "frames").mkdir()
    cv2.imwrite(str(tmp_path / "frames/egocentric_0.png"), with_box((60, 100), (20, 20)))
    cv2.imwrite(str(tmp_path / "frames/egocentric_1.png"), with_box((560, 260), (20, 20)))
    assert heuristic_plan(observation(None), tmp_path) == dodge_plan()
    (tmp_path / "frames/egocentric_1.png").unlink()
    with pytest.raises(FileNotFoundError, match="egocentric_1.png"):
        heuristic_plan(observation(None), tmp_path)
