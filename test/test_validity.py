"""Scene validity without the simulator: the decision moment's arithmetic, the validators on
measured truth, the twin of an adversarial scene, and the validity report."""

from __future__ import annotations

import pytest
from helpers import run_cli

from reacthuman.scenes.catalogue import default_catalogue
from reacthuman.scenes.generate import generate_scene
from reacthuman.scenes.labels import Action, intrinsic_reasons
from reacthuman.scenes.moment import (
    DEFAULT_WINDOW,
    MIN_WINDOW,
    margin_problem,
    reaction_margin,
    window_for,
)
from reacthuman.scenes.set_models import metadata_for
from reacthuman.scenes.sets import generate_set
from reacthuman.scenes.spec import Family, SpeedBand
from reacthuman.scenes.truth import ground_truth
from reacthuman.scenes.twin import MassCue, compare, neighbour_bands, twin_spec
from reacthuman.scenes.validity import validity
from reacthuman.scenes.validity_text import format_validity, validity_markdown
from reacthuman.sim.validate import group_rejection_reasons, neighbour_twins, rejection_reasons

DT = 1.0 / 240.0


def test_the_window_shrinks_before_the_margin_does():
    # Decided 1.5 s after t0: a full window leaves 0.9 s, plenty for a slow band.
    assert window_for(1.5, SpeedBand.slow, slack=0.0) == DEFAULT_WINDOW
    # Decided at 0.95 s: a slow band's 0.5 s margin leaves room for 0.45 s of window.
    assert window_for(0.95, SpeedBand.slow, slack=0.0) == pytest.approx(0.45)
    # A fast band needs 0.3 s: 0.6 s of window fits.
    assert window_for(0.95, SpeedBand.fast, slack=0.0) == pytest.approx(0.6)
    # Never below 0.3 s (the design is then rejected: see margin_problem).
    assert window_for(0.5, SpeedBand.gravity, slack=0.0) == MIN_WINDOW
    assert margin_problem(SpeedBand.gravity, reaction_margin(0.3, 0.5, None)) is not None


def test_the_margin_counts_landing_only_where_the_floor_is_an_outcome():
    assert reaction_margin(0.6, arrival_time=2.0, floor_time=0.9) == pytest.approx(0.3)
    assert reaction_margin(0.6, 2.0, 0.2, floor_resolves=False) == pytest.approx(1.4)
    assert reaction_margin(0.6, None, None) is None  # nothing is ever decided
    assert "before the freeze" in margin_problem(SpeedBand.slow, -0.1)
    assert "only 0.40 s" in margin_problem(SpeedBand.normal, 0.4)
    assert margin_problem(SpeedBand.very_fast, 0.3) is None


def _truth(spec, samples, floor=None, window=None):
    return ground_truth(spec, samples, floor, DT, window)


def test_measured_motion_that_breaks_the_decision_moment_is_rejected():
    spec = generate_scene("object_drop", 1)  # normal band: needs 0.5 s
    start = spec.intended.path[0].pos
    observer = spec.observer.pos
    # It is already where the robot stands at t0 and lands there at once.
    inside = (observer[0] + 0.3, observer[1], 0.9)
    samples = [
        (i * DT, (inside[0], inside[1], 0.9 - 0.5 * i * DT), (0.0, 0.0, -0.5)) for i in range(300)
    ]
    reasons = rejection_reasons(spec, _truth(spec, samples, floor=0.5))
    assert any("starts inside the reach zone" in r for r in reasons)
    assert any("before the freeze" in r or "only" in r for r in reasons)
    # Falling through the floor: its centre ends below it.
    sunk = [
        (i * DT, (start[0], start[1], start[2] - 0.02 * i), (0.0, 0.0, -4.8)) for i in range(200)
    ]
    assert any("through the floor" in r for r in rejection_reasons(spec, _truth(spec, sunk)))


def test_a_group_whose_speeds_at_the_hands_do_not_rise_enough_is_rejected():
    specs = [generate_scene("rolling_ball", seed) for seed in range(4)]
    truths = []
    for spec, speed in zip(specs, (1.0, 1.2, 1.4, 1.6), strict=True):
        observer = spec.observer.pos
        samples = [
            (i * DT, (observer[0] + 3.0 - speed * i * DT, observer[1], 0.1), (-speed, 0.0, 0.0))
            for i in range(600)
        ]
        truths.append(_truth(spec, samples))
    # Rotated rooms: the path runs along the world's x, fine for the zone (a cylinder).
    reasons = group_rejection_reasons(specs, truths)
    assert any("do not rise with the band by x1.8" in r for r in reasons), reasons


def test_an_adversarial_scenes_twin_has_the_genuine_physics_and_the_same_look():
    spec = next(
        s
        for seed in range(0, 64, 4)
        if (s := generate_scene("bouncing_object", seed, adversarial_rate=1.0)).adversarial
    )
    twin = twin_spec(spec)
    fake, real = spec.hazard, twin.hazard
    genuine = default_catalogue().get(fake.imitates)
    assert real.catalogue_name == genuine.name and real.mass_kg == genuine.mass_kg
    assert not twin.adversarial and real.imitates is None
    assert (real.looks_like, real.visual_model, real.color, real.shape, real.pose) == (
        fake.looks_like,
        fake.visual_model,
        fake.color,
        fake.shape,
        fake.pose,
    )
    assert twin.room == spec.room and twin.cameras == spec.cameras
    with pytest.raises(ValueError, match="no adversarial object"):
        twin_spec(twin)
    # Its neighbouring bands' twins: the same group and object, a band slower or faster.
    neighbours = neighbour_twins(spec)
    assert [band for band, _s in neighbours] == [
        b for b, _seed in neighbour_bands(spec)
    ] and 1 <= len(neighbours) <= 2
    for _band, other in neighbours:
        assert other.group == spec.group and other.hazard.catalogue_name == genuine.name


def _truth_along(spec, offset):
    """A hazard moving straight at 1 m/s, ``offset`` m to the side of its path."""
    observer = spec.observer.pos
    samples = [
        (i * DT, (observer[0] + 3.0 - i * DT, observer[1] + offset, 1.0), (-1.0, 0.0, 0.0))
        for i in range(600)
    ]
    return ground_truth(spec, samples, None, DT)


def test_the_twin_test_needs_ten_centimetres_here_and_at_the_neighbouring_bands(tmp_path):
    spec = next(
        s
        for seed in range(1, 64, 4)  # a normal band: neighbours slow and fast
        if (s := generate_scene("bouncing_object", seed, adversarial_rate=1.0)).adversarial
    )
    frames, twin_frames = tmp_path / "a", tmp_path / "b"
    frames.mkdir()
    twin_frames.mkdir()
    import cv2
    import numpy as np

    image = np.zeros((36, 64, 3), np.uint8)
    cv2.imwrite(str(frames / "closeup_0000ms.png"), image)
    image[:10, :10] = 255  # 4 % of the close-up's pixels differ
    cv2.imwrite(str(twin_frames / "closeup_0000ms.png"), image)
    truth = _truth_along(spec, 0.0)
    near = [(SpeedBand.slow, _truth_along(spec, 0.3)), (SpeedBand.fast, _truth_along(spec, 0.3))]
    test = compare(spec, truth, frames, _truth_along(spec, 0.12), twin_frames, near)
    assert test.passed and test.neighbour_gaps == {SpeedBand.slow: 0.3, SpeedBand.fast: 0.3}
    close = compare(spec, truth, frames, _truth_along(spec, 0.05), twin_frames, near)
    assert not close.passed and "5.0 cm (needs 10)" in close.reason()
    confounded = [(SpeedBand.slow, _truth_along(spec, 0.02)), near[1]]
    speed = compare(spec, truth, frames, _truth_along(spec, 0.12), twin_frames, confounded)
    assert not speed.passed and "at the slow band" in speed.reason()


def _bouncing(spec, rebound):
    """A hazard coming down onto a counter at 0.15 s and rising ``rebound`` m off it."""
    observer = spec.observer.pos
    samples = []
    for i in range(600):
        t = i * DT
        up = min(t - 0.15, 0.45 - t) if t > 0.15 else 0.0  # up to 0.3 s, then down again
        z = 1.0 + (2.0 * (0.15 - t) if t <= 0.15 else rebound * max(up, 0.0) / 0.15)
        samples.append((t, (observer[0] + 3.0 - t, observer[1], z), (-1.0, 0.0, 0.0)))
    return ground_truth(spec, samples, None, DT)


def test_the_twin_test_reads_the_cue_the_way_a_person_does(tmp_path):
    # A ball that thuds reads heavier than one that rebounds: a dangerous look-alike must
    # show heavier than its twin and a harmless one lighter, or a person reads it backwards
    # (a steel apple rebounds higher than an apple, and was caught).
    spec = next(
        s
        for seed in range(0, 64, 4)
        if (s := generate_scene("bouncing_object", seed, adversarial_rate=1.0)).adversarial
    )
    dangerous = bool(intrinsic_reasons(default_catalogue().get(spec.hazard.catalogue_name)))
    frames, twin_frames = tmp_path / "a", tmp_path / "b"
    frames.mkdir()
    twin_frames.mkdir()
    import cv2
    import numpy as np

    image = np.zeros((36, 64, 3), np.uint8)
    cv2.imwrite(str(frames / "closeup_0300ms.png"), image)
    image[:10, :10] = 255  # the frame at 0.3 s, the top of the rebound
    cv2.imwrite(str(twin_frames / "closeup_0300ms.png"), image)
    thud, rebound = _bouncing(spec, 0.02), _bouncing(spec, 0.3)
    heavy = compare(spec, thud, frames, rebound, twin_frames, cue=MassCue.bounce)
    light = compare(spec, rebound, frames, thud, twin_frames, cue=MassCue.bounce)
    assert heavy.shows_heavier is True and light.shows_heavier is False
    assert heavy.dangerous == light.dangerous == dangerous
    right, wrong = (heavy, light) if dangerous else (light, heavy)
    assert right.passed and right.trajectory_gap >= 0.1
    assert not wrong.passed and "a person reads the cue the wrong way" in wrong.reason()
    # Without a mass cue the direction is not judged.
    plain = compare(spec, rebound, frames, thud, twin_frames)
    assert plain.passed and plain.shows_heavier is None


def test_the_validity_report_has_every_family_band_and_the_papers_labels(tmp_path):
    manifest, scenes = generate_set(per_family=4, families=[Family.door_swing, Family.ceiling_drop])
    report = validity(scenes, manifest.skipped)
    assert {(r.family, r.band) for r in report.moments} == {
        *(
            (Family.door_swing, b)
            for b in (SpeedBand.slow, SpeedBand.normal, SpeedBand.fast, SpeedBand.very_fast)
        ),
        (Family.ceiling_drop, SpeedBand.gravity),
    }
    assert all(r.kept == r.scenes for r in report.moments)  # designed to keep their margins
    door = next(r for r in report.sweeps if r.family is Family.door_swing)
    assert door.groups == 1 and door.rising == 1 and door.ratio.min >= 2.0
    text = format_validity(report)
    assert "paper  141" in text and "door_swing" in text
    # Doors are too large to hold, ceiling drops too fast: always-dodge scores all but the
    # ceiling's no-action scene, always-catch nothing.
    dodges = report.labels[Action.TRIGGER_DODGE]
    assert report.always_dodge == round(100 * dodges / len(scenes), 1) and report.always_catch == 0
    assert "always-dodge   SAA" in text and "above 56 %" in text
    assert [(y.family, y.kept, y.groups) for y in report.yields] == [
        (Family.ceiling_drop, 4, 4),
        (Family.door_swing, 1, 1),
    ]
    section = "\n".join(validity_markdown(report))
    assert "figures intended" in section.lower()
    # door_swing: 4 swept scenes in one rising group; ceiling_drop is not swept.
    door_row = next(line for line in section.splitlines() if line.startswith("| door_swing |"))
    assert "| 4 | 1/1 |" in door_row and "| 4/4 |" in door_row and "| 1/1, x" in door_row
    ceiling_row = next(line for line in section.splitlines() if "| ceiling_drop |" in line)
    assert ceiling_row.endswith("| - | - |")
    assert "paper 141" in section
    assert metadata_for(scenes[0].spec).moment.window == scenes[0].spec.timing.window


def test_the_validity_command_prints_the_report_and_writes_json(tmp_path):
    made = run_cli(
        "scenes",
        "generate",
        "--family",
        "pendulum_swing",
        "--per-family",
        "4",
        "--out",
        str(tmp_path / "set"),
        "--quiet",
    )
    assert made.returncode == 0, made.stderr
    shown = run_cli("scenes", "validity", str(tmp_path / "set"), "--json", str(tmp_path / "v.json"))
    assert shown.returncode == 0, shown.stderr
    assert "1. Decision moment" in shown.stdout and "pendulum_swing" in shown.stdout
    assert '"moments"' in (tmp_path / "v.json").read_text()
    missing = run_cli("scenes", "validity", str(tmp_path / "nowhere"))
    assert missing.returncode == 1 and "not a scene set" in missing.stderr


def test_a_bench_report_opens_with_the_validity_of_its_scenes(tmp_path):
    from test_scoring_aggregate import row

    from reacthuman.scenes.labels import Action
    from reacthuman.scoring.report import write_report

    _manifest, scenes = generate_set(per_family=4, families=[Family.door_swing])
    decided = row(0, "m", Action.TRIGGER_DODGE, Action.TRIGGER_DODGE)
    md, page = write_report([decided], tmp_path, "t", validity=validity(scenes))
    text = md.read_text()
    assert text.index("## Validity of the scenes") < text.index("## SAA per family")
    assert "| door_swing |" in text and "Validity of the scenes" in page.read_text()
