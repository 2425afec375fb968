"""The label rule (paper 3.1): physics, not appearance, decides catch, dodge or no action."""

from __future__ import annotations

import pytest

from reacthuman.scenes.catalogue import HEAVY_MASS_KG, default_catalogue
from reacthuman.scenes.kinematics import kinetic_energy
from reacthuman.scenes.labels import (
    MAX_CATCH_ENERGY,
    MAX_CATCH_SPEED,
    Action,
    Arrival,
    action_label,
    safety_label,
)
from reacthuman.scenes.spec import ObjectRole, Pose, SceneObject

GENTLE = Arrival(reaches_observer=True, peak_speed=3.0, peak_kinetic_energy=0.5)
AWAY = Arrival(reaches_observer=False)


def scene_object(name: str) -> SceneObject:
    obj = default_catalogue().get(name)
    return obj.placed("hazard", ObjectRole.hazard, Pose(pos=(1.0, 0.0, 1.0)))


@pytest.mark.parametrize(
    ("name", "expected", "reasons"),
    [
        ("apple", Action.EXECUTE_CATCH, []),
        ("chef_knife", Action.TRIGGER_DODGE, ["sharp"]),
        ("hot_kettle", Action.TRIGGER_DODGE, ["hot"]),
        ("wine_glass", Action.TRIGGER_DODGE, ["fragile_shattering"]),
        # Fragile but harmless to the catcher: catching is what saves it (issue 12).
        ("ceramic_plate", Action.EXECUTE_CATCH, []),
        ("ceramic_mug", Action.EXECUTE_CATCH, []),
        # Glass shatters wherever it is: a picture's glass front as a mirror (issue 51).
        ("picture_frame", Action.TRIGGER_DODGE, ["fragile_shattering"]),
        ("wall_clock", Action.TRIGGER_DODGE, ["fragile_shattering"]),
        ("wall_mirror", Action.TRIGGER_DODGE, ["fragile_shattering", "heavy"]),
        # Ceramics never shatter into shards: a lamp's base is dodged for its weight alone.
        ("table_lamp", Action.TRIGGER_DODGE, ["heavy"]),
        ("cast_iron_pan", Action.TRIGGER_DODGE, ["heavy"]),
        ("wooden_door", Action.TRIGGER_DODGE, ["heavy", "large"]),
        # Too large to hold in two hands, however light (the paper dodges what is large).
        ("cardboard_standee", Action.TRIGGER_DODGE, ["large"]),
        ("hollow_prop_door", Action.TRIGGER_DODGE, ["large"]),
        ("cork_board", Action.EXECUTE_CATCH, []),
    ],
)
def test_intrinsic_hazards_decide_for_a_gentle_arrival(name, expected, reasons):
    obj = scene_object(name)
    assert action_label(obj, GENTLE) is expected
    assert safety_label(obj, GENTLE).reasons == reasons


def test_no_action_only_when_the_event_cannot_reach_the_observer():
    for name in ("apple", "chef_knife", "bookshelf"):
        assert action_label(scene_object(name), AWAY) is Action.NO_ACTION
    # A knife that does not reach is still dangerous to grab (rule R2 needs that).
    assert safety_label(scene_object("chef_knife"), AWAY).dangerous


def test_speed_and_energy_make_a_benign_object_a_dodge():
    ball = scene_object("tennis_ball")
    fast = Arrival(reaches_observer=True, peak_speed=MAX_CATCH_SPEED + 0.1, peak_kinetic_energy=2.0)
    assert action_label(ball, fast) is Action.TRIGGER_DODGE
    assert safety_label(ball, fast).reasons == ["fast"]
    hard = Arrival(
        reaches_observer=True, peak_speed=6.0, peak_kinetic_energy=MAX_CATCH_ENERGY + 0.1
    )
    assert safety_label(ball, hard).reasons == ["high_energy"]
    at_limit = Arrival(
        reaches_observer=True,
        peak_speed=MAX_CATCH_SPEED,
        peak_kinetic_energy=MAX_CATCH_ENERGY,
    )
    assert action_label(ball, at_limit) is Action.EXECUTE_CATCH


def test_adversarial_objects_get_the_label_of_their_physics_not_their_look():
    catalogue = default_catalogue()
    same = []
    for adversarial in catalogue.adversarial:
        fake = action_label(scene_object(adversarial.name), GENTLE)
        real = action_label(scene_object(adversarial.imitates), GENTLE)
        truth = (
            Action.TRIGGER_DODGE
            if adversarial.hazards.active() or not adversarial.graspable
            else Action.EXECUTE_CATCH
        )
        assert fake is truth, adversarial.name
        if fake is real:
            same.append(adversarial.name)
    # Every disguise implies the wrong action but the hollow prop door's: as large as the
    # wooden door it imitates, it is dodged too, and generation never stages it as a probe.
    assert same == ["hollow_prop_door"]


def test_look_alikes_share_every_flag_with_their_twin_but_what_mass_and_material_decide():
    catalogue = default_catalogue()
    for fake in catalogue.adversarial:
        real = catalogue.get(fake.imitates)
        assert (fake.graspable, fake.hazards.hot) == (real.graspable, real.hazards.hot)
        assert fake.shape == real.shape and fake.visual == real.visual


def test_a_heavy_striker_that_rolls_into_reach_makes_a_harmless_target_a_dodge():
    """A chain reaction's bowling ball strikes a teddy bear and rolls on into reach: the scene
    has two hazards, and the ball decides (issue 51)."""
    teddy = scene_object("teddy_bear")
    ball = scene_object("bowling_ball").model_copy(update={"id": "trigger"})
    rolls_in = Arrival(reaches_observer=True, peak_speed=1.5, peak_kinetic_energy=7.3)
    stops = Arrival(reaches_observer=False)
    assert action_label(teddy, GENTLE, [(ball, stops)]) is Action.EXECUTE_CATCH
    assert action_label(teddy, GENTLE, [(ball, rolls_in)]) is Action.TRIGGER_DODGE
    assert safety_label(teddy, GENTLE, [(ball, rolls_in)]).reasons == ["heavy (bowling_ball)"]
    # Another item of the same kind adds only what the primary's own reasons do not say.
    brick = scene_object("brick")
    other = brick.model_copy(update={"id": "stack_1"})
    hard = Arrival(reaches_observer=True, peak_speed=6.0, peak_kinetic_energy=40.0)
    assert safety_label(brick, GENTLE, [(other, hard)]).reasons == [
        "heavy",
        "high_energy (stack_1)",
    ]
    # A striker alone in reach is still a hazard: the target never came.
    assert action_label(teddy, AWAY, [(ball, rolls_in)]) is Action.TRIGGER_DODGE
    light = scene_object("baseball").model_copy(update={"id": "trigger"})
    assert action_label(teddy, AWAY, [(light, rolls_in)]) is Action.EXECUTE_CATCH


def test_adversarial_masses_sit_well_clear_of_the_heavy_limit():
    """A look-alike whose mass sat at the limit (a 1.55 kg lead-core ball against 1.5 kg) would
    make its label hinge on a rounding; every disguise is at least 15 % past it either way."""
    for obj in default_catalogue().adversarial:
        ratio = obj.mass_kg / HEAVY_MASS_KG
        assert ratio >= 1.15 or ratio <= 0.7, (obj.name, obj.mass_kg)


def test_the_energy_a_label_judges_includes_rotation():
    """A pivoting cut-out's energy is its rotation about the pivot (1/2 I w^2), not 1/2 m v^2
    of its top edge (20.9 J where the truth is about 7 J)."""
    standee = default_catalogue().get("cardboard_standee")
    depth, _width, height = standee.shape.size
    omega = 3.0  # rad/s about the bottom edge
    edge_speed = omega * height
    pivot = standee.mass_kg * (height**2 + depth**2) / 3.0
    center = (-omega * height / 2.0, 0.0, 0.0)  # its centre moves at half the edge's speed
    energy = kinetic_energy(standee.shape, standee.mass_kg, center, (0.0, omega, 0.0), (1, 0, 0, 0))
    assert energy == pytest.approx(0.5 * pivot * omega**2, rel=0.01)
    assert energy < 0.4 * 0.5 * standee.mass_kg * edge_speed**2
