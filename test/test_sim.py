"""The Genesis simulation: every family to a frozen three-view window with exact ground truth.

These run the real simulator (CPU). One observer, and so one Genesis process state and one
set of compiled kernels, serves the whole session; each scene is simulated once.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from helpers import run_cli

from reacthuman.observation import Observation, frame_name
from reacthuman.scenes.catalogue import default_catalogue
from reacthuman.scenes.generate import generate_scene
from reacthuman.scenes.moment import REACTION_MARGIN
from reacthuman.scenes.sets import default_scenes
from reacthuman.scenes.spec import CameraName, Family, SpeedBand
from reacthuman.scenes.truth import GroundTruth
from reacthuman.sim.cache import ObservationCache
from reacthuman.sim.observe import Observer, export, observe_all
from reacthuman.sim.settings import RenderSettings

pytestmark = [pytest.mark.genesis, pytest.mark.slow]


@pytest.fixture(scope="session")
def observer(tmp_path_factory) -> Observer:
    return Observer(RenderSettings(), ObservationCache(tmp_path_factory.mktemp("cache")))


@pytest.fixture(scope="session")
def first_of_each_family(observer):
    """The main job's scenes (one per family, ``default_scenes``), simulated once."""
    specs = {scene.spec.family: scene.spec for scene in default_scenes()}
    return {family: (spec, observer.observe(spec)) for family, spec in specs.items()}


def test_every_family_simulates_to_three_views_and_ground_truth(first_of_each_family):
    import cv2

    for family, (spec, result) in first_of_each_family.items():
        assert result.status in ("ok", "rejected"), (family, result.reasons)
        observation = Observation.load(result.folder / "observation.json")
        # The scene's own window: 0.6 s, shorter where a hazard is too fast to leave both.
        assert observation.window == spec.timing.window <= 0.6
        assert observation.frame_times == RenderSettings().frame_times(spec.timing.window)
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


def test_the_main_jobs_scenes_pass_validation(first_of_each_family):
    """``DEFAULT_SCENE_SEEDS`` names scenes the validated set keeps: none may be rejected."""
    rejected = {
        f.value: r.reasons for f, (_s, r) in first_of_each_family.items() if r.status != "ok"
    }
    assert not rejected, rejected


def test_at_the_freeze_the_hazard_is_under_way_and_unresolved(first_of_each_family):
    """The decision moment, measured: the hazard starts outside the reach zone, and arrives
    or lands at least its band's reaction margin after the freeze (scenes.moment)."""
    for family, (spec, result) in first_of_each_family.items():
        if result.status != "ok":
            continue
        truth = result.truth
        assert not truth.starts_in_reach, spec.scene_id
        if truth.reaction_margin is not None:
            assert truth.reaction_margin >= REACTION_MARGIN[spec.speed_band], spec.scene_id
        assert truth.lowest_center > -0.25 and truth.final_center > -0.02, family


def test_observe_and_bench_show_the_same_g1_and_the_same_truth(observer, first_of_each_family):
    """One robot: `observe` and `bench` (and the node graph, which plays scenes the same way)
    render the G1 standing under its policy and measure the same ground truth."""
    from reacthuman.runner import play
    from reacthuman.spine.controller import make_controller

    spec, result = first_of_each_family[Family.furniture_tip]
    played = play(observer.simulator, spec, observer.settings, make_controller("g1"))
    try:
        assert played.episode.g1 is not None  # the G1, not a stand-in figure
        assert played.truth == result.truth
        import cv2

        for (view, t), image in played.frames.items():
            cached = cv2.imread(str(result.folder / "frames" / frame_name(view, t)))
            assert np.array_equal(cached, image[:, :, ::-1]), (view, t)
    finally:
        observer.simulator.destroy(played.episode)


def test_a_thin_panel_landing_flat_stays_above_the_floor(observer):
    """Genesis's plane let a 2 cm panel dropped flat from 3 m fall 18 m through it; the floor
    is a slab and the panel, slapping down at 11 m/s from a hall ceiling, stays on it."""
    spec = next(
        s
        for s in (generate_scene("ceiling_drop", seed, 1.0) for seed in range(40))
        if s.hazard.shape.size[2] <= 0.02
    )
    hazard = spec.hazard.model_copy(update={"ang_vel": (0.0, 0.0, 0.0)})  # flat all the way
    flat = spec.model_copy(update={"objects": [hazard]})
    episode = observer.simulator.build(flat, observer.settings)
    try:
        truth = episode.run()
    finally:
        observer.simulator.destroy(episode)
    assert truth.lowest_center > -0.25
    assert truth.final_center == pytest.approx(hazard.shape.size[2] / 2, abs=0.01)


def test_an_adversarial_object_must_show_its_physics_in_the_window(observer):
    """The twin test (scenes.twin): a look-alike bouncing onto a counter comes back up as its
    material does (a foam bowling ball rises where a bowling ball thuds, a lead-cored tennis
    ball thuds where a tennis ball rises), plainly, and unlike its twin a band slower or
    faster; a foam ceiling panel falls exactly like a gypsum one (no air drag), so that scene
    cannot be told from its twin and is rejected. (This is why the generator puts no
    look-alike in a free fall; the foam panel is swapped in by hand here.)"""
    from reacthuman.sim.validate import SceneCheck

    check = SceneCheck(observer)
    ball = next(  # a normal band: its neighbours are the slow and the fast one
        s
        for seed in range(1, 80, 4)
        if (s := generate_scene("bouncing_object", seed, 1.0)).adversarial
    )
    reasons, truth, twin = check(ball)
    assert twin is not None and twin.twin == ball.hazard.imitates
    assert twin.passed and not reasons, (twin, reasons)
    assert set(twin.neighbour_gaps) == {SpeedBand.slow, SpeedBand.fast}
    assert min(twin.trajectory_gap, *twin.neighbour_gaps.values()) >= 0.10
    gypsum = next(
        s
        for s in (generate_scene("ceiling_drop", seed) for seed in range(40))
        if s.hazard.catalogue_name == "ceiling_panel"
    )
    foam = default_catalogue().get("foam_ceiling_panel")
    hazard = gypsum.hazard.model_copy(
        update={
            "catalogue_name": foam.name,
            "adversarial": True,
            "imitates": "ceiling_panel",
            "mass_kg": foam.mass_kg,
            "hazards": foam.hazards,
        }
    )
    objects = [hazard if o.id == hazard.id else o for o in gypsum.objects]
    panel = gypsum.model_copy(update={"objects": objects, "adversarial": True})
    reasons, truth, twin = check(panel)
    assert twin is not None and not twin.passed
    assert twin.trajectory_gap < 1e-3 and twin.pixel_share < 1e-3
    assert any("genuine twin" in r for r in reasons)


def test_the_observation_holds_no_physics_no_labels_and_no_words(first_of_each_family, tmp_path):
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
        "legend",
        spec.hazard.catalogue_name,
        spec.hazard.looks_like,
    ):
        assert secret not in text
    # the legend ablation, applied on export: objects by look under neutral ids
    scene = export(result, tmp_path, spec, legend=True)
    observation = Observation.load(scene / "observation" / "observation.json")
    assert [e.looks_like for e in observation.legend] == sorted(o.looks_like for o in spec.objects)
    ids = [e.id for e in observation.legend]
    assert ids == [f"object_{n + 1}" for n in range(len(spec.objects))]


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


def test_falling_objects_accelerate_at_g(first_of_each_family, observer):
    spec, result = first_of_each_family[Family.ceiling_drop]
    truth = result.truth
    start = truth.trajectory[0].pos[2]
    assert _gravity_from(truth, start + 1.0) == pytest.approx(9.81, rel=0.01)
    # A very fast glide leaves the table within the horizon (a slow one is still sliding).
    spec = generate_scene("object_drop", 3)
    result = observer.observe(spec)
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
        assert (other / "observation" / "frames" / png.name).read_bytes() == png.read_bytes()


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
    assert fresh.cached(specs[0]) is not None and fresh.cached(specs[1]) is None
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
        "hanging_fall",
        "--seed",
        "6",
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
    scene = tmp_path / "obs" / "hanging_fall" / "hanging_fall-000006"
    # A fixture that tips off soon: the scene's own window, under 0.6 s (its margin needs the
    # rest), three frames across it.
    window = generate_scene("hanging_fall", 6).timing.window
    assert window < 0.6
    assert Observation.load(scene / "observation" / "observation.json").window == window
    assert sorted(p.name for p in (scene / "observation" / "frames").iterdir())[:3] == [
        frame_name(CameraName.closeup, t) for t in (0.0, window / 2, window)
    ]
    # the brain's folder holds what it may see; ground truth and spec lie beside it
    assert {p.name for p in (scene / "observation").iterdir()} == {"observation.json", "frames"}
    assert {p.name for p in scene.iterdir()} == {"observation", "ground_truth.json", "spec.json"}
    assert Observation.load(scene / "observation" / "observation.json").legend is None
    summary = json.loads((tmp_path / "obs" / "observe_summary.json").read_text())
    assert summary["scenes"][0]["scene_id"] == "hanging_fall-000006"
    assert summary["legend"] is False
    run = run_cli(
        "observe",
        str(tmp_path / "set"),
        "--out",
        str(tmp_path / "obs-legend"),
        "--cache",
        str(tmp_path / "cache"),
        "--frames",
        "3",
        "--legend",
        "--quiet",
    )
    assert run.returncode == 0 and "(1 from the cache)" in run.stdout, run.stderr
    shown = tmp_path / "obs-legend" / "hanging_fall" / "hanging_fall-000006" / "observation"
    legend = Observation.load(shown / "observation.json").legend
    assert legend and all(e.id.startswith("object_") for e in legend)
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


def test_probe_labels_match_free_fall_and_a_throw_in_closed_form(first_of_each_family):
    """Issue 19: on the ceiling drop (free fall from rest) and the throw (a projectile), the
    speed probe is the closed-form mean speed over the last two frames and the time to reach
    the robot the closed-form arrival within one physics step. Genesis integrates with
    semi-implicit Euler, whose free flight has a closed form of its own, ``x0 + v0 t -
    g t (t + dt) / 2`` at every step: the trajectory lies on it, and the continuous parabola
    differs from it by ``g t dt / 2`` (12 mm at 0.6 s, so an arrival 1.3 steps later)."""
    from reacthuman.probes.labels import Form, Kind, probes_for
    from reacthuman.scenes.kinematics import G
    from reacthuman.scenes.reach import in_reach_zone

    for family in (Family.ceiling_drop, Family.thrown_object):
        spec, result = first_of_each_family[family]
        truth = result.truth
        observation = Observation.load(result.folder / "observation.json")
        dt = truth.physics_dt
        c0, v0 = truth.trajectory[0].center, spec.hazard.lin_vel
        assert c0 == spec.hazard.pose.pos and spec.hazard.hazard_point == (0.0, 0.0, 0.0)

        def stepped(t, c0=c0, v0=v0, dt=dt):  # semi-implicit Euler's free flight
            return (c0[0] + v0[0] * t, c0[1] + v0[1] * t, c0[2] + v0[2] * t - G * t * (t + dt) / 2)

        def parabola(t, c0=c0, v0=v0):
            return (c0[0] + v0[0] * t, c0[1] + v0[1] * t, c0[2] + v0[2] * t - G * t * t / 2)

        free = [p for p in truth.trajectory if p.t < (truth.time_to_floor or 9) - 0.05]
        for point in free[:: len(free) // 8]:
            assert math.dist(point.center, stepped(point.t)) < 2e-4, (family, point)
        labels = {
            p.kind: p.label for p in probes_for(spec, truth, observation) if p.form is Form.numeric
        }
        a, b = observation.frame_times[-2:]
        speed = math.dist(stepped(a), stepped(b)) / (b - a)
        # frames between two 60 Hz samples: a chord of the parabola, g h^2 / 8 off at each end
        chord = 2 * G * (1 / 60) ** 2 / 8 / (b - a)
        assert labels[Kind.speed] == pytest.approx(speed, abs=chord + 1e-4), family
        assert labels[Kind.speed] == pytest.approx(
            math.dist(parabola(a), parabola(b)) / (b - a), abs=G * dt
        )
        steps = [n * dt for n in range(round(b / dt), round((truth.time_to_floor or 9) / dt))]
        arrival = next((t for t in steps if in_reach_zone(stepped(t), spec.observer.pos)), None)
        if arrival is None:
            assert labels[Kind.time_to_reach] is None, family
        else:
            assert labels[Kind.time_to_reach] == pytest.approx(arrival - b, abs=dt), family
    assert labels[Kind.time_to_reach] is not None  # the throw does reach the robot


def test_the_hazard_is_measured_in_every_view_on_the_rendered_frames(first_of_each_family):
    """The truth holds each view's span and move of the hazard, measured on a segmentation of
    the rendered frames; for the main job's ball the close-up span agrees with the ball's
    diameter projected through the camera (a sphere's outline is its diameter)."""
    for family, (_spec, result) in first_of_each_family.items():
        views = {v.view: v for v in result.truth.views}
        assert set(views) == {c.value for c in CameraName}, family
        assert views["closeup"].span_px > 0, family  # framed by design: always in view
    spec, result = first_of_each_family[Family.bouncing_object]
    camera = next(c for c in spec.cameras if c.name is CameraName.closeup)
    at_freeze = min(result.truth.trajectory, key=lambda p: abs(p.t - result.truth.window))
    forward = np.subtract(camera.lookat, camera.pos)
    depth = np.dot(np.subtract(at_freeze.pos, camera.pos), forward / np.linalg.norm(forward))
    expected = spec.hazard.shape.size[0] / depth * 180 / math.tan(math.radians(camera.fov_deg) / 2)
    measured = {v.view: v for v in result.truth.views}["closeup"].span_px
    assert measured == pytest.approx(expected, rel=0.25, abs=2)


def test_a_new_genesis_quadrants_or_package_version_misses_the_cache(tmp_path, monkeypatch):
    """An entry simulated under one Genesis, Quadrants or reacthuman is not reused under
    another: an upgrade may change the frames a spec gives."""
    from reacthuman.sim import cache as cache_module

    spec, settings = generate_scene("object_drop", 2), RenderSettings()
    cache = ObservationCache(tmp_path)
    cache.put(spec, settings, lambda folder: (folder / "ground_truth.json").write_text("{}"))
    assert cache.get(spec, settings) is not None
    installed = cache_module.version
    try:
        for upgraded in cache_module.STACK:

            def version(name: str, upgraded: str = upgraded) -> str:
                return "99.0" if name == upgraded else installed(name)

            monkeypatch.setattr(cache_module, "version", version)
            cache_module.stack_versions.cache_clear()
            assert cache.get(spec, settings) is None, upgraded
        monkeypatch.setattr(cache_module, "version", installed)
        cache_module.stack_versions.cache_clear()
        assert cache.get(spec, settings) is not None
    finally:
        cache_module.stack_versions.cache_clear()  # no made-up version outlives the test
