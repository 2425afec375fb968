"""What each catalogue object looks like: its visual model, the procedural meshes that draw
it, and the MJCF document Genesis loads (compiled here by MuJoCo itself)."""

from __future__ import annotations

import math

import mujoco
import numpy as np
import pytest

from reacthuman.scenes.catalogue import default_catalogue
from reacthuman.scenes.geometry import cross, dot, sub
from reacthuman.sim.catalogue_sheet import sheet_object
from reacthuman.sim.meshes import (
    Mesh,
    cap,
    frustum,
    great_circle,
    prism,
    sphere_patch,
    tennis_seam,
    tube,
)
from reacthuman.sim.mjcf import object_document
from reacthuman.sim.visuals import MODELS, parts


def test_every_visual_model_draws_a_catalogue_object_and_every_object_has_one():
    used = {o.visual.model for o in default_catalogue().objects}
    assert used == set(MODELS)


def test_every_ball_has_its_own_model():
    """The eight ball types once shared one coloured sphere; a bowling ball must not be a
    dark-blue version of a soccer ball."""
    balls = [o for o in default_catalogue().objects if o.category == "ball" and not o.imitates]
    assert len(balls) == 8
    assert len({o.visual.model for o in balls}) == 8


def _signed_volume(mesh: Mesh) -> float:
    v = np.asarray(mesh.vertices)
    f = np.asarray(mesh.faces)
    return float(np.einsum("ij,ij->i", v[f[:, 0]], np.cross(v[f[:, 1]], v[f[:, 2]])).sum() / 6.0)


@pytest.mark.parametrize(
    ("mesh", "volume"),
    [
        (frustum(0.1, 0.2, 0.3), math.pi * 0.3 / 12 * (0.1**2 + 0.1 * 0.2 + 0.2**2)),
        (prism([(0, 0), (1, 0), (1, 1), (0, 1)], 0.5), 0.5),
        (tube(great_circle(1.0, (0, 0, 1), 96), 0.1, 12), 2 * math.pi * math.pi * 0.01),
    ],
)
def test_closed_meshes_face_outward_and_hold_their_volume(mesh, volume):
    """Outward faces give a positive volume; a mesh drawn inside out is lit from behind."""
    assert _signed_volume(mesh) == pytest.approx(volume, rel=0.05)


@pytest.mark.parametrize(
    "mesh",
    [
        sphere_patch(0.5, (0.2, 2.9), (0.0, 1.0)),
        cap(0.5, (0.3, -0.2, 1.0), 0.3, 2, 12),
        cap(0.5, (1.0, 0.0, 0.0), 0.3, 1, 5),
    ],
)
def test_surface_patches_of_a_sphere_face_away_from_its_centre(mesh):
    for a, b, c in mesh.faces:
        pa, pb, pc = (mesh.vertices[i] for i in (a, b, c))
        normal = cross(sub(pb, pa), sub(pc, pa))
        assert dot(normal, pa) > 0.0


def test_a_cap_stands_clear_of_its_sphere_everywhere():
    """A flat facet sags under the sphere between its corners; the cap is lifted so that
    even a facet's middle lies outside (else a soccer ball's pentagons vanish)."""
    patch = cap(0.5, (0.0, 0.0, 1.0), 0.3, 1, 5)
    v = np.asarray(patch.vertices)
    for face in patch.faces:
        middle = v[list(face)].mean(axis=0)
        assert np.linalg.norm(middle) > 0.5


def test_the_tennis_seam_lies_on_the_ball_and_is_one_closed_curve():
    seam = np.asarray(tennis_seam(0.0335))
    assert np.allclose(np.linalg.norm(seam, axis=1), 0.0335)
    steps = np.linalg.norm(np.diff(np.vstack([seam, seam[:1]]), axis=0), axis=1)
    assert steps.max() < 3 * steps.mean()


@pytest.mark.parametrize("obj", default_catalogue().objects, ids=lambda o: o.name)
def test_every_objects_document_compiles_and_keeps_its_physics(obj):
    """MuJoCo compiles the MJCF Genesis gets (inline meshes, textures, see-through parts);
    the visual parts never collide, so the object's mass, inertia and collision box are the
    catalogue's."""
    text, _pos, _quat = object_document(sheet_object(obj, (0.0, 0.0, 1.0)), (0.02, 1.0))
    model = mujoco.MjModel.from_xml_string(text)
    body = model.nbody - 1
    assert model.body_mass[body] == pytest.approx(obj.mass_kg)
    colliding = [
        g for g in range(model.ngeom) if model.geom_contype[g] or model.geom_conaffinity[g]
    ]
    assert len(colliding) == 1
    assert model.geom_group[colliding[0]] == 3  # hidden: only the visual parts are drawn
    assert model.ngeom == 1 + len(parts(obj.visual.model, obj.shape.size, obj.visual.color))


def test_a_thrown_object_has_its_thrower_who_is_seen_and_never_touched():
    """thrown_object stages the child who threw it just behind where it left the hand,
    facing the robot; the figure is drawn but collides with nothing, so the throw is the
    same with or without it."""
    from reacthuman.scenes.generate import generate_scene
    from reacthuman.scenes.geometry import quat_yaw
    from reacthuman.scenes.spec import FurnitureKind
    from reacthuman.sim.mjcf import world_document

    spec = generate_scene("thrown_object", 1)
    (thrower,) = [f for f in spec.furniture if f.kind is FurnitureKind.person]
    start = spec.hazard.pose.pos
    robot = spec.observer.pos
    to_robot = math.atan2(robot[1] - start[1], robot[0] - start[0])
    behind = math.dist(thrower.pose.pos[:2], robot[:2]) - math.dist(start[:2], robot[:2])
    assert 0.1 < behind < 0.35  # just behind the hand, farther from the robot
    facing = quat_yaw(thrower.pose.quat) + math.pi  # the figure faces its local -x
    assert math.cos(facing - to_robot) > 0.95
    without = spec.model_copy(update={"furniture": [f for f in spec.furniture if f is not thrower]})
    compiled = [
        mujoco.MjModel.from_xml_string(world_document(s, (0.02, 1.0))) for s in (spec, without)
    ]
    colliding = [int(np.count_nonzero(m.geom_contype | m.geom_conaffinity)) for m in compiled]
    assert colliding[0] == colliding[1]
    assert compiled[0].ngeom > compiled[1].ngeom  # and it is drawn
