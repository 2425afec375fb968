"""The ``heuristic`` brain: a non-LLM baseline that reads motion from the head camera's
pixels, the way a careful person would without any physics knowledge.

Motion: OpenCV differences the head camera's first and last frames of the window; no changed
pixels means nothing is happening (no action). Then, by default (frames only, as the paper's
models get them), it judges by how the motion looks: a moving region that is large in the
image (a cabinet, a door, a ladder) or that crosses much of it within the window (a throw)
is dodged, anything small and slow is caught. Under the legend ablation it reads danger from
the legend's words instead: descriptions that suggest sharp, hot, fragile, heavy or large
things are dodged. Either way it is fooled by adversarial look-alikes, like people.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from reacthuman.brain.baselines import catch_plan, dodge_plan, no_action_plan
from reacthuman.brain.plan import ReactionPlan
from reacthuman.observation import Observation, frame_pixels
from reacthuman.scenes.spec import CameraName

DANGER_WORDS = re.compile(
    r"knife|scissors|blade|glass|ceramic|porcelain|mirror|hot|steaming|kettle|pan|pot\b|"
    r"cast-iron|iron|steel|anvil|brick|dumbbell|bowling|toolbox|suitcase|bookshelf|bookcase|"
    r"door|ladder|lamp|television|\btv\b|fan|panel|punching|vase|plant|clock|frame",
    re.IGNORECASE,
)
CHANGED_LEVEL = 25  # grey levels (of 255) a blurred pixel must change by to count as moving
MOTION_THRESHOLD = 0.002  # share of the image's pixels that must change: below it, no action
# Frames-only rule. Measured on the default set (17 scenes, 640x360): between the window's
# first and last head-camera frames a hazard changes 0.1-5 % of the image (a falling plate 3 %,
# a swinging door 5 %, a sliding anvil 0.4 %) and the changed pixels spread over 0.1-1.1
# image diagonals per second (a ceiling fan 1.1, a slipping ladder 0.5, a rolling ball 0.2).
# The thresholds are round numbers inside those spreads, not fitted to the labels: pixels
# cannot show mass, so this rule is fooled by every small heavy or sharp object.
LARGE_SHARE = 0.02  # changed pixels: 2 % of the image or more is a large thing -> dodge
FAST_RATE = 0.5  # extent of the changed pixels, image diagonals per second -> dodge
SPECKLE = 3  # px: changed specks narrower than this are noise (morphological opening)


@dataclass(frozen=True)
class Motion:
    """How the changed pixels between two frames look."""

    share: float  # of the image's pixels that changed
    rate: float  # extent of the changed regions, image diagonals per second


def changed_mask(first: np.ndarray, last: np.ndarray) -> np.ndarray:
    """Pixels (True) whose blurred grey level changed by CHANGED_LEVEL or more."""
    import cv2

    a = cv2.GaussianBlur(cv2.cvtColor(first, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    b = cv2.GaussianBlur(cv2.cvtColor(last, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    return cv2.absdiff(a, b) > CHANGED_LEVEL


def moving_share(first: np.ndarray, last: np.ndarray) -> float:
    return float(changed_mask(first, last).mean())


def motion_between(first: np.ndarray, last: np.ndarray, seconds: float) -> Motion:
    """Share and apparent speed of what changed between two BGR frames ``seconds`` apart."""
    import cv2

    mask = changed_mask(first, last)
    kernel = np.ones((SPECKLE, SPECKLE), np.uint8)
    solid = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, kernel).astype(bool)
    ys, xs = np.nonzero(solid)
    if len(xs) == 0:
        return Motion(share=float(mask.mean()), rate=0.0)
    height, width = mask.shape
    extent = math.hypot(int(xs.max() - xs.min()), int(ys.max() - ys.min()))
    return Motion(
        share=float(mask.mean()),
        rate=extent / math.hypot(width, height) / max(seconds, 1e-6),
    )


def frames_only_plan(first: np.ndarray, last: np.ndarray, seconds: float) -> ReactionPlan:
    """Nothing changed: no action; large or fast: dodge; small and slow: catch."""
    motion = motion_between(first, last, seconds)
    if motion.share < MOTION_THRESHOLD:
        return no_action_plan()
    if motion.share >= LARGE_SHARE or motion.rate >= FAST_RATE:
        return dodge_plan()
    return catch_plan()


def heuristic_from(
    observation: Observation, first: np.ndarray, last: np.ndarray, seconds: float
) -> ReactionPlan:
    """The legend's words when the observation has a legend (the ablation), else the
    frames-only rule."""
    if not observation.legend:
        return frames_only_plan(first, last, seconds)
    if moving_share(first, last) < MOTION_THRESHOLD:
        return no_action_plan()
    words = " ".join(entry.looks_like for entry in observation.legend)
    return dodge_plan() if DANGER_WORDS.search(words) else catch_plan()


def heuristic_plan(observation: Observation, folder: Path) -> ReactionPlan:
    """Read the head camera's first and last frames from ``folder`` (the brain's) and decide."""
    ego = sorted(
        (f for f in observation.frames if f.view is CameraName.egocentric), key=lambda f: f.t
    )
    if len(ego) < 2:
        return no_action_plan()
    first = frame_pixels(folder, ego[0].file)
    last = frame_pixels(folder, ego[-1].file)
    return heuristic_from(observation, first, last, ego[-1].t - ego[0].t)
