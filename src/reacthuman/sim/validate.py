"""Validators: a scene whose simulation contradicts its spec is rejected, with the reason.

The sampler designed each event from closed-form kinematics (``SceneSpec.intended``); the
simulation measures what really happens. A scene is rejected when the two disagree on
something the family is about: the hazard was meant to move and stays put (the cup never
leaves the table), was meant to fall and never touches the floor, or reaches the robot when
it was meant not to, or the other way round (the thrown ball misses the zone it was aimed at).

It is also rejected when its measured motion breaks the decision moment
(``reacthuman.scenes.moment``): the hazard starts inside the reach zone, or arrives or lands
less than its band's reaction margin after the freeze; or when a thin or fast object passes
through the floor. A scene group (the speed bands of one design) is rejected when its measured
speeds at the hands do not rise with the band by the generator's ratio, or when its label
changes with the band where the family does not mean it to.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from reacthuman.layout import FRAMES_DIR
from reacthuman.scenes.design import MIN_SPEED_RATIO
from reacthuman.scenes.generate import generate_scene
from reacthuman.scenes.moment import margin_problem
from reacthuman.scenes.samplers import sampler_for
from reacthuman.scenes.spec import Family, SceneSpec, SpeedBand
from reacthuman.scenes.truth import GroundTruth
from reacthuman.scenes.twin import TwinTest, compare, neighbour_bands, twin_spec

MIN_TRAVEL = 0.10  # m the hazard point must move when the design moves it
# Contacts are soft: a 6 kg ceiling panel slapping down at 11 m/s sinks up to 15 cm into the
# floor for a few hundredths of a second and is pushed back (BENCHMARKS.md). Through the floor
# means deeper than that at any time, or still below the floor at the end of the roll-out.
THROUGH_FLOOR = -0.25  # m, the centre of mass at any time
BELOW_FLOOR_AT_REST = -0.02  # m, the centre of mass at the end
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
    if truth.starts_in_reach:
        reasons.append("the hazard starts inside the reach zone")
    late = margin_problem(spec.speed_band, truth.reaction_margin)
    if late is not None:
        reasons.append(late)
    # A hazard that lands in the last quarter second may still be sinking into its landing.
    settled = truth.time_to_floor is None or truth.time_to_floor < spec.timing.horizon - 0.25
    sunk = settled and truth.final_center < BELOW_FLOOR_AT_REST
    if truth.lowest_center < THROUGH_FLOOR or sunk:
        reasons.append(
            f"the hazard passed through the floor (its centre went to z = "
            f"{truth.lowest_center:.2f} m and ended at {truth.final_center:.2f} m)"
        )
    return reasons


def group_rejection_reasons(specs: Sequence[SceneSpec], truths: Sequence[GroundTruth]) -> list[str]:
    """Why the measured scenes of one group (its speed bands, slow to very fast) break the
    sweep: arrival speeds that do not rise by ``MIN_SPEED_RATIO``, or a label that changes
    with the band where the family does not mean it to."""
    if len(specs) < 2:
        return []
    reasons = []
    sampler = sampler_for(specs[0].family)
    labels = sorted({t.action.value for t in truths})
    if len(labels) > 1 and not sampler.speed_decides_label:
        reasons.append("the label changes with the speed band: " + ", ".join(labels))
    speeds = [t.peak_speed for t in truths]
    if all(v is not None for v in speeds) and len(speeds) == len(specs):
        rising = all(b > a for a, b in zip(speeds, speeds[1:], strict=False))  # type: ignore[operator]
        if not rising or speeds[-1] < MIN_SPEED_RATIO * speeds[0]:  # type: ignore[operator]
            reasons.append(
                f"measured speeds at the hands do not rise with the band by "
                f"x{MIN_SPEED_RATIO:g}: " + ", ".join(f"{v:.2f}" for v in speeds)
            )
    return reasons


def neighbour_twins(spec: SceneSpec) -> list[tuple[SpeedBand, SceneSpec]]:
    """The genuine twin of an adversarial scene at each neighbouring band of its group (the
    same object thrown, pushed or knocked a band slower or faster)."""
    out = []
    for band, seed in neighbour_bands(spec):
        sibling = generate_scene(
            spec.family, seed, spec.generator.adversarial_rate, pin=spec.generator.pin
        )
        out.append((band, twin_spec(sibling)))
    return out


class SceneCheck:
    """Simulate a candidate scene through an observer (and its cache) and judge it: the reasons
    it is rejected (empty when valid), its measured ground truth, and for an adversarial scene
    the twin test (``scenes.twin``), whose failure is a reason too."""

    def __init__(self, observer: Any) -> None:  # sim.observe.Observer
        self.observer = observer

    def __call__(self, spec: SceneSpec) -> tuple[list[str], GroundTruth | None, TwinTest | None]:
        result = self.observer.observe(spec)
        if result.status == "failed":
            return [f"simulation failed: {'; '.join(result.reasons)}"], None, None
        reasons = list(result.reasons)
        twin = None
        if spec.adversarial and not reasons:
            mirror = self.observer.observe(twin_spec(spec))
            neighbours = [(band, self.observer.observe(s)) for band, s in neighbour_twins(spec)]
            failed = [r for r in (mirror, *(n for _b, n in neighbours)) if r.truth is None]
            if mirror.status == "failed" or failed:
                reasons.append(
                    "its genuine twin could not be simulated: "
                    + "; ".join(r for f in failed for r in f.reasons)
                )
            else:
                twin = compare(
                    spec,
                    result.truth,
                    result.folder / FRAMES_DIR,
                    mirror.truth,
                    mirror.folder / FRAMES_DIR,
                    [(band, n.truth) for band, n in neighbours if n.truth is not None],
                    sampler_for(spec.family).mass_cue,
                )
                if not twin.passed:
                    reasons.append(twin.reason())
        return reasons, result.truth, twin
