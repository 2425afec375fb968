"""The object catalogue: the paper's 82 objects, 14 adversarial, physically consistent data."""

from __future__ import annotations

import json

import pytest

from reacthuman.assets import assets_dir
from reacthuman.scenes.catalogue import (
    HEAVY_MASS_KG,
    CatalogueError,
    default_catalogue,
    load_catalogue,
    parse_catalogue,
    volume,
)


def raw_catalogue() -> dict:
    return json.loads((assets_dir() / "catalogue.json").read_text())


def test_catalogue_holds_82_objects_of_which_14_adversarial():
    catalogue = default_catalogue()
    assert len(catalogue) == 82
    assert len(catalogue.adversarial) == 14
    assert len({o.name for o in catalogue.objects}) == 82


def test_the_papers_adversarial_examples_are_present_and_imitate_genuine_objects():
    catalogue = default_catalogue()
    for name, imitated in [
        ("foam_anvil", "cast_iron_anvil"),
        ("steel_apple", "apple"),
        ("lead_core_tennis_ball", "tennis_ball"),
        ("foam_mirror", "wall_mirror"),
        ("hollow_prop_door", "wooden_door"),
        ("foam_ceiling_panel", "ceiling_panel"),
        ("lead_sandbag", "bean_bag"),
        ("solid_steel_can", "soda_can"),
    ]:
        obj = catalogue.get(name)
        assert obj.adversarial and obj.imitates == imitated
        genuine = catalogue.get(imitated)
        assert not genuine.adversarial
        assert obj.looks_like == genuine.looks_like and obj.visual == genuine.visual
        assert obj.shape == genuine.shape


def test_adversarial_look_contradicts_physics():
    """Each disguise flips at least one thing that decides catch vs dodge."""
    catalogue = default_catalogue()
    for obj in catalogue.adversarial:
        genuine = catalogue.get(obj.imitates)
        assert obj.hazards != genuine.hazards or obj.graspable != genuine.graspable, obj.name


def test_heavy_flag_follows_mass_and_densities_are_plausible():
    for obj in default_catalogue().objects:
        assert obj.hazards.heavy == (obj.mass_kg >= HEAVY_MASS_KG)
        assert 5.0 <= obj.mass_kg / volume(obj.shape) <= 12000.0


def test_every_catalogue_object_is_used_by_some_family():
    from reacthuman.scenes.families import REGISTRY
    from reacthuman.scenes.families.base import adversarial_pool, object_pool

    catalogue = default_catalogue()
    used = {
        o.name
        for sampler in REGISTRY.values()
        for o in object_pool(sampler, catalogue) + adversarial_pool(sampler, catalogue)
    }
    # The hollow prop door is as large as the wooden door it imitates: both are dodged, so
    # it probes nothing and is never staged (families.base.adversarial_pool).
    assert {o.name for o in catalogue.objects} - used == {"hollow_prop_door"}


def test_large_and_shattering_follow_extent_and_material():
    """Flags a person could check against the object: too long to hold in two hands is not
    graspable, glass shatters and nothing else does (issue 51)."""
    from reacthuman.scenes.catalogue import LARGE_EXTENT_M, longest_extent

    for obj in default_catalogue().objects:
        assert obj.graspable == (longest_extent(obj.shape) <= LARGE_EXTENT_M), obj.name
        words = obj.material.replace(",", " ").split()
        assert obj.hazards.fragile_shattering == ("glass" in words), obj.name


def test_a_glass_front_without_the_shattering_flag_is_rejected():
    data = raw_catalogue()
    frame = next(o for o in data["objects"] if o["name"] == "picture_frame")
    frame["hazards"]["fragile_shattering"] = False
    with pytest.raises(CatalogueError, match="picture_frame.*fragile_shattering must be True"):
        parse_catalogue(data)
    door = next(o for o in data["objects"] if o["name"] == "wooden_door")
    frame["hazards"]["fragile_shattering"] = True
    door["graspable"] = True
    with pytest.raises(CatalogueError, match="wooden_door.*graspable must be False"):
        parse_catalogue(data)


def test_bad_field_is_reported_with_object_and_field():
    data = raw_catalogue()
    data["objects"][3]["mass_kg"] = -1
    with pytest.raises(CatalogueError, match=r"'wine_glass'.*mass_kg"):
        parse_catalogue(data)


def test_inconsistent_heavy_flag_is_rejected():
    data = raw_catalogue()
    apple = next(o for o in data["objects"] if o["name"] == "apple")
    apple["hazards"]["heavy"] = True
    with pytest.raises(CatalogueError, match="'apple'.*heavy"):
        parse_catalogue(data)


def test_adversarial_that_looks_different_from_its_original_is_rejected():
    data = raw_catalogue()
    anvil = next(o for o in data["objects"] if o["name"] == "foam_anvil")
    anvil["looks_like"] = "a foam anvil"
    with pytest.raises(CatalogueError, match="'foam_anvil'.*looks_like"):
        parse_catalogue(data)


def test_unknown_imitated_object_and_duplicates_are_rejected():
    data = raw_catalogue()
    data["objects"][-1]["imitates"] = "unicorn"
    with pytest.raises(CatalogueError, match="unicorn"):
        parse_catalogue(data)
    data = raw_catalogue()
    data["objects"].append(data["objects"][0])
    with pytest.raises(CatalogueError, match="duplicate.*ceramic_plate"):
        parse_catalogue(data)


def test_unreadable_and_malformed_files_name_the_file(tmp_path):
    with pytest.raises(CatalogueError, match="missing.json"):
        load_catalogue(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CatalogueError, match="bad.json.*not valid JSON"):
        load_catalogue(bad)


def test_unknown_object_lookup_names_it():
    with pytest.raises(KeyError, match="flying_saucer"):
        default_catalogue().get("flying_saucer")


def test_the_scenes_guide_publishes_every_objects_label_rule():
    """The per-object table in docs/scenes.md is what `reacthuman catalogue --markdown`
    prints, so it cannot drift from the catalogue or the label rule."""
    from helpers import REPO, run_cli

    printed = run_cli("catalogue", "--markdown")
    assert printed.returncode == 0, printed.stderr
    table = printed.stdout.strip()
    assert table in (REPO / "docs" / "scenes.md").read_text()
    rows = table.splitlines()[2:]
    assert len(rows) == len(default_catalogue())
    plate = next(r for r in rows if r.startswith("| ceramic_plate |"))
    assert "catch, unless" in plate
    assert "dodge (sharp)" in next(r for r in rows if r.startswith("| chef_knife |"))


def test_two_genuine_objects_drawn_alike_are_rejected():
    data = raw_catalogue()
    by_name = {o["name"]: o for o in data["objects"]}
    by_name["orange"]["visual"] = dict(by_name["apple"]["visual"])
    with pytest.raises(CatalogueError, match="'orange'.*that of 'apple'"):
        parse_catalogue(data)
