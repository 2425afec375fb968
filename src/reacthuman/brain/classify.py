"""The plan -> action rule (paper 3.1, "Action space"): what the body would actually do.

The model never names an action; this fixed rule reads it off the motor plan, from two
quantities:

* the **base displacement** the walking command produces (``motion.base_pose`` at the end of
  the walk), split into the part toward the hazard and the rest. The hazard's bearing is the
  horizontal direction from the robot to where the hazard was when the event began
  (``hazard_bearing``): where it comes from, always in view, wherever it is headed;
* the **hand extension**: how far either hand's target gets from its resting position
  (``robot.REST_*_HAND``), over all keyframes.

Rule, thresholds from ``ClassifierConfig`` (``config/classifier.yaml``):

1. The base moves at least ``move`` m and less than ``toward`` m of it toward the hazard
   (away from it or across its path): ``TRIGGER_DODGE``.
2. Otherwise, a hand extends at least ``reach`` m, or the base moves at least ``move`` m
   toward the hazard: ``EXECUTE_CATCH``.
3. Otherwise (the robot stays put with its hands near rest): ``NO_ACTION``.

Worked examples (move 0.3 m, toward 0.15 m, reach 0.2 m; hazard straight ahead):

| walking_cmd, duration | hands (largest extension) | displacement | action |
|---|---|---|---|
| (0, 0.5, 0), 1.0 s | at rest | 0.50 m to the left | TRIGGER_DODGE |
| (-0.5, 0, 0), 1.0 s | raised 0.4 m | 0.50 m back | TRIGGER_DODGE |
| (0.4, 0, 0), 1.0 s | forward 0.45 m | 0.40 m toward | EXECUTE_CATCH |
| (0, 0, 0), 0 s | forward 0.45 m | none | EXECUTE_CATCH |
| (0.5, 0, 0), 1.0 s | at rest | 0.50 m toward | EXECUTE_CATCH |
| (0.1, 0, 0), 1.0 s | at rest | 0.10 m toward | NO_ACTION |
| (0, 0, 0), 0 s | 0.1 m off rest | none | NO_ACTION |
| (0.3, 0.3, 0), 1.0 s | at rest | 0.42 m, 0.30 m of it toward | EXECUTE_CATCH |
"""

from __future__ import annotations

import math
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field

from reacthuman import robot
from reacthuman.brain.motion import Vec3, base_pose, to_robot
from reacthuman.brain.plan import ReactionPlan
from reacthuman.scenes.labels import Action
from reacthuman.scenes.truth import GroundTruth


class ClassifierConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    move: float = Field(default=0.3, gt=0)  # m of base displacement that counts as moving
    toward: float = Field(default=0.15, ge=0)  # m toward the hazard that is no longer a dodge
    reach: float = Field(default=0.2, gt=0)  # m of hand extension from rest that is reaching

    @classmethod
    def load(cls, path: str | Path) -> ClassifierConfig:
        return cls.model_validate(yaml.safe_load(Path(path).read_text()) or {})


def hand_extensions(plan: ReactionPlan) -> dict[str, float]:
    """Per hand ("left_hand", "right_hand"), the largest distance of its target from its
    resting position over the plan's keyframes."""
    out = {"left_hand": 0.0, "right_hand": 0.0}
    for frame in plan.keyframes:
        out["left_hand"] = max(out["left_hand"], math.dist(frame.left_hand, robot.REST_LEFT_HAND))
        out["right_hand"] = max(
            out["right_hand"], math.dist(frame.right_hand, robot.REST_RIGHT_HAND)
        )
    return out


def hand_extension(plan: ReactionPlan) -> float:
    """The largest distance of either hand's target from its resting position."""
    return max(hand_extensions(plan).values())


def reaching_hands(plan: ReactionPlan | None, config: ClassifierConfig | None = None) -> set[str]:
    """The hands the plan holds out (at least the rule's ``reach`` from rest at some keyframe):
    the ones whose fingers close on an object they meet. A hand left at rest or held ready
    does not grab what bumps into it (a ball bouncing off a hanging arm is not a catch)."""
    if plan is None:
        return set()
    reach = (config if config is not None else ClassifierConfig()).reach
    return {hand for hand, extension in hand_extensions(plan).items() if extension >= reach}


def classify(
    plan: ReactionPlan,
    hazard_bearing: tuple[float, float],
    config: ClassifierConfig | None = None,
) -> Action:
    """The action a plan carries out; ``hazard_bearing`` points from the robot to the hazard
    in the robot frame at the freeze (need not be normalised)."""
    config = config if config is not None else ClassifierConfig()
    x, y, _yaw = base_pose(plan, plan.walking_duration)
    moved = math.hypot(x, y)
    norm = math.hypot(*hazard_bearing)
    ux, uy = (hazard_bearing[0] / norm, hazard_bearing[1] / norm) if norm > 1e-9 else (1.0, 0.0)
    toward = x * ux + y * uy
    if moved >= config.move and toward < config.toward:
        return Action.TRIGGER_DODGE
    if hand_extension(plan) >= config.reach or toward >= config.move:
        return Action.EXECUTE_CATCH
    return Action.NO_ACTION


def hazard_bearing(truth: GroundTruth, robot_pos: Vec3, robot_yaw: float) -> tuple[float, float]:
    """Robot-frame horizontal direction to the hazard at the event start (t0)."""
    x, y, _z = to_robot(truth.trajectory[0].pos, robot_pos, robot_yaw)
    return (x, y)
