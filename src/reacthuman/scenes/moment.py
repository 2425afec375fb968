"""The decision moment (paper 3.1): the observation window, the freeze, the reaction margin.

The model sees the event from t0 to t0 + window and commits at the freeze; the paper's window
ends "before the outcome is visually resolved". A scene is therefore only valid when, at the
freeze, the hazard is still under way and a competent person still has time to act:

- **arrival**: the hazard enters the robot's reach zone (``reach.REACH_RADIUS``,
  ``reach.REACH_HEIGHT``), and
- **landing**: it first touches the floor (for a hazard standing on the floor from the start,
  a toppling piece of furniture or a ladder, when it comes down)

both come at least the band's **reaction margin** after the freeze. The margin is 0.5 s for
slow, normal and gravity-paced events (a person needs about 0.2-0.25 s to react and as long
again to step or raise both hands) and 0.3 s for the fast and very fast bands, whose point is
that little time is left. In families whose hazard travels along the floor by design (a ball
bouncing toward the robot), floor contacts are its path, not its outcome, and only arrival
counts (``Layout.floor_resolves``). A hazard that never reaches the robot must still not have
landed at the freeze (that would show the answer).

The window is 0.6 s (the paper's Delta ~ 0.6 s). Where a hazard is too fast for a room-sized
scene to give both the window and the margin, the scene's window is shortened, in steps of
``WINDOW_STEP`` and never below ``MIN_WINDOW``, rather than the margin; the window is stored in
the spec (``Timing.window``) and the observation.
"""

from __future__ import annotations

import math

from reacthuman.scenes.spec import SpeedBand

DEFAULT_WINDOW = 0.6  # s, the paper's Delta
MIN_WINDOW = 0.3  # s: shorter shows too little of the motion
WINDOW_STEP = 0.05  # s
# Seconds that must remain, after the freeze, before the hazard arrives or lands.
REACTION_MARGIN: dict[SpeedBand, float] = {
    SpeedBand.slow: 0.5,
    SpeedBand.normal: 0.5,
    SpeedBand.gravity: 0.5,
    SpeedBand.fast: 0.3,
    SpeedBand.very_fast: 0.3,
}
# Designs aim this much past the required margin: the sampler's closed-form motion and the
# simulation differ by a few hundredths of a second (contacts, bounces, friction jitter).
DESIGN_SLACK = 0.12  # s


def resolution_time(
    arrival_time: float | None, floor_time: float | None, floor_resolves: bool = True
) -> float | None:
    """When the outcome is decided (s after t0): the earlier of arrival and landing."""
    times = [arrival_time]
    if floor_resolves:
        times.append(floor_time)
    present = [t for t in times if t is not None]
    return min(present) if present else None


def reaction_margin(
    window: float,
    arrival_time: float | None,
    floor_time: float | None,
    floor_resolves: bool = True,
) -> float | None:
    """Seconds from the freeze to the outcome; None when nothing is ever decided (a hazard
    that neither reaches the robot nor lands within the horizon)."""
    resolved = resolution_time(arrival_time, floor_time, floor_resolves)
    return None if resolved is None else resolved - window


def window_for(resolved: float | None, band: SpeedBand, slack: float = DESIGN_SLACK) -> float:
    """The longest window (at most ``DEFAULT_WINDOW``, in ``WINDOW_STEP`` steps) that leaves
    the band's margin plus ``slack`` before ``resolved``; ``MIN_WINDOW`` if even that does not
    (the caller rejects such a design)."""
    if resolved is None:
        return DEFAULT_WINDOW
    room = resolved - REACTION_MARGIN[band] - slack
    steps = math.floor(round(room / WINDOW_STEP, 6))
    return round(min(max(steps * WINDOW_STEP, MIN_WINDOW), DEFAULT_WINDOW), 4)


def margin_problem(band: SpeedBand, margin: float | None) -> str | None:
    """Why a (measured or intended) margin is too short for its band, or None."""
    if margin is None:
        return None
    need = REACTION_MARGIN[band]
    if margin < need - 1e-9:
        if margin <= 0.0:
            return f"the outcome is decided {-margin:.2f} s before the freeze"
        return f"only {margin:.2f} s from the freeze to the outcome ({band.value} needs {need} s)"
    return None
