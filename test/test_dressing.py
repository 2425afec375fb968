"""Set dressing: rooms furnished as their type is, clear of everything the event uses."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections import Counter

import mujoco
import pytest

from reacthuman.scenes.dressing import (
    DRESSING_PREFIX,
    ROBOT_CLEARANCE,
    ROOM_PIECES,
)
from reacthuman.scenes.generate import generate_scene
from reacthuman.scenes.geometry import box_corners, box_gap, segment_hits_box
from reacthuman.scenes.spec import (
    VISUAL_ONLY_KINDS,
    FloorFinish,
    FurnitureKind,
    RoomType,
    SceneSpec,
    WallFinish,
)
from reacthuman.sim.mjcf import world_document

SOLREF = (0.02, 1.0)


def _dressing(spec: SceneSpec):
    return [p for p in spec.furniture if p.id.startswith(DRESSING_PREFIX)]


def _box(piece):
    corners = box_corners(piece.pose.pos, piece.size, piece.pose.quat)
    return (
        tuple(min(c[i] for c in corners) for i in range(3)),
        tuple(max(c[i] for c in corners) for i in range(3)),
    )


def _at(path, t: float):
    return min(path, key=lambda p: abs(p.t - t)).pos


def test_every_room_is_furnished_as_its_type_is(default_set):
    _manifest, scenes = default_set
    furnished = Counter()
    doors = Counter()
    for scene in scenes:
        spec = scene.spec
        pieces = _dressing(spec)
        allowed = {piece.kind for piece in ROOM_PIECES[spec.room.type]}
        assert {p.kind for p in pieces} <= allowed, spec.scene_id
        assert all(p.kind in VISUAL_ONLY_KINDS for p in pieces)
        assert spec.room.floor_finish is not FloorFinish.plain
        assert spec.room.wall_finish is not WallFinish.plain
        furnished[len(pieces) >= 2] += 1
        doors[any(p.kind is FurnitureKind.door for p in pieces)] += 1
    # Small rooms around a long event hold less; most hold a door and another piece or more.
    assert furnished[True] >= 0.8 * len(scenes), furnished
    assert doors[True] >= 0.8 * len(scenes), doors
    garages = [s.spec for s in scenes if s.spec.room.type is RoomType.garage]
    assert garages and all(s.room.floor_finish is FloorFinish.concrete for s in garages)


def test_dressing_keeps_clear_of_the_robot_and_every_cameras_view_of_the_hazard(default_set):
    """Nothing the room holds stands between a camera and the hazard, at the window's start or
    at the freeze, or where the robot steps aside."""
    _manifest, scenes = default_set
    for scene in scenes:
        spec = scene.spec
        robot = spec.observer.pos
        path = spec.intended.path
        t0 = spec.timing.t0
        targets = [spec.hazard.pose.pos, _at(path, t0 + spec.timing.window)]
        for piece in _dressing(spec):
            lo, hi = _box(piece)
            gap = math.hypot(*(max(lo[i] - robot[i], 0.0, robot[i] - hi[i]) for i in range(2)))
            assert gap >= ROBOT_CLEARANCE - 1e-3, (spec.scene_id, piece.id)
            for camera in spec.cameras:
                for target in targets:
                    assert not segment_hits_box((lo, hi), camera.pos, target), (
                        spec.scene_id,
                        piece.id,
                        camera.name,
                    )


@pytest.mark.parametrize("family, seed", [("object_drop", 0), ("thrown_object", 0)])
def test_dressing_is_seen_and_never_collides_and_the_floor_has_its_pattern(family, seed):
    spec = generate_scene(family, seed)
    assert _dressing(spec)
    text = world_document(spec, SOLREF)
    document = ET.fromstring(text)
    boxes = [_box(p) for p in _dressing(spec)]
    inside = 0
    for geom in document.iter("geom"):
        pos = [float(v) for v in geom.get("pos", "0 0 0").split()]
        if any(all(lo[i] - 1e-6 <= pos[i] <= hi[i] + 1e-6 for i in range(3)) for lo, hi in boxes):
            inside += 1  # a part of a piece of dressing: seen, never touched
            assert geom.get("contype") == "0" and geom.get("conaffinity") == "0", geom.attrib
    assert inside >= 3 * len(boxes)  # each piece is drawn from several parts
    textures = {t.get("builtin") for t in document.iter("texture")}
    expected = {FloorFinish.wood: "checker", FloorFinish.tile: "checker"}.get(
        spec.room.floor_finish, "flat"
    )
    assert expected in textures
    model = mujoco.MjModel.from_xml_string(text)
    assert model.ngeom >= len(list(document.iter("geom")))


def test_a_segment_through_a_box_hits_it_and_one_beside_it_does_not():
    box = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    assert segment_hits_box(box, (-1.0, 0.5, 0.5), (2.0, 0.5, 0.5))
    assert not segment_hits_box(box, (-1.0, 1.5, 0.5), (2.0, 1.5, 0.5))
    assert not segment_hits_box(box, (-2.0, 0.5, 0.5), (-0.5, 0.5, 0.5))  # stops short


def test_the_gap_between_boxes_is_zero_where_they_touch_and_a_point_is_a_box():
    box = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    assert box_gap(box, ((1.0, 0.2, 0.2), (2.0, 0.8, 0.8))) == 0.0
    assert box_gap(box, ((4.0, 5.0, 0.5), (4.0, 5.0, 0.5))) == 5.0
    # Over the floor plan only, a point high above the box is right on it.
    assert box_gap(box, ((0.5, 0.5, 9.0), (0.5, 0.5, 9.0)), axes=2) == 0.0
