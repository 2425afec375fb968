"""Baseline brains, selectable like models: fixed dispositions, chance and a legend reader.

``always-dodge``, ``always-catch``, ``no-action`` and ``random`` (seeded by the scene) ignore
what they see; ``legend-only`` reads nothing but the text the brain is given about the
objects (a benchmark self-check); the oracle (``brain.oracle``) is handed ground truth.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from reacthuman import robot
from reacthuman.brain.plan import ReactionPlan, parse_plan
from reacthuman.observation import Observation
from reacthuman.scenes.catalogue import CatalogueObject, default_catalogue
from reacthuman.scenes.labels import intrinsic_reasons
from reacthuman.scenes.rng import SeededRng

Vec3 = tuple[float, float, float]
REACH_FORWARD: Vec3 = (0.45, 0.0, -0.1)  # both hands held out in front of the chest
HAND_SPREAD = 0.12  # m between the hands and the target, either side


def _plan(
    identified: str,
    intent: str,
    command: tuple[float, float, float],
    duration: float,
    left: Vec3,
    right: Vec3,
    knee: float = 0.0,
    confidence: float = 0.5,
) -> ReactionPlan:
    return parse_plan(
        {
            "object_identified": identified,
            "intent": intent,
            "confidence": confidence,
            "walking_cmd": list(command),
            "walking_duration": duration,
            "keyframes": [
                {"t": 0.3, "left_hand": list(left), "right_hand": list(right), "knee_bend": knee},
            ],
        }
    )


def dodge_plan(away: tuple[float, float] = (-1.0, 0.0), distance: float = 0.6) -> ReactionPlan:
    """Walk ``distance`` m along ``away`` (robot frame) as fast as allowed, hands at rest."""
    norm = math.hypot(*away) or 1.0
    ux, uy = away[0] / norm, away[1] / norm
    x_limit = robot.MAX_FORWARD_SPEED if ux > 0 else robot.MAX_BACKWARD_SPEED
    speed = min(
        x_limit / abs(ux) if abs(ux) > 1e-9 else math.inf,
        robot.MAX_LATERAL_SPEED / abs(uy) if abs(uy) > 1e-9 else math.inf,
    )
    return _plan(
        "the hazard",
        "step away to dodge it and keep clear of its path",
        (ux * speed, uy * speed, 0.0),
        distance / speed,
        robot.REST_LEFT_HAND,
        robot.REST_RIGHT_HAND,
    )


def catch_plan() -> ReactionPlan:
    x, y, z = REACH_FORWARD
    return _plan(
        "the object",
        "reach out with both hands to catch it",
        (0.0, 0.0, 0.0),
        0.0,
        (x, y + HAND_SPREAD, z),
        (x, y - HAND_SPREAD, z),
    )


def no_action_plan() -> ReactionPlan:
    return _plan(
        "the object",
        "stay put; it will not reach me",
        (0.0, 0.0, 0.0),
        0.0,
        robot.REST_LEFT_HAND,
        robot.REST_RIGHT_HAND,
    )


def always_dodge(_observation: Observation) -> ReactionPlan:
    return dodge_plan()  # backward: away from anything in front or beside the robot


def always_catch(_observation: Observation) -> ReactionPlan:
    return catch_plan()


def no_action(_observation: Observation) -> ReactionPlan:
    return no_action_plan()


@lru_cache(maxsize=1)
def _genuine_by_look() -> dict[str, CatalogueObject]:
    """The genuine catalogue objects by how they look (look-alikes share a look, by design)."""
    return {o.looks_like: o for o in default_catalogue().objects if not o.adversarial}


def dangerous_to_catch(obj: CatalogueObject) -> bool:
    """The label rule's intrinsic part (sharp, hot, shattering, heavy, large)."""
    return bool(intrinsic_reasons(obj))


def legend_only(observation: Observation) -> ReactionPlan:
    """Decide from the words the brain is given about the objects, never from pixels or truth.

    Each described object is taken for the genuine catalogue object that looks like that;
    if any of them is dangerous to catch it dodges, otherwise it catches. What it measures is
    how much a legend leaks: with the default, frames-only prompt there is no legend, it has
    nothing to read and it dodges, so it must score exactly like ``always-dodge``; with the
    legend ablation (``--legend``) it shows what the text alone gets right. Descriptions that
    match no genuine object tell it nothing; with none it knows, it dodges too.
    """
    looks = _genuine_by_look()
    known = [looks[e.looks_like] for e in observation.legend or () if e.looks_like in looks]
    if not known or any(dangerous_to_catch(obj) for obj in known):
        return dodge_plan()
    return catch_plan()


def random_brain(seed: int = 0) -> Callable[[Observation], ReactionPlan]:
    """A brain that picks dodge, catch or no action uniformly, seeded by ``seed`` and scene."""

    def decide(observation: Observation) -> ReactionPlan:
        rng = SeededRng("random-brain", seed, observation.scene_id)
        return rng.choice((always_dodge, always_catch, no_action))(observation)

    return decide


BASELINES: dict[str, Callable[[Observation], ReactionPlan]] = {
    "always-dodge": always_dodge,
    "always-catch": always_catch,
    "no-action": no_action,
    "random": random_brain(),
    "legend-only": legend_only,
}
