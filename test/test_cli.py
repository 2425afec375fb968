"""The `reacthuman` command as a user meets it: help, output, and one-line errors."""

from __future__ import annotations

import json

import pytest
from helpers import run_cli


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["scenes"],
        ["scenes", "generate"],
        ["scenes", "validate"],
        ["scenes", "show"],
        ["scenes", "families"],
        ["catalogue"],
    ],
)
def test_help_everywhere(args):
    result = run_cli(*args, "--help")
    assert result.returncode == 0
    assert "usage: reacthuman" in result.stdout


def test_generate_one_scene_and_show_it(tmp_path):
    out = tmp_path / "one"
    result = run_cli(
        "scenes", "generate", "--family", "thrown_object", "--seed", "5", "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    assert "1 scenes" in result.stdout and f"wrote 1 scenes to {out}" in result.stdout
    spec = out / "thrown_object" / "thrown_object-000005" / "spec.json"
    shown = run_cli("scenes", "show", str(spec))
    assert shown.returncode == 0
    assert "thrown_object-000005" in shown.stdout and "label" in shown.stdout


def test_summary_counts_families_labels_bands_and_adversarial_share(tmp_path):
    result = run_cli(
        "scenes",
        "generate",
        "--per-family",
        "4",
        "--family",
        "rolling_ball",
        "--out",
        str(tmp_path / "s"),
        "--quiet",
    )
    assert result.returncode == 0, result.stderr
    for text in ("rolling_ball", "labels:", "speed bands:", "slow 1", "adversarial"):
        assert text in result.stdout


def test_catalogue_json_lists_every_object_with_its_look_and_mass():
    result = run_cli("catalogue", "--json")
    assert result.returncode == 0
    objects = json.loads(result.stdout)
    assert len(objects) == 82 and sum(o["adversarial"] for o in objects) == 14
    for obj in objects:
        assert {"name", "looks_like", "mass_kg", "adversarial"} <= set(obj)
    table = run_cli("catalogue")
    assert "82 objects, 14 adversarial" in table.stdout and "foam_anvil" in table.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["scenes", "generate", "--out", "x", "--family", "tornado"], "unknown family 'tornado'"),
        (["scenes", "generate", "--out", "x", "--per-family", "-3"], "must be >= 0, got -3"),
        (["scenes", "generate", "--out", "x", "--per-family", "0"], "must be >= 1"),
        (["scenes", "generate", "--out", "x", "--seed", "4"], "--seed needs --family"),
        (
            [
                "scenes",
                "generate",
                "--out",
                "x",
                "--family",
                "door_swing",
                "--seed",
                "4",
                "--simulate",
            ],
            "--simulate validates a set's scene groups",
        ),
        (["scenes", "generate", "--out", "x", "--adversarial-rate", "2"], "must be in [0, 1]"),
        (["scenes", "validate", "no/such/dir"], "no such file or folder"),
        (["bench", "--direct", "--frames", "0", "--out", "x"], "--frames: Input should be"),
        (["catalogue", "--unlabelled"], "--unlabelled needs --sheet OUT"),
        (["catalogue", "--sheet", "x"], "--sheet writes a PNG; name it *.png"),
        (["catalogue", "--sheet", "x.png", "--resolution", "640x480"], "must be 16:9"),
        (["catalogue", "--sheet", "x.png", "--resolution", "big"], "must look like 640x360"),
        (["observe", ".", "--out", "x", "--window", "-1"], "--window: Input should be"),
        (["observe", ".", "--out", "x", "--resolution", "640x480"], "must be 16:9"),
        (["bench-sim", "--resolution", "big", "--json", "x"], "must look like 640x360"),
    ],
)
def test_bad_arguments_get_a_clear_error_and_nonzero_exit(args, message, tmp_path):
    result = run_cli(*args, cwd=tmp_path)
    assert result.returncode != 0
    assert message in result.stderr
    assert not (tmp_path / "x").exists()


def test_invalid_spec_names_file_and_field(tmp_path):
    out = tmp_path / "one"
    assert (
        run_cli(
            "scenes", "generate", "--family", "door_swing", "--seed", "0", "--out", str(out)
        ).returncode
        == 0
    )
    spec_path = out / "door_swing" / "door_swing-000000" / "spec.json"
    spec = json.loads(spec_path.read_text())
    spec["objects"][0]["mass_kg"] = -4
    spec_path.write_text(json.dumps(spec))
    for command in (["scenes", "show", str(spec_path)], ["scenes", "validate", str(out)]):
        result = run_cli(*command)
        assert result.returncode == 1
        assert "spec.json" in result.stderr and "objects.0.mass_kg" in result.stderr


def test_unwritable_output_is_one_line_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = run_cli(
        "scenes", "generate", "--per-family", "1", "--out", str(blocker / "set"), "--quiet"
    )
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert (
        len(lines) == 1 and lines[0].startswith("reacthuman: error:") and "cannot write" in lines[0]
    )


def test_unknown_catalogue_file_is_an_error(tmp_path):
    result = run_cli("catalogue", "--file", str(tmp_path / "nope.json"))
    assert result.returncode == 1 and "nope.json" in result.stderr


def test_files_that_are_not_utf8_are_named_not_tracebacks(tmp_path):
    out = tmp_path / "one"
    generated = run_cli(
        "scenes", "generate", "--family", "door_swing", "--seed", "0", "--out", str(out)
    )
    assert generated.returncode == 0
    spec_path = out / "door_swing" / "door_swing-000000" / "spec.json"
    spec_path.write_bytes(b"\xff\xfe{" + spec_path.read_bytes()[1:])
    (tmp_path / "catalogue.json").write_bytes(b"\xff\xfe[]")
    commands = [
        (["scenes", "show", str(spec_path)], "spec.json: invalid spec"),
        (["scenes", "validate", str(out)], "spec.json: invalid spec"),
        (["observe", str(spec_path), "--out", str(tmp_path / "obs")], "spec.json: invalid spec"),
        (["observe", str(out), "--out", str(tmp_path / "obs")], "spec.json: invalid spec"),
        (["catalogue", "--file", str(tmp_path / "catalogue.json")], "not UTF-8"),
    ]
    for command, message in commands:
        result = run_cli(*command)
        assert result.returncode == 1, command
        assert message in result.stderr and "Traceback" not in result.stderr, command
