"""Balanced sets: schedule, byte-identical regeneration, export and import, bad input."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import run_cli

from reacthuman.scenes.labels import Action
from reacthuman.scenes.set_files import SetReadError, read_set, write_set
from reacthuman.scenes.set_models import SetError
from reacthuman.scenes.set_summary import summarise
from reacthuman.scenes.sets import generate_set
from reacthuman.scenes.spec import Family


def tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def test_default_set_has_306_scenes_18_per_family(default_set):
    manifest, scenes = default_set
    assert len(scenes) == 306 and manifest.per_family == 18
    counts = summarise(scenes)
    assert counts["family"] == {f.value: 18 for f in Family}
    assert set(counts["label"]) == {a.value for a in Action}
    # Groups no design can give a decision moment are skipped, each with its reason.
    assert all("decision moment" in skip.reason for skip in manifest.skipped)
    assert len(manifest.skipped) < 40


@pytest.mark.slow  # a fresh process generates the whole default set
def test_a_set_generated_in_another_process_is_byte_identical(tmp_path, default_set):
    """`scenes generate` in a fresh process writes the very bytes this process's default set
    writes: a scene set is a pure function of its arguments."""
    a, b = tmp_path / "A", tmp_path / "B"
    result = run_cli("scenes", "generate", "--per-family", "18", "--out", str(a), "--quiet")
    assert result.returncode == 0, result.stderr
    write_set(b, *default_set)
    files_a, files_b = tree(a), tree(b)
    assert files_a == files_b
    assert sum(name.endswith("spec.json") for name in files_a) == 306
    assert len({name.split("/")[0] for name in files_a if "/" in name}) == 17


def test_write_then_read_round_trips(tmp_path, default_set):
    manifest, scenes = default_set
    write_set(tmp_path / "set", manifest, scenes)
    manifest2, scenes2 = read_set(tmp_path / "set")
    assert manifest2 == manifest
    assert [s.spec for s in scenes2] == [s.spec for s in scenes]
    assert [s.metadata for s in scenes2] == [s.metadata for s in scenes]


def test_metadata_carries_label_band_adversarial_and_safety(default_set):
    _manifest, scenes = default_set
    meta = json.loads(scenes[0].metadata.model_dump_json())
    for key in ("label", "speed_band", "adversarial", "safety"):
        assert key in meta


def test_reading_reports_every_corrupt_or_edited_file(tmp_path):
    manifest, scenes = generate_set(per_family=2, families=[Family.object_drop, Family.door_swing])
    root = write_set(tmp_path / "set", manifest, scenes)
    (root / "object_drop/object_drop-000000/spec.json").write_text("{broken")
    meta_path = root / "door_swing/door_swing-000001/metadata.json"
    meta = json.loads(meta_path.read_text())
    meta["label"] = "EXECUTE_CATCH"
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(SetReadError) as info:
        read_set(root)
    problems = info.value.problems
    assert len(problems) == 2
    assert "object_drop-000000/spec.json" in problems[0]
    assert "door_swing-000001/metadata.json" in problems[1] and "label" in problems[1]


def test_existing_set_is_replaced_but_other_folders_are_never_overwritten(tmp_path):
    manifest, scenes = generate_set(per_family=1, families=[Family.object_drop])
    out = tmp_path / "out"
    write_set(out, manifest, scenes)
    write_set(out, manifest, scenes)  # replacing a set is fine
    assert (out / "set.json").is_file()
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.tex").write_text("do not lose me")
    with pytest.raises(SetError, match="not empty and not a scene set"):
        write_set(precious, manifest, scenes)
    assert (precious / "thesis.tex").read_text() == "do not lose me"
    assert sorted(os.listdir(tmp_path)) == ["out", "precious"]  # no temporary leftovers


def test_unwritable_output_leaves_nothing_behind(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    manifest, scenes = generate_set(per_family=1, families=[Family.object_drop])
    with pytest.raises(SetError, match="cannot write"):
        write_set(blocker / "set", manifest, scenes)
    assert sorted(os.listdir(tmp_path)) == ["a_file"]


def test_a_generated_set_validates_with_the_cli(tmp_path):
    manifest, scenes = generate_set(per_family=3, families=[Family.pendulum_swing])
    root = write_set(tmp_path / "set", manifest, scenes)
    result = run_cli("scenes", "validate", str(root))
    assert result.returncode == 0, result.stderr
    assert "all 3 scenes valid" in result.stdout


def test_a_rejected_group_is_skipped_and_the_schedule_moves_on():
    from reacthuman.scenes.truth import ground_truth

    def check(spec):
        if spec.group == 0:
            return ["the cup never leaves the table"], None, None
        point = spec.intended.path[0].pos
        samples = [(0.01 * i, point, (0.0, 0.0, 0.0)) for i in range(10)]
        return [], ground_truth(spec, samples, None, 0.01), None

    manifest, scenes = generate_set(per_family=6, families=[Family.rolling_ball], check=check)
    assert [s.spec.seed for s in scenes] == [4, 5, 6, 7, 8, 9]  # groups 1 and 2
    assert manifest.skipped[0].seeds == [0, 1, 2, 3]
    assert "the cup never leaves the table" in manifest.skipped[0].reason
    for scene in scenes:  # labelled from the (motionless) measured truth
        assert scene.metadata.label_source == "simulated"
        assert scene.metadata.label is Action.NO_ACTION


def test_simulated_labels_survive_a_write_and_read(tmp_path):
    from reacthuman.scenes.truth import ground_truth

    def check(spec):
        return [], ground_truth(spec, [(0.0, (9.0, 9.0, 1.0), (0.0, 0.0, 0.0))], None, 0.01), None

    manifest, scenes = generate_set(per_family=2, families=[Family.door_swing], check=check)
    write_set(tmp_path / "s", manifest, scenes)
    _manifest, again = read_set(tmp_path / "s")
    assert [s.metadata for s in again] == [s.metadata for s in scenes]


def test_a_set_starts_at_any_first_seed_and_takes_seven_digit_ids():
    """A leaderboard keeps a private block: every family's schedule starts at the seed given
    (a swept family at the group holding it), and ids take any non-negative seed."""
    manifest, scenes = generate_set(
        per_family=4, families=[Family.rolling_ball, Family.ceiling_drop], first_seed=9_876_545
    )
    rolling = [s.spec.seed for s in scenes if s.spec.family is Family.rolling_ball]
    ceiling = [s.spec.seed for s in scenes if s.spec.family is Family.ceiling_drop]
    assert rolling == [9_876_544, 9_876_545, 9_876_546, 9_876_547]  # group 2,469,136 whole
    assert ceiling[:1] == [9_876_545] and manifest.first_seed == 9_876_545
    assert scenes[0].spec.scene_id == "rolling_ball-9876544"
    with pytest.raises(SetError, match="first seed must be >= 0"):
        generate_set(per_family=1, families=[Family.rolling_ball], first_seed=-1)


def test_the_first_seed_option_is_checked_with_a_one_line_error(tmp_path):
    for args, message in (
        (["--first-seed", "x1"], "argument --first-seed: expected a whole number, got 'x1'"),
        (["--first-seed", "-5"], "argument --first-seed: must be >= 0, got -5"),
        (
            ["--first-seed", "7", "--family", "rolling_ball", "--seed", "3"],
            "--first-seed starts a set's schedule; --seed names one scene",
        ),
    ):
        result = run_cli("scenes", "generate", "--out", str(tmp_path / "s"), *args)
        assert result.returncode != 0 and message in result.stderr, result.stderr
