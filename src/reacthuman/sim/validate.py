"""Validators: a scene whose simulation contradicts its spec is rejected, with the reason.

The sampler designed each event from closed-form kinematics (``SceneSpec.intended``); the
simulation measures what really happens. A scene is rejected when the two disagree on
something the family is about: the hazard was meant to move and stays put (the cup never
leaves the table), was meant to fall and never touches the floor, or reaches the robot when
it was meant not to, or the other way round (the thrown ball misses the zone it was aimed at).
"""

from __future__ import annotations

import math

from reacthuman.scenes.spec import Family, SceneSpec
from reacthuman.sim.truth import GroundTruth

MIN_TRAVEL = 0.10  # m the hazard point must move when the design moves it
# Families whose hazard starts on a support above the floor and must come down to it.
FALLING = {
    Family.object_drop,
    Family.shelf_slide,
    Family.hanging_fall,
    Family.ceiling_drop,
    Family.rolling_ball,
    Family.surface_cascade,
    Family.stack_collapse,
    Family.thrown_object,
    Family.stair_tumble,
}


def _travel(points: list[tuple[float, float, float]]) -> float:
    start = points[0]
    return max(math.dist(start, p) for p in points)


def rejection_reasons(spec: SceneSpec, truth: GroundTruth) -> list[str]:
    """Why the simulation contradicts the spec; empty when the scene is valid."""
    reasons: list[str] = []
    intended = [p.pos for p in spec.intended.path]
    measured = [p.pos for p in truth.trajectory]
    designed, moved = _travel(intended), _travel(measured)
    if designed >= MIN_TRAVEL and moved < MIN_TRAVEL:
        reasons.append(f"the hazard stays put (moves {moved:.2f} m, designed {designed:.2f} m)")
    if (
        spec.family in FALLING
        and spec.intended.floor_time is not None
        and truth.time_to_floor is None
    ):
        reasons.append("the hazard never reaches the floor")
    if spec.intended.reaches_observer and not truth.reaches_observer:
        reasons.append("the hazard was meant to reach the robot and does not")
    if not spec.intended.reaches_observer and truth.reaches_observer:
        reasons.append("the hazard was meant to stay out of reach and reaches the robot")
    return reasons
