"""How large the hazard shows in each view and how far it moves there, measured on the
rendered frames themselves.

The cameras render a segmentation of the same frame (one id per entity) when the window opens
and at the freeze; the hazard's visible pixels give its span and how far it moved (its centre
or its outline, ``shift_px``), so occlusion by furniture or the G1, the object's real outline
and the camera's real projection all count. A chain's hazard stands still until it is struck,
so what shows the event coming is its trigger: ``cue_motion_px`` is the largest move of the
hazard or of what sets it going.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from reacthuman.scenes.truth import HazardView


def _visible(seg: np.ndarray, ids: Iterable[int]) -> np.ndarray:
    return np.isin(seg, list(ids))


def box(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    """(left, top, right, bottom) of a mask's pixels, inclusive; None for an empty mask."""
    rows = np.flatnonzero(mask.any(axis=1))
    cols = np.flatnonzero(mask.any(axis=0))
    if rows.size == 0:
        return None
    return int(cols[0]), int(rows[0]), int(cols[-1]), int(rows[-1])


def span_px(mask: np.ndarray) -> float:
    """The longest side of the box around a mask's pixels (0 for an empty mask)."""
    sides = box(mask)
    if sides is None:
        return 0.0
    left, top, right, bottom = sides
    return float(max(bottom - top + 1, right - left + 1))


def centre(mask: np.ndarray) -> tuple[float, float] | None:
    rows, cols = np.nonzero(mask)
    if rows.size == 0:
        return None
    return float(cols.mean()), float(rows.mean())


def shift_px(first: np.ndarray, last: np.ndarray) -> float:
    """How far a mask moved between two frames: its centre, or the farthest-moving side of
    its outline's box, whichever moved more (0 if it is unseen in either). A tipping bookcase
    turns about its foot, so its top moves twice as far as its centre; an object coming
    straight at the camera does not move across the image at all, it grows: its outline
    shows both."""
    a, b = centre(first), centre(last)
    box_a, box_b = box(first), box(last)
    if a is None or b is None or box_a is None or box_b is None:
        return 0.0
    sides = max(abs(p - q) for p, q in zip(box_a, box_b, strict=True))
    return float(max(np.hypot(b[0] - a[0], b[1] - a[1]), sides))


def hazard_view(
    view: str,
    first: np.ndarray,
    last: np.ndarray,
    hazard: Iterable[int],
    cues: Iterable[Iterable[int]] = (),
) -> HazardView:
    """One view's measures from its segmentations at the window's start and at the freeze;
    ``hazard`` and each of ``cues`` are the segmentation ids of one object."""
    hazard = list(hazard)
    start, freeze = _visible(first, hazard), _visible(last, hazard)
    motion = shift_px(start, freeze)
    cue = max(
        [motion, *(shift_px(_visible(first, ids), _visible(last, ids)) for ids in map(list, cues))]
    )
    return HazardView(
        view=view,
        width=int(first.shape[1]),
        start_span_px=span_px(start),
        span_px=span_px(freeze),
        motion_px=round(motion, 2),
        cue_motion_px=round(cue, 2),
    )
