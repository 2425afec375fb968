"""ReactionPlan: the brain's structured motor plan (paper eq. 1), and the limits policy.

A plan has a walking command for the base and hand keyframes relative to the hand origin
(``reacthuman.robot``). Model output is checked in two steps:

* **Rejected** (the decision is a recorded R1, "no parseable output"): not JSON, a missing or
  mistyped field, a non-finite number, no keyframes, or more than ``MAX_KEYFRAMES`` of them.
* **Clipped** (the plan stands; every clip is listed in ``clipped`` so the scorer can report
  it): walking command components beyond the robot's speed limits, a walking duration outside
  [0, 3] s, keyframe times outside [0, 3] s, a hand target farther than ``ARM_REACH`` from the
  hand origin (scaled back onto that sphere along the same direction), a knee bend outside
  [0, 1], a confidence outside [0, 1]. Keyframes are put in time order.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from reacthuman import robot

Vec3 = tuple[float, float, float]
FiniteFloat = Annotated[float, Field(allow_inf_nan=False)]


class Keyframe(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    t: FiniteFloat  # s after the freeze, when the hands should be there
    left_hand: tuple[FiniteFloat, FiniteFloat, FiniteFloat]  # m from the hand origin
    right_hand: tuple[FiniteFloat, FiniteFloat, FiniteFloat]
    knee_bend: FiniteFloat = 0.0  # 0 standing, 1 deepest crouch


class ReactionPlan(BaseModel):
    """What the brain commits to. Extra fields from a model are ignored, not errors."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    object_identified: str = Field(max_length=500)
    intent: str = Field(max_length=4000)
    confidence: FiniteFloat
    walking_cmd: tuple[FiniteFloat, FiniteFloat, FiniteFloat]  # vx, vy (m/s), yaw rate (rad/s)
    walking_duration: FiniteFloat  # s
    keyframes: list[Keyframe] = Field(min_length=1)
    clipped: list[str] = Field(default_factory=list)  # set by the limits policy, not by models


class PlanError(ValueError):
    """The reply is not a usable plan: the decision is recorded as R1."""


def _clip(value: float, low: float, high: float, name: str, notes: list[str]) -> float:
    if value < low or value > high:
        notes.append(f"{name} {value:g} clipped to [{low:g}, {high:g}]")
        return min(max(value, low), high)
    return value


def _within_reach(hand: Vec3, name: str, notes: list[str]) -> Vec3:
    distance = math.sqrt(sum(c * c for c in hand))
    if distance <= robot.ARM_REACH:
        return hand
    notes.append(f"{name} {distance:.2f} m from the hand origin scaled to {robot.ARM_REACH} m")
    k = robot.ARM_REACH / distance
    return (hand[0] * k, hand[1] * k, hand[2] * k)


def parse_plan(data: Any) -> ReactionPlan:
    """Validate a model's JSON object and apply the limits policy (module docstring)."""
    if not isinstance(data, dict):
        raise PlanError(f"expected a JSON object, got {type(data).__name__}")
    frames = data.get("keyframes")
    if isinstance(frames, list) and len(frames) > robot.MAX_KEYFRAMES:
        raise PlanError(f"{len(frames)} keyframes; at most {robot.MAX_KEYFRAMES} are allowed")
    try:
        raw = ReactionPlan.model_validate({k: v for k, v in data.items() if k != "clipped"})
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "plan"
        raise PlanError(f"{where}: {err['msg']}") from None
    notes: list[str] = []
    vx, vy, wz = raw.walking_cmd
    command = (
        _clip(vx, -robot.MAX_BACKWARD_SPEED, robot.MAX_FORWARD_SPEED, "walking_cmd.vx", notes),
        _clip(vy, -robot.MAX_LATERAL_SPEED, robot.MAX_LATERAL_SPEED, "walking_cmd.vy", notes),
        _clip(wz, -robot.MAX_YAW_RATE, robot.MAX_YAW_RATE, "walking_cmd.yaw_rate", notes),
    )
    duration = _clip(
        raw.walking_duration, 0.0, robot.MAX_WALKING_DURATION, "walking_duration", notes
    )
    keyframes = []
    for i, frame in enumerate(sorted(raw.keyframes, key=lambda f: f.t)):
        keyframes.append(
            Keyframe(
                t=_clip(frame.t, 0.0, robot.MAX_KEYFRAME_TIME, f"keyframes[{i}].t", notes),
                left_hand=_within_reach(frame.left_hand, f"keyframes[{i}].left_hand", notes),
                right_hand=_within_reach(frame.right_hand, f"keyframes[{i}].right_hand", notes),
                knee_bend=_clip(frame.knee_bend, 0.0, 1.0, f"keyframes[{i}].knee_bend", notes),
            )
        )
    if [f.t for f in raw.keyframes] != sorted(f.t for f in raw.keyframes):
        notes.append("keyframes put in time order")
    confidence = _clip(raw.confidence, 0.0, 1.0, "confidence", notes)
    return raw.model_copy(
        update={
            "walking_cmd": command,
            "walking_duration": duration,
            "keyframes": keyframes,
            "confidence": confidence,
            "clipped": notes,
        }
    )
