"""The ``heuristic`` brain: a non-LLM baseline that reads motion from pixels and danger from
words, the way a careful person would without any physics knowledge.

Motion: OpenCV differences the head camera's first and last frames; no changed pixels means
nothing is happening (no action). Danger: the legend's visual identities are matched against
words that suggest sharp, hot, fragile, heavy or large things (dodge); anything else that
moves is caught. Like people, it is fooled by adversarial look-alikes.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from reacthuman.brain.baselines import catch_plan, dodge_plan, no_action_plan
from reacthuman.brain.plan import ReactionPlan
from reacthuman.observation import Observation
from reacthuman.scenes.spec import CameraName

DANGER_WORDS = re.compile(
    r"knife|scissors|blade|glass|ceramic|porcelain|mirror|hot|steaming|kettle|pan|pot\b|"
    r"cast-iron|iron|steel|anvil|brick|dumbbell|bowling|toolbox|suitcase|bookshelf|bookcase|"
    r"door|ladder|lamp|television|\btv\b|fan|panel|punching|vase|plant|clock|frame",
    re.IGNORECASE,
)
MOTION_THRESHOLD = 0.002  # share of the image's pixels that must change


def moving_share(first: np.ndarray, last: np.ndarray) -> float:
    import cv2

    a = cv2.GaussianBlur(cv2.cvtColor(first, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    b = cv2.GaussianBlur(cv2.cvtColor(last, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    changed = cv2.absdiff(a, b) > 25
    return float(changed.mean())


def heuristic_from(observation: Observation, first: np.ndarray, last: np.ndarray) -> ReactionPlan:
    if moving_share(first, last) < MOTION_THRESHOLD:
        return no_action_plan()
    words = " ".join(entry.looks_like for entry in observation.legend)
    return dodge_plan() if DANGER_WORDS.search(words) else catch_plan()


def heuristic_plan(observation: Observation, folder: Path) -> ReactionPlan:
    """Read the head camera's first and last frames from ``folder`` and decide."""
    import cv2

    ego = sorted(
        (f for f in observation.frames if f.view is CameraName.egocentric), key=lambda f: f.t
    )
    if len(ego) < 2:
        return no_action_plan()
    first = cv2.imread(str(folder / ego[0].file))
    last = cv2.imread(str(folder / ego[-1].file))
    if first is None or last is None:
        raise FileNotFoundError(f"{folder}: cannot read the head camera's frames")
    return heuristic_from(observation, first, last)
