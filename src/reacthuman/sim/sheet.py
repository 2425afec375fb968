"""A contact sheet: what the brain sees of each scene, one row per scene, in one image.

Each row shows the close-up view when the window opens and the three views at the freeze,
with the scene, its object (and what it really is, for a look-alike), its label, window and
reaction margin. It is for people: reviewing that objects read as what they are, that the
hazard is under way and unresolved at the freeze, and that the G1 stands where it should.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from reacthuman.layout import FRAMES_DIR, OBSERVATION_FILE
from reacthuman.observation import Observation, frame_name
from reacthuman.scenes.spec import CameraName, SceneSpec
from reacthuman.scenes.truth import GroundTruth

TILE_WIDTH = 320  # px per frame on the sheet (16:9)
CAPTION = 22  # px of caption above each row


@dataclass
class SheetRow:
    spec: SceneSpec
    folder: Path  # holds observation.json and frames/ (a cache entry or a brain's folder)
    truth: GroundTruth


def _tile(path: Path, label: str) -> np.ndarray:
    import cv2

    image = cv2.imread(str(path))
    if image is None:
        raise FileNotFoundError(f"cannot read frame {path}")
    height = round(TILE_WIDTH * image.shape[0] / image.shape[1])
    tile = cv2.resize(image, (TILE_WIDTH, height), interpolation=cv2.INTER_AREA)
    cv2.rectangle(tile, (0, 0), (len(label) * 7 + 8, 16), (0, 0, 0), -1)
    cv2.putText(tile, label, (4, 12), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1)
    return tile


def _caption(row: SheetRow) -> str:
    spec, truth = row.spec, row.truth
    hazard = spec.hazard
    what = hazard.catalogue_name + (f" (looks like {hazard.imitates})" if hazard.imitates else "")
    margin = "-" if truth.reaction_margin is None else f"{truth.reaction_margin:.2f} s"
    return (
        f"{spec.scene_id} [{spec.speed_band.value}]  {what}  ->  {truth.action.value}  "
        f"window {truth.window:.2f} s, margin {margin}"
    )


def write_sheet(rows: list[SheetRow], out: Path) -> Path:
    """Compose the sheet as a PNG at ``out``."""
    import cv2

    if not rows:
        raise ValueError("a contact sheet needs at least one scene")
    strips = []
    for row in rows:
        times = Observation.load(row.folder / OBSERVATION_FILE).frame_times
        first, last = times[0], times[-1]
        frames = row.folder / FRAMES_DIR
        tiles = [
            _tile(frames / frame_name(CameraName.closeup, first), f"closeup t={first:.2f}"),
            _tile(frames / frame_name(CameraName.closeup, last), f"closeup t={last:.2f}"),
            _tile(frames / frame_name(CameraName.egocentric, last), "egocentric (freeze)"),
            _tile(frames / frame_name(CameraName.overhead, last), "overhead (freeze)"),
        ]
        strip = np.concatenate(tiles, axis=1)
        caption = np.full((CAPTION, strip.shape[1], 3), 255, dtype=np.uint8)
        cv2.putText(caption, _caption(row), (6, 15), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1)
        strips.append(np.concatenate([caption, strip], axis=0))
    sheet = np.concatenate(strips, axis=0)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out), sheet):
        raise OSError(f"cannot write {out}")
    return out
