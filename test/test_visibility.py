"""The hazard in view: spans and moves measured on segmentation masks, and the thresholds the
validity report holds every scene to."""

from __future__ import annotations

import numpy as np
import pytest

from reacthuman.scenes.truth import HazardView
from reacthuman.scenes.validity import in_view_check
from reacthuman.sim.visibility import hazard_view, shift_px, span_px


def _seg(h: int = 360, w: int = 640) -> np.ndarray:
    return np.zeros((h, w), dtype=np.int32)


def test_span_is_the_longest_side_of_the_visible_box():
    seg = _seg()
    seg[100:110, 200:230] = 1  # 10 rows, 30 columns
    assert span_px(seg == 1) == 30.0
    assert span_px(seg == 2) == 0.0


def test_shift_follows_the_visible_centre_and_is_zero_when_unseen():
    first, last = _seg(), _seg()
    first[10:20, 10:20] = 1
    last[10:20, 40:50] = 1
    assert shift_px(first == 1, last == 1) == pytest.approx(30.0)
    assert shift_px(first == 1, last == 2) == 0.0


def test_a_hazard_turning_about_its_foot_or_coming_straight_on_moves_by_its_outline():
    first, last = _seg(), _seg()
    first[100:300, 300:340] = 1  # a tall piece...
    last[112:300, 300:346] = 1  # ...tipping toward the camera: its top comes down 12 px
    assert shift_px(first == 1, last == 1) == 12.0
    first, last = _seg(), _seg()
    first[170:190, 310:330] = 2  # a ball coming straight on: it grows, its centre stays
    last[164:196, 304:336] = 2
    assert shift_px(first == 2, last == 2) == 6.0


def test_a_still_hazard_moved_by_its_trigger_counts_the_triggers_motion():
    first, last = _seg(), _seg()
    first[50:70, 50:70] = 3  # the hazard, at rest
    last[50:70, 50:70] = 3
    first[50:60, 300:310] = 7  # the trigger, on its way (two segmentation ids, one object)
    last[50:60, 200:210] = 8
    view = hazard_view("closeup", first, last, [3], [[7, 8]])
    assert (view.span_px, view.motion_px, view.cue_motion_px) == (20.0, 0.0, 100.0)
    assert view.width == 640


def _views(closeup: float, head: float, motion: float, width: int = 640) -> list[HazardView]:
    def view(name: str, span: float, move: float) -> HazardView:
        return HazardView(
            view=name,
            width=width,
            start_span_px=span,
            span_px=span,
            motion_px=move,
            cue_motion_px=move,
        )

    return [view("closeup", closeup, motion), view("egocentric", head, 2.0), view("overhead", 5, 1)]


def test_the_in_view_check_names_each_threshold_a_scene_misses():
    assert in_view_check(_views(16, 8, 10))[3] == []
    assert in_view_check(_views(15, 7, 9))[3] == ["close-up 15 px", "head 7 px", "moves 9 px"]


def test_the_in_view_check_judges_a_larger_frame_in_640_px_terms():
    """At 1280x720 everything spans twice the pixels: the thresholds are a 640-px frame's."""
    closeup, head, motion, short = in_view_check(_views(30, 18, 24, width=1280))
    assert (closeup, head, motion) == (15.0, 9.0, 12.0)
    assert short == ["close-up 15 px"]
