"""The Genesis simulation: every family to a frozen three-view window with exact ground truth.

These run the real simulator (CPU). One observer, and so one Genesis process state and one
set of compiled kernels, serves the whole session; each scene is simulated once.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from conftest import run_cli

from reacthuman.observation import Observation
from reacthuman.scenes.generate import generate_scene
from reacthuman.scenes.spec import CameraName, Family
from reacthuman.sim.cache import ObservationCache
from reacthuman.sim.observe import Observer, observe_all
from reacthuman.sim.settings import RenderSettings
from reacthuman.sim.truth import GroundTruth

pytestmark = [pytest.mark.genesis, pytest.mark.slow]


@pytest.fixture(scope="session")
def observer(tmp_path_factory) -> Observer:
    return Observer(RenderSettings(), ObservationCache(tmp_path_factory.mktemp("cache")))


@pytest.fixture(scope="session")
def first_of_each_family(observer):
    """Seed 1 of every family (normal speed in the swept ones), simulated once."""
    specs = {family: generate_scene(family, 1) for family in Family}
    return {family: (spec, observer.observe(spec)) for family, spec in specs.items()}


def test_every_family_simulates_to_three_views_and_ground_truth(first_of_each_family):
    import cv2

    for family, (spec, result) in first_of_each_family.items():
        assert result.status in ("ok", "rejected"), (family, result.reasons)
        observation = Observation.load(result.folder / "observation.json")
        assert observation.frame_times == [0.0, 0.15, 0.3, 0.45, 0.6]
        assert {f.view for f in observation.frames} == set(CameraName)
        assert len(observation.frames) == 15
        for frame in observation.frames:
            image = cv2.imread(str(result.folder / frame.file))
            assert image.shape == (360, 640, 3), frame.file
            assert image.std() > 5  # not a blank picture
        truth = json.loads((result.folder / "ground_truth.json").read_text())
        for key in ("action", "impact_point", "time_to_floor", "trajectory"):
            assert key in truth
        assert truth["trajectory"][1]["t"] - truth["trajectory"][0]["t"] == pytest.approx(
            1 / 60, abs=1e-4
        )
        assert truth["scene_id"] == spec.scene_id


def test_most_families_behave_as_designed(first_of_each_family):
    rejected = [f.value for f, (_s, r) in first_of_each_family.items() if r.status == "rejected"]
    assert len(rejected) <= 3, rejected


def test_the_observation_holds_no_physics_and_no_labels(first_of_each_family):
    spec, result = first_of_each_family[Family.object_drop]
    text = (result.folder / "observation.json").read_text()
    for secret in (
        "mass",
        "friction",
        "action",
        "impact",
        "EXECUTE",
        "DODGE",
        "adversarial",
        spec.hazard.catalogue_name,
    ):
        assert secret not in text
    observation = Observation.load(result.folder / "observation.json")
    assert [e.looks_like for e in observation.legend] == [o.looks_like for o in spec.objects]


def _gravity_from(truth: GroundTruth, top: float) -> float:
    """Fit z = a t^2 + b t + c to the free flight below ``top`` and before the floor."""
    flight = [
        (p.t, p.pos[2])
        for p in truth.trajectory
        if p.pos[2] < top and p.t < truth.time_to_floor - 0.03
    ]
    t, z = np.array(flight).T
    assert len(t) >= 6
    return -2.0 * np.polyfit(t, z, 2)[0]


def test_falling_objects_accelerate_at_g(first_of_each_family):
    spec, result = first_of_each_family[Family.ceiling_drop]
    truth = result.truth
    start = truth.trajectory[0].pos[2]
    assert _gravity_from(truth, start + 1.0) == pytest.approx(9.81, rel=0.01)
    spec, result = first_of_each_family[Family.object_drop]
    table = next(f for f in spec.furniture if f.kind.value == "table")
    clear = table.pose.pos[2] + table.size[2] / 2 - max(spec.hazard.shape.size) / 2 - 0.05
    assert _gravity_from(result.truth, clear) == pytest.approx(9.81, rel=0.01)


def test_same_spec_in_another_process_gives_identical_bytes(first_of_each_family, tmp_path):
    spec, result = first_of_each_family[Family.door_swing]
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(spec.to_json())
    run = run_cli(
        "observe",
        str(spec_file),
        "--out",
        str(tmp_path / "out"),
        "--cache",
        str(tmp_path / "cache"),
        "--quiet",
    )
    assert run.returncode == 0, run.stderr
    other = tmp_path / "out" / "door_swing" / spec.scene_id
    assert (other / "ground_truth.json").read_bytes() == (
        result.folder / "ground_truth.json"
    ).read_bytes()
    for png in sorted((result.folder / "frames").glob("*.png")):
        assert (other / "frames" / png.name).read_bytes() == png.read_bytes(), png.name


def test_a_second_observation_comes_from_the_cache(observer, first_of_each_family):
    spec, _result = first_of_each_family[Family.rolling_ball]
    again = observer.observe(spec)
    assert again.cached and again.seconds < 1.0


def test_ground_truth_follows_the_hazard_point(first_of_each_family):
    spec, result = first_of_each_family[Family.door_swing]
    first = result.truth.trajectory[0].pos
    assert math.dist(first, spec.intended.path[0].pos) < 0.02  # the door's free edge
    assert result.truth.reaches_observer == spec.intended.reaches_observer


def test_a_scene_that_cannot_be_built_fails_alone(observer, tmp_path):
    good = generate_scene("ceiling_drop", 2)
    hazard = good.hazard
    walled = good.model_copy(
        update={
            "objects": [
                hazard.model_copy(
                    update={
                        "pose": hazard.pose.model_copy(
                            update={"pos": (good.room.size[0], 0.0, 1.0)}
                        )
                    }
                )
            ]
        }
    )
    alien = generate_scene("ceiling_drop", 3)
    alien = alien.model_copy(
        update={"objects": [alien.hazard.model_copy(update={"visual_model": "flying_saucer"})]}
    )
    results = observe_all([walled, alien, good], observer, tmp_path / "out")
    assert [r.status for r in results][:2] == ["failed", "failed"]
    assert "inside a wall" in results[0].reasons[0]
    assert "flying_saucer" in results[1].reasons[0]
    assert results[2].status in ("ok", "rejected")


def test_an_interrupted_run_resumes_from_the_cache(tmp_path, observer):
    settings = observer.settings
    cache = ObservationCache(tmp_path / "cache")
    fresh = Observer(settings, cache)
    fresh._simulator = observer.simulator  # share the session's Genesis
    specs = [generate_scene("object_drop", 2), generate_scene("object_drop", 3)]
    calls = []
    real = fresh._simulate_into

    def interrupted(spec, folder):
        calls.append(spec.scene_id)
        if len(calls) == 2:
            (folder / "half-written.png").write_bytes(b"")
            raise KeyboardInterrupt
        real(spec, folder)

    fresh._simulate_into = interrupted
    with pytest.raises(KeyboardInterrupt):
        observe_all(specs, fresh, None)
    assert cache.get(specs[0], settings) is not None and cache.get(specs[1], settings) is None
    leftovers = [p.name for p in (tmp_path / "cache").rglob("*") if p.name.startswith(".")]
    assert leftovers == []
    fresh._simulate_into = real
    results = observe_all(specs, fresh, None)
    assert [r.cached for r in results] == [True, False]


def test_observe_cli_writes_frames_observation_truth_and_a_summary(tmp_path):
    run = run_cli(
        "scenes",
        "generate",
        "--family",
        "pendulum_swing",
        "--seed",
        "2",
        "--out",
        str(tmp_path / "set"),
    )
    assert run.returncode == 0
    run = run_cli(
        "observe",
        str(tmp_path / "set"),
        "--out",
        str(tmp_path / "obs"),
        "--cache",
        str(tmp_path / "cache"),
        "--frames",
        "3",
    )
    assert run.returncode == 0, run.stderr
    scene = tmp_path / "obs" / "pendulum_swing" / "pendulum_swing-000002"
    assert sorted(p.name for p in (scene / "frames").iterdir())[:3] == [
        "closeup_0000ms.png",
        "closeup_0300ms.png",
        "closeup_0600ms.png",
    ]
    assert (scene / "observation.json").is_file() and (scene / "ground_truth.json").is_file()
    summary = json.loads((tmp_path / "obs" / "observe_summary.json").read_text())
    assert summary["scenes"][0]["scene_id"] == "pendulum_swing-000002"
    bad = run_cli(
        "observe", str(tmp_path / "set"), "--out", str(tmp_path / "x"), "--resolution", "640x480"
    )
    assert bad.returncode == 1 and "16:9" in bad.stderr


def test_the_episode_resumes_exactly_where_it_froze(observer):
    """After the window the scene is left at the freeze: stepping on replays ground truth."""
    from reacthuman.sim.settings import DT

    spec = generate_scene("rolling_ball", 5)
    episode = observer.simulator.build(spec, observer.settings)
    try:
        truth = episode.run()
        window_steps = round(spec.timing.window / DT)
        replay = []
        for _ in range(120):
            episode.scene.step()
            replay.append(episode.hazard_point())
        recorded = {round(p.t / DT): p.pos for p in truth.trajectory}
        checked = 0
        for k, point in enumerate(replay, start=1):
            step = window_steps + k
            if step in recorded:
                assert tuple(round(c, 5) + 0.0 for c in point) == recorded[step]
                checked += 1
        assert checked >= 25
    finally:
        observer.simulator.destroy(episode)
