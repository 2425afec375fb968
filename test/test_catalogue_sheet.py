"""``reacthuman catalogue --sheet``: every object rendered as the close-up camera sees it."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from reacthuman.scenes.catalogue import Catalogue, default_catalogue
from reacthuman.sim.catalogue_sheet import BACKGROUND, FLOOR_COLOR, LABEL, write_catalogue_sheet
from reacthuman.sim.settings import RenderSettings

pytestmark = [pytest.mark.genesis, pytest.mark.slow]


def test_the_sheet_shows_each_object_in_its_tile_and_a_blind_sheet_keeps_the_key(tmp_path):
    """Three objects of very different size: each tile holds the object (pixels that are
    neither floor nor sky), centred; unlabelled, the tiles are numbered and the key names
    them, look-alikes with what they imitate."""
    every = {o.name: o for o in default_catalogue().objects}
    names = ["tennis_ball", "wooden_ladder", "foam_bowling_ball"]
    catalogue = Catalogue([every[n] for n in names], "test")
    settings = RenderSettings()
    out = write_catalogue_sheet(catalogue, tmp_path / "sheet.png", settings, labelled=False)
    sheet = cv2.imread(str(out))[:, :, ::-1].astype(int)
    tile_h, tile_w = settings.height // 2 + LABEL, settings.width // 2
    assert sheet.shape[0] == tile_h and sheet.shape[1] == 4 * 2 * tile_w  # one row of four
    plain = [np.array(c) * 255 for c in (BACKGROUND, FLOOR_COLOR)]
    for i in range(len(names)):
        native = sheet[: tile_h - LABEL, 2 * i * tile_w : (2 * i + 1) * tile_w]
        distance = np.min([np.abs(native - c).sum(axis=2) for c in plain], axis=0)
        ys, xs = np.nonzero(distance > 60)  # the object's pixels: far from both plain colours
        assert len(xs) > 20, names[i]
        assert (
            abs(xs.mean() - tile_w / 2) < tile_w / 4
            and abs(ys.mean() - native.shape[0] / 2) < native.shape[0] / 4
        )
    key = json.loads((tmp_path / "sheet.png.key.json").read_text())
    assert key == {
        "#1": "tennis_ball",
        "#2": "wooden_ladder",
        "#3": "foam_bowling_ball (imitates bowling_ball)",
    }
