"""The catalogue's contact sheet: every object rendered as the close-up camera sees it, labelled.

A model names an object from a few dozen pixels, so a person must be able to check that each
visual model reads as its description at that scale. Every object floats above a neutral floor
(no physics is stepped) and is rendered at the middle of the close-up camera's distance range
(``scenes.cameras.closeup``: 1.0-1.8 m, 48-60 degrees), from the side the scenes show it:
wall fixtures face on, ceiling fixtures from below, everything else from a three-quarter view a
little above. A tile is the centre of the frame at the frame's own pixels (what a model gets);
an object too large for that crop is rendered from further back until it fits.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from reacthuman.scenes.catalogue import Catalogue, CatalogueObject, longest_extent
from reacthuman.scenes.geometry import Vec3, add
from reacthuman.scenes.spec import ObjectRole, Pose, SceneObject
from reacthuman.sim.settings import RenderSettings

CLOSEUP_DISTANCE = 1.4  # m: the middle of the close-up camera's range
CLOSEUP_FOV = 54.0  # degrees: the middle of its field-of-view range
TILE_SHARE = 0.5  # a tile is this share of the frame's width and height, at native pixels
FIT = 0.8  # an object spans at most this share of its tile's height
SPACING = 30.0  # m between objects, side by side across the views: never two in one view
LABEL = 18  # px of label under each tile
COLUMNS = 4  # tiles a row; a tile is the frame's pixels beside a magnified copy
MAX_ZOOM = 4.0
FLOOR_COLOR = (0.62, 0.6, 0.56)
BACKGROUND = (0.82, 0.84, 0.86)


@dataclass(frozen=True)
class SheetView:
    """Where the sheet's camera stands for one object."""

    obj: CatalogueObject
    centre: Vec3
    camera: Vec3
    distance: float


def sheet_object(obj: CatalogueObject, pos: Vec3) -> SceneObject:
    """A catalogue object as a scene object at rest at ``pos``, in its catalogue colour."""
    return obj.placed(f"sheet_{obj.name}", ObjectRole.hazard, Pose(pos=pos))


def _distance(obj: CatalogueObject) -> float:
    """The close-up distance, or further back for an object the tile cannot hold there."""
    vertical = math.radians(CLOSEUP_FOV) / 2.0  # Genesis's fov is the vertical one
    half_view = math.tan(vertical) * TILE_SHARE * FIT
    return max(CLOSEUP_DISTANCE, longest_extent(obj.shape) / 2.0 / half_view)


def views(catalogue: Catalogue) -> list[SheetView]:
    """Where each object floats and where the camera looks at it from."""
    out = []
    for i, obj in enumerate(catalogue.objects):
        height = obj.shape.size[2] if obj.shape.kind.value != "sphere" else obj.shape.size[0]
        centre = (0.0, (i - len(catalogue.objects) / 2.0) * SPACING, max(1.0, height / 2.0 + 0.1))
        distance = _distance(obj)
        if obj.category == "wall_fixture":  # face on, from the room (fixtures face -x)
            azimuth, elevation = math.radians(15.0), math.radians(5.0)
        elif obj.category == "ceiling_fixture":  # from below, as a person under it
            azimuth, elevation = math.radians(20.0), math.radians(-35.0)
        else:
            azimuth, elevation = math.radians(35.0), math.radians(20.0)
        offset = (
            -math.cos(azimuth) * math.cos(elevation) * distance,
            -math.sin(azimuth) * math.cos(elevation) * distance,
            math.sin(elevation) * distance,
        )
        out.append(SheetView(obj, centre, add(centre, offset), distance))
    return out


def _crop(frame: np.ndarray, share: float = TILE_SHARE) -> np.ndarray:
    h, w = frame.shape[:2]
    th, tw = round(h * share), round(w * share)
    top, left = (h - th) // 2, (w - tw) // 2
    return frame[top : top + th, left : left + tw]


def zoom_of(view: SheetView, settings: RenderSettings) -> float:
    """How much the magnified half of a tile enlarges the object (1 to MAX_ZOOM): until it
    spans FIT of the tile's height."""
    vertical = math.radians(CLOSEUP_FOV) / 2.0
    span_px = (
        longest_extent(view.obj.shape) / view.distance * settings.height / 2 / math.tan(vertical)
    )
    return min(max(FIT * settings.height * TILE_SHARE / span_px, 1.0), MAX_ZOOM)


def _magnified(frame: np.ndarray, zoom: float) -> np.ndarray:
    import cv2

    tile = _crop(frame)
    inner = _crop(frame, TILE_SHARE / zoom)
    return cv2.resize(inner, (tile.shape[1], tile.shape[0]), interpolation=cv2.INTER_NEAREST)


def _label(tile: np.ndarray, text: str) -> np.ndarray:
    import cv2

    band = np.full((LABEL, tile.shape[1], 3), 255, dtype=np.uint8)
    scale = min(0.4, 0.4 * tile.shape[1] / max(1, len(text) * 8))
    cv2.putText(band, text, (3, 13), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 1, cv2.LINE_AA)
    return np.concatenate([tile, band], axis=0)


def render_tiles(catalogue: Catalogue, settings: RenderSettings) -> list[np.ndarray]:
    """One RGB tile per catalogue object, in catalogue order: the centre of the frame at its
    own pixels, and beside it the same magnified (nearest-neighbour: no detail is invented)."""
    from genesis.options.vis import DirectionalLight

    from reacthuman.genesis_runtime import genesis
    from reacthuman.sim.episode import rendered
    from reacthuman.sim.mjcf import object_document
    from reacthuman.sim.simulator import LIGHT_SCALE

    gs = genesis()
    placed = views(catalogue)
    scene = gs.Scene(
        vis_options=gs.options.VisOptions(
            background_color=BACKGROUND,
            ambient_light=(0.35, 0.35, 0.35),
            lights=[
                DirectionalLight(
                    dir=(0.3, 0.4, -1.0), color=(1.0, 1.0, 1.0), intensity=LIGHT_SCALE
                ),
                DirectionalLight(dir=(-0.6, 0.5, -0.5), color=(1.0, 1.0, 1.0), intensity=0.9),
            ],
            shadow=True,
        ),
        show_viewer=False,
    )
    floor = gs.surfaces.Default(color=FLOOR_COLOR)
    span = 2.0 * SPACING * len(placed)
    scene.add_entity(gs.morphs.Plane(plane_size=(span, span)), surface=floor)
    for view in placed:
        text, pos, quat = object_document(sheet_object(view.obj, view.centre), (0.02, 1.0))
        scene.add_entity(gs.morphs.MJCF(file=text, pos=pos, quat=quat, default_armature=None))
    camera = scene.add_camera(
        res=(settings.width, settings.height), pos=(0, -2, 1), lookat=(0, 0, 1), fov=CLOSEUP_FOV
    )
    scene.build()
    tiles = []
    for view in placed:
        camera.set_pose(pos=view.camera, lookat=view.centre, up=(0.0, 0.0, 1.0))
        frame = rendered(camera)
        zoom = zoom_of(view, settings)
        tiles.append(np.concatenate([_crop(frame), _magnified(frame, zoom)], axis=1))
    scene.destroy()
    return tiles


def write_catalogue_sheet(
    catalogue: Catalogue, out: Path, settings: RenderSettings, labelled: bool = True
) -> Path:
    """Compose the sheet as a PNG at ``out``. Unlabelled, tiles carry numbers and the key goes
    to ``<out>.key.json``: for reading the sheet blind, as a model would."""
    import cv2

    tiles = render_tiles(catalogue, settings)
    names = [
        o.name + (f" (imitates {o.imitates})" if o.imitates else "") for o in catalogue.objects
    ]
    texts = names if labelled else [f"#{i + 1}" for i in range(len(tiles))]
    cells = [_label(tile[:, :, ::-1].copy(), text) for tile, text in zip(tiles, texts, strict=True)]
    blank = np.full_like(cells[0], 255)
    rows = []
    for start in range(0, len(cells), COLUMNS):
        row = cells[start : start + COLUMNS]
        row += [blank] * (COLUMNS - len(row))
        rows.append(np.concatenate(row, axis=1))
    sheet = np.concatenate(rows, axis=0)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out), sheet):
        raise OSError(f"cannot write {out}")
    if not labelled:
        key = {f"#{i + 1}": name for i, name in enumerate(names)}
        out.with_name(out.name + ".key.json").write_text(json.dumps(key, indent=2) + "\n")
    return out
