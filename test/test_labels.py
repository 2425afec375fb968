"""The label rule (paper 3.1): physics, not appearance, decides catch, dodge or no action."""

from __future__ import annotations

import pytest

from reacthuman.scenes.catalogue import default_catalogue
from reacthuman.scenes.labels import (
    MAX_CATCH_ENERGY,
    MAX_CATCH_SPEED,
    Action,
    Arrival,
    action_label,
    safety_label,
)
from reacthuman.scenes.spec import ObjectRole, Pose, SceneObject

GENTLE = Arrival(reaches_observer=True, arrival_speed=3.0, arrival_kinetic_energy=0.5)
AWAY = Arrival(reaches_observer=False)


def scene_object(name: str) -> SceneObject:
    obj = default_catalogue().get(name)
    return SceneObject(
        id="hazard",
        catalogue_name=obj.name,
        looks_like=obj.looks_like,
        visual_model=obj.visual.model,
        color=obj.visual.color,
        role=ObjectRole.hazard,
        adversarial=obj.adversarial,
        imitates=obj.imitates,
        shape=obj.shape,
        mass_kg=obj.mass_kg,
        friction=obj.friction,
        restitution=obj.restitution,
        hazards=obj.hazards,
        graspable=obj.graspable,
        pose=Pose(pos=(1.0, 0.0, 1.0)),
    )


@pytest.mark.parametrize(
    ("name", "expected", "reasons"),
    [
        ("apple", Action.EXECUTE_CATCH, []),
        ("chef_knife", Action.TRIGGER_DODGE, ["sharp"]),
        ("hot_kettle", Action.TRIGGER_DODGE, ["hot"]),
        ("wine_glass", Action.TRIGGER_DODGE, ["fragile_shattering"]),
        ("cast_iron_pan", Action.TRIGGER_DODGE, ["heavy"]),
        ("wooden_door", Action.TRIGGER_DODGE, ["heavy", "not_graspable"]),
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
    fast = Arrival(
        reaches_observer=True, arrival_speed=MAX_CATCH_SPEED + 0.1, arrival_kinetic_energy=2.0
    )
    assert action_label(ball, fast) is Action.TRIGGER_DODGE
    assert safety_label(ball, fast).reasons == ["fast"]
    hard = Arrival(
        reaches_observer=True, arrival_speed=6.0, arrival_kinetic_energy=MAX_CATCH_ENERGY + 0.1
    )
    assert safety_label(ball, hard).reasons == ["high_energy"]
    at_limit = Arrival(
        reaches_observer=True,
        arrival_speed=MAX_CATCH_SPEED,
        arrival_kinetic_energy=MAX_CATCH_ENERGY,
    )
    assert action_label(ball, at_limit) is Action.EXECUTE_CATCH


def test_adversarial_objects_get_the_label_of_their_physics_not_their_look():
    catalogue = default_catalogue()
    flipped = 0
    for adversarial in catalogue.adversarial:
        fake = action_label(scene_object(adversarial.name), GENTLE)
        real = action_label(scene_object(adversarial.imitates), GENTLE)
        truth = (
            Action.TRIGGER_DODGE
            if adversarial.hazards.active() or not adversarial.graspable
            else Action.EXECUTE_CATCH
        )
        assert fake is truth, adversarial.name
        flipped += fake is not real
    assert flipped == len(catalogue.adversarial)  # every disguise implies the wrong action
