"""The household risk-memory bank (ICAT's (n, c, p, r) units) and its checks."""

from __future__ import annotations

import json

import pytest

from reacthuman.assets import assets_dir
from reacthuman.authoring.risk_memory import (
    BANK_FILE,
    BankError,
    Severity,
    default_bank,
    load_bank,
)
from reacthuman.scenes.catalogue import default_catalogue
from reacthuman.scenes.spec import Family, RoomType


def test_the_packaged_bank_covers_every_family_room_and_severity_with_stageable_objects():
    bank = default_bank()
    assert len(bank.units) >= 60
    for family in Family:
        assert sum(family in u.families for u in bank.units) >= 3, family
    for room in RoomType:
        assert any(room in u.rooms for u in bank.units), room
    for grade in Severity:
        assert sum(u.severity is grade for u in bank.units) >= 10, grade
    catalogue = default_catalogue()
    for unit in bank.units:
        assert all(not catalogue.get(name).adversarial for name in unit.objects)
        assert unit.reference.source and unit.reference.paraphrase
        text = unit.text()
        assert unit.conditions in text and unit.consequence in text and unit.prevention in text
    assert bank.get(bank.units[0].id) is bank.units[0]


def _bank_with(tmp_path, change):
    data = json.loads((assets_dir() / BANK_FILE).read_text())
    change(data["units"][0])
    path = tmp_path / "bank.json"
    path.write_text(json.dumps(data))
    return path, data["units"][0].get("id")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda u: u.update(families=["falls_over"]), r"families\.0: Input should be"),
        (lambda u: u.update(rooms=[]), r"rooms: List should have at least 1 item"),
        (lambda u: u.update(severity="fatal"), r"severity: Input should be 'low', 'medium'"),
        (lambda u: u.update(objects=["grand_piano"]), r"'grand_piano' is not in the catalogue"),
        (lambda u: u.update(objects=["steel_apple"]), r"adversarial look-alike.*'apple'"),
        (
            lambda u: u.update(families=["ladder_slip"]),
            r"families: ladder_slip cannot stage any of its objects.*it stages aluminium_ladder",
        ),
        (lambda u: u.pop("reference"), r"reference: Field required"),
        (lambda u: u.update(prevention="x" * 5000), r"prevention: String should have at most"),
        (lambda u: u.update(origin="made up"), r"origin: Extra inputs are not permitted"),
    ],
)
def test_a_bad_unit_is_named_with_its_field(tmp_path, change, message):
    path, unit_id = _bank_with(tmp_path, change)
    with pytest.raises(BankError, match=rf"bank\.json: unit '{unit_id}': .*{message}"):
        load_bank(path)


def test_a_bank_that_is_not_one_is_refused_with_what_is_wrong(tmp_path):
    data = json.loads((assets_dir() / BANK_FILE).read_text())
    data["units"].append(data["units"][0])
    (tmp_path / "twice.json").write_text(json.dumps(data))
    with pytest.raises(BankError, match=f"duplicate unit ids \\['{data['units'][0]['id']}'\\]"):
        load_bank(tmp_path / "twice.json")
    (tmp_path / "broken.json").write_text('{"units": [')
    with pytest.raises(BankError, match="broken.json: not valid JSON"):
        load_bank(tmp_path / "broken.json")
    (tmp_path / "list.json").write_text("[]")
    with pytest.raises(BankError, match="expected an object with 'bank_version' and a 'units'"):
        load_bank(tmp_path / "list.json")
    with pytest.raises(BankError, match="missing.json: cannot read the risk-memory bank"):
        load_bank(tmp_path / "missing.json")


def test_scenes_risks_summarises_a_bank_and_names_a_bad_unit(tmp_path):
    from helpers import run_cli

    done = run_cli("scenes", "risks", "--list")
    assert done.returncode == 0, done.stderr
    bank = default_bank()
    assert f"{len(bank.units)} units" in done.stdout
    assert all(f.value in done.stdout for f in Family) and "no unit for" not in done.stdout
    assert bank.units[-1].reference.source in done.stdout
    path, unit_id = _bank_with(tmp_path, lambda u: u.update(families=["meteor_strike"]))
    done = run_cli("scenes", "risks", "--bank", str(path))
    assert done.returncode == 1
    assert f"unit '{unit_id}': families.0: Input should be" in done.stderr
    assert "Traceback" not in done.stderr
