"""Perception probes: questions about the frames a brain saw, with exact labels and the
HumanPhys judgments (issue 19). Labels against hand-solved motion here; against Genesis's
free fall and throw in test_sim.py."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from helpers import hand_truth, run_cli

from reacthuman.observation import Observation
from reacthuman.probes.labels import (
    NEVER,
    Direction,
    Form,
    Kind,
    LightSide,
    direction_of,
    light_side,
    position_at,
    probes_for,
)
from reacthuman.probes.scoring import THRESHOLDS, judge, mra, prior_answers, run_baselines
from reacthuman.probes.sets import ProbeSetError, probes_of_set, read_probes
from reacthuman.scenes.sets import default_scenes
from reacthuman.scenes.spec import Family


def _spec(family: Family = Family.thrown_object):
    return next(s.spec for s in default_scenes() if s.spec.family is family)


def _straight_line(spec, start, velocity, *, arrival: float | None = 1.2, impact=None):
    """Ground truth of a hazard whose centre moves at constant ``velocity`` from ``start``:
    every label has a closed form."""
    points = [
        (round(k / 60, 6), tuple(start[i] + velocity[i] * k / 60 for i in range(3)))
        for k in range(0, 121)
    ]
    return hand_truth(
        spec.scene_id,
        points,
        reaches=arrival is not None,
        arrival_time=arrival,
        impact_point=impact,
    )


def _observation(spec, times=(0.0, 0.15, 0.3, 0.45, 0.6)):
    return Observation(
        scene_id=spec.scene_id,
        window=times[-1],
        frame_times=list(times),
        frames=[],
        cameras=[],
        robot={"pos": spec.observer.pos, "yaw": spec.observer.yaw},
    )


def _by_kind(probes, form=Form.numeric):
    return {p.kind: p for p in probes if p.form is form}


def test_labels_of_a_straight_line_motion_are_its_closed_form():
    spec = _spec()
    robot = spec.observer.pos
    start = (robot[0] + 3.0, robot[1] + 0.5, 1.5)
    velocity = (-2.0, 0.0, -0.5)  # toward the robot along x, sinking slowly
    truth = _straight_line(
        spec, start, velocity, arrival=1.1, impact=(robot[0] + 0.4, robot[1] + 0.3, 1.1)
    )
    probes = probes_for(spec, truth, _observation(spec))
    numeric = _by_kind(probes)
    at_last = (start[0] - 1.2, start[1], start[2] - 0.3)
    assert numeric[Kind.distance].label == pytest.approx(math.hypot(1.8, 0.5), abs=1e-4)
    assert numeric[Kind.speed].label == pytest.approx(math.hypot(2.0, 0.5), abs=1e-4)
    assert numeric[Kind.displacement].label == pytest.approx(0.6 * math.hypot(2.0, 0.5), abs=1e-4)
    assert numeric[Kind.time_to_reach].label == pytest.approx(0.5, abs=1e-4)  # 1.1 s - 0.6 s
    assert numeric[Kind.crossing].label == pytest.approx(0.5, abs=1e-4)  # (0.4, 0.3) off the axis
    assert numeric[Kind.height].label == pytest.approx(at_last[2], abs=1e-4)
    choice = {p.kind: p for p in probes if p.form is Form.choice}
    direction = choice[Kind.direction]
    right = next(o for o in direction.options if o.startswith(f"{direction.label}. "))
    assert right.endswith(Direction.toward.value)
    assert len(direction.options) == len(Direction)
    speed = choice[Kind.speed]
    assert len(speed.options) == 4
    assert next(o for o in speed.options if o.startswith(f"{speed.label}. ")).endswith("2.1 m/s")
    assert len({o[3:] for o in speed.options}) == 4  # four different amounts


def test_a_hazard_that_never_reaches_is_labelled_never_and_one_at_rest_is_not_asked():
    spec = _spec()
    robot = spec.observer.pos
    away = _straight_line(spec, (robot[0] + 3, robot[1], 1.0), (1.0, 0.0, 0.0), arrival=None)
    probes = probes_for(spec, away, _observation(spec))
    assert _by_kind(probes)[Kind.time_to_reach].label is None
    assert Kind.crossing not in _by_kind(probes)  # no impact point: nothing crosses
    timing = _by_kind(probes, Form.choice)[Kind.time_to_reach]
    assert next(o for o in timing.options if o.startswith(f"{timing.label}. ")).endswith(NEVER)
    still = _straight_line(spec, (robot[0] + 3, robot[1], 1.0), (0.0, 0.0, 0.0), arrival=None)
    at_rest = probes_for(spec, still, _observation(spec))
    kinds = _by_kind(at_rest)
    assert Kind.speed not in kinds and Kind.displacement not in kinds  # zero: no MRA
    assert Kind.distance in kinds
    assert Kind.direction not in _by_kind(at_rest, Form.choice)  # no way it moves


def test_direction_is_read_in_the_frame_of_a_robot_facing_the_hazard():
    robot = (0.0, 0.0, 0.0)
    hazard = (2.0, 0.0, 1.0)  # ahead along +x
    assert direction_of(hazard, (1.8, 0.0, 1.0), robot) is Direction.toward
    assert direction_of(hazard, (2.2, 0.0, 1.0), robot) is Direction.away
    assert direction_of(hazard, (2.0, 0.3, 1.0), robot) is Direction.left  # its left: +y
    assert direction_of(hazard, (2.0, -0.3, 1.0), robot) is Direction.right
    assert direction_of(hazard, (1.9, 0.0, 0.5), robot) is Direction.down
    assert direction_of(hazard, (2.0, 0.0, 1.2), robot) is Direction.up


def test_the_main_light_side_follows_the_key_light_in_the_egocentric_view():
    spec = _spec()
    camera = next(c for c in spec.cameras if c.name.value == "egocentric")
    forward = (camera.lookat[0] - camera.pos[0], camera.lookat[1] - camera.pos[1])
    length = math.hypot(*forward)
    fx, fy = forward[0] / length, forward[1] / length
    right = (fy, -fx)  # forward x up
    key = max(spec.lighting.lights, key=lambda light: light.intensity)

    def lit_from(source):
        """The key light shining from ``source`` (a horizontal direction toward the light)."""
        light = key.model_copy(update={"direction": (-source[0], -source[1], -1.0)})
        lights = [light if lt is key else lt for lt in spec.lighting.lights]
        lighting = spec.lighting.model_copy(update={"lights": lights})
        return light_side(spec.model_copy(update={"lighting": lighting}))

    assert lit_from(right) is LightSide.right
    assert lit_from((-right[0], -right[1])) is LightSide.left
    assert lit_from((fx, fy)) is LightSide.front
    assert lit_from((-fx, -fy)) is LightSide.behind
    assert lit_from((0.1 * fx, 0.1 * fy)) is None  # 6 degrees off the vertical: no side


def test_positions_between_samples_are_interpolated_and_outside_refused():
    spec = _spec()
    truth = _straight_line(spec, (0.0, 0.0, 1.0), (1.0, 0.0, 0.0))
    assert position_at(truth, 0.1375)[0] == pytest.approx(0.1375, abs=1e-6)  # off the grid
    with pytest.raises(ValueError, match="outside the recorded trajectory"):
        position_at(truth, 2.5)


def test_mra_counts_the_thresholds_an_answer_passes():
    assert THRESHOLDS == (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
    assert mra(2.0, 2.0) == 1.0
    assert mra(2.09, 2.0) == 1.0  # 4.5 % off: within every threshold
    assert mra(-27.0, -30.0) == pytest.approx(0.8)  # HumanPhys's Figure 5: 8 of 10
    assert mra(3.0, 2.0) == pytest.approx(0.0)  # 50 % off passes none (strictly below)
    assert mra(2.7, 2.0) == pytest.approx(0.3)  # 35 % off: below 0.5, 0.45 and 0.4
    assert mra(3.5, 2.0) == 0.0
    with pytest.raises(ValueError):
        mra(1.0, 0.0)


def test_judgments_of_never_choices_and_missing_answers():
    spec = _spec()
    robot = spec.observer.pos
    never = _straight_line(spec, (robot[0] + 3, robot[1], 1.0), (1.0, 0.0, 0.0), arrival=None)
    probes = probes_for(spec, never, _observation(spec))
    timing = _by_kind(probes)[Kind.time_to_reach]
    assert judge(timing, NEVER) == 1.0 and judge(timing, 0.5) == 0.0 and judge(timing, None) == 0
    distance = _by_kind(probes)[Kind.distance]
    assert judge(distance, NEVER) == 0.0 and judge(distance, distance.label) == 1.0
    light = _by_kind(probes, Form.choice)[Kind.light]
    assert judge(light, light.label.lower()) == 1.0
    assert judge(light, "Z") == 0.0


def test_the_oracle_scores_one_and_the_prior_one_constant_per_kind(observed):
    probes = probes_of_set(observed)
    results = run_baselines(["oracle", "prior"], probes)
    assert all(r.score == 1.0 for r in results if r.brain == "oracle")
    prior = prior_answers(probes)
    for r in results:
        if r.brain == "prior":
            assert r.answer == prior[(r.kind, r.form)]
    assert {r.brain for r in results} == {"oracle", "prior"}
    with pytest.raises(ValueError, match="unknown probe baseline"):
        run_baselines(["psychic"], probes)


def test_an_observation_set_gives_the_same_probes_every_time(observed):
    first = probes_of_set(observed)
    assert [p.model_dump_json() for p in first] == [
        p.model_dump_json() for p in probes_of_set(observed)
    ]
    scenes = {p.scene_id for p in first}
    assert len(scenes) == 12
    for scene in scenes:
        kinds = {(p.kind, p.form) for p in first if p.scene_id == scene}
        assert (Kind.direction, Form.choice) in kinds  # every hazard here is under way
        assert (Kind.distance, Form.numeric) in kinds and (Kind.distance, Form.choice) in kinds
    ranks = []  # where the right amount sits among the four, smallest first
    for p in first:
        if p.form is Form.choice and p.kind not in (Kind.direction, Kind.light):
            amounts = {o[0]: o[3:] for o in p.options}
            if NEVER in amounts.values():
                continue
            ordered = sorted(amounts, key=lambda k: float(amounts[k].split()[0]))
            ranks.append(ordered.index(p.label))
    assert set(ranks) == {0, 1, 2, 3}  # no rank gives the answer away
    assert max(ranks.count(r) for r in range(4)) < 0.5 * len(ranks)
    lit = {p.scene_id for p in first if p.kind is Kind.light}
    assert 0 < len(lit) < len(scenes)  # a key light nearly overhead has no side: not asked


def test_generate_and_score_from_the_command_line(observed, tmp_path):
    probes_file = tmp_path / "probes.jsonl"
    done = run_cli("probes", "generate", str(observed), "--out", str(probes_file))
    assert done.returncode == 0, done.stderr
    assert "of 12 scene(s)" in done.stdout
    probes = read_probes(probes_file)
    assert done.stdout.startswith(f"{len(probes)} probes of 12 scene(s)")
    out = tmp_path / "scored"
    done = run_cli("probes", "score", str(probes_file), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert (
        "| oracle | distance | 1.00 [1.00, 1.00] | 1.00 [1.00, 1.00] | 1.00 [1.00, 1.00] |"
        in done.stdout
    )
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(results) == 2 * len(probes)
    report = (out / "report.md").read_text()
    assert "## By family" in report and "## By speed band" in report


def test_bad_input_is_named(observed, tmp_path):
    done = run_cli("probes", "generate", str(tmp_path / "nowhere"), "--out", str(tmp_path / "p"))
    assert done.returncode == 1 and "no such folder" in done.stderr
    (tmp_path / "empty").mkdir()
    done = run_cli("probes", "generate", str(tmp_path / "empty"), "--out", str(tmp_path / "p"))
    assert done.returncode == 1 and "no observed scene" in done.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"probe_id": "x"}\n')
    with pytest.raises(ProbeSetError, match=r"bad.jsonl:1: scene_id: Field required"):
        read_probes(bad)
    done = run_cli("probes", "score", str(bad), "--out", str(tmp_path / "s"))
    assert done.returncode == 1 and "bad.jsonl:1" in done.stderr and "Traceback" not in done.stderr
    scene = next(p for p in observed.rglob("ground_truth.json")).parent
    copy = tmp_path / "one"
    import shutil

    shutil.copytree(scene, copy / scene.name)
    (copy / scene.name / "ground_truth.json").unlink()
    with pytest.raises(ProbeSetError, match="no ground truth"):
        probes_of_set(copy)


def test_a_loopback_model_answers_every_probe_through_the_client_and_its_store(
    observed, server, tmp_path
):
    """One call a probe with the scene's frames and the question; an unusable reply is asked
    again with the reason, then recorded and scored 0; the answers are scored beside the
    reference answerers; a rerun asks nothing already answered."""
    scene = next(p for p in observed.rglob("ground_truth.json")).parent
    probes_file = tmp_path / "probes.jsonl"
    assert run_cli("probes", "generate", str(scene), "--out", str(probes_file)).returncode == 0
    probes = read_probes(probes_file)
    replies = []
    for probe in probes:
        if probe.kind is Kind.height and probe.form is Form.numeric:  # never usable
            replies += [("reply", "about a metre")] + [("reply", '{"answer": "high"}')] * 2
        elif probe.form is Form.choice:
            replies.append(("reply", json.dumps({"answer": f"{probe.label}. because"})))
        elif probe.label is None:
            replies.append(("reply", '{"answer": "never"}'))
        else:  # a number 10 % high: MRA 0.8, written as the unit says it
            replies.append(
                ("reply", f'```json\n{{"answer": "{1.1 * probe.label} {probe.unit}"}}\n```')
            )
    asked = len(replies)  # the server consumes the list
    server.responses = replies
    store = tmp_path / "responses.sqlite"
    answers = tmp_path / "answers.jsonl"
    args = ["probes", "decide", str(probes_file), str(observed), "--model", "fake-vlm"]
    args += ["--base-url", server.url, "--store", str(store), "--concurrency", "1"]
    done = run_cli(*args, "--out", str(answers))
    assert done.returncode == 0, done.stderr
    assert f"{len(probes)} probes answered by fake-vlm, 1 unusable" in done.stdout
    assert len(server.requests) == asked == len(probes) + 2
    reasked = [r["body"]["messages"][-1]["content"] for r in server.requests]
    assert any("'high' is not a number in m" in str(m) for m in reasked)  # asked again, why
    first = server.requests[0]["body"]["messages"]
    assert "brain of a humanoid robot" in first[0]["content"]
    parts = first[1]["content"]
    images = [p for p in parts if p["type"] == "image_url"]
    assert len(images) == 6 and images[0]["image_url"]["url"].startswith("data:image/png")
    assert parts[-1]["text"] == f"Question: {probes[0].question}"
    rows = {r["probe_id"]: r for r in map(json.loads, answers.read_text().splitlines())}
    for probe in probes:
        row = rows[probe.probe_id]
        if probe.kind is Kind.height and probe.form is Form.numeric:
            assert row["answer"] is None and row["score"] == 0.0
            assert "not a number" in row["unusable"]
        elif probe.form is Form.choice or probe.label is None:
            assert row["score"] == 1.0, row
        else:
            assert row["score"] == pytest.approx(0.8), row
    again = run_cli(*args, "--out", str(tmp_path / "again.jsonl"))
    assert again.returncode == 0 and len(server.requests) == asked  # all from the store
    scored = tmp_path / "scored"
    done = run_cli(
        "probes",
        "score",
        str(probes_file),
        "--answers",
        str(answers),
        "--brain",
        "prior",
        "--out",
        str(scored),
    )
    assert done.returncode == 0, done.stderr
    assert "| fake-vlm | height | 0.00 [0.00, 0.00] | 1.00 [1.00, 1.00] |" in done.stdout
    assert "| prior | distance |" in done.stdout
    stray = tmp_path / "stray.jsonl"
    stray.write_text(answers.read_text().replace(probes[0].scene_id, "object_drop-999999", 1))
    done = run_cli(
        "probes", "score", str(probes_file), "--answers", str(stray), "--out", str(scored)
    )
    assert done.returncode == 1 and "not in the probe file: object_drop-999999" in done.stderr


def test_the_report_puts_probe_accuracy_beside_each_brains_decisions(observed, tmp_path):
    """SAA split by whether the brain perceived the hazard's speed (and its time to reach),
    and the freeze rate by the speed it perceived beside the true speed."""
    from helpers import row

    from reacthuman.probes.report import decisions_markdown
    from reacthuman.probes.scoring import result
    from reacthuman.scenes.labels import Action

    probes = probes_of_set(observed)
    speed = {p.scene_id: p for p in probes if p.kind is Kind.speed and p.form is Form.numeric}
    scenes = sorted(speed)
    seen = set(scenes[: len(scenes) // 2])  # perceived where the brain decided right
    answers = [
        result(p, "model-a", p.label if p.scene_id in seen else 10 * p.label + 5)
        for p in speed.values()
    ]
    rows = [
        row(
            0,
            "model-a",
            Action.TRIGGER_DODGE if s in seen else Action.NO_ACTION,
            Action.TRIGGER_DODGE,
        ).model_copy(update={"scene_id": s})
        for s in scenes
    ]
    text = decisions_markdown(answers, probes, rows)
    line = next(x for x in text.splitlines() if x.startswith("| model-a | "))
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[1] == str(len(scenes))
    assert cells[4] == f"100.0 [100.0, 100.0] (n={len(seen)})"  # speed perceived: all right
    assert cells[5] == f"0.0 [0.0, 0.0] (n={len(scenes) - len(seen)})"  # misread: all wrong
    assert cells[6] == "n/a (n=0)"  # no time-to-reach answers
    fast = [x for x in text.splitlines() if x.startswith("| model-a | >= 4 m/s |")]
    assert fast and fast[0].split("|")[3].strip() == str(len(scenes) - len(seen))  # 10x: fast
    assert fast[0].split("|")[4].strip() == "100.0 [100.0, 100.0]"  # and it froze there
    assert (
        decisions_markdown(answers, probes, [r.model_copy(update={"brain": "b"}) for r in rows])
        == ""
    )
    scores = tmp_path / "run"
    scores.mkdir()
    (scores / "scores.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in rows))
    probes_file, answers_file = tmp_path / "probes.jsonl", tmp_path / "answers.jsonl"
    assert run_cli("probes", "generate", str(observed), "--out", str(probes_file)).returncode == 0
    answers_file.write_text("".join(a.model_dump_json() + "\n" for a in answers))
    out = tmp_path / "scored"
    done = run_cli(
        "probes", "score", str(probes_file), "--answers", str(answers_file),
        "--decisions", str(scores), "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = (out / "report.md").read_text()
    assert (
        "## Perception beside decisions" in report
        and "### Freeze rate by perceived speed" in report
    )
    (out / "report.md").unlink()
    done = run_cli("probes", "report", str(probes_file), str(out), "--decisions", str(scores))
    assert done.returncode == 0, done.stderr
    assert (out / "report.md").read_text() == report  # the same report from the run folder


def test_the_monocular_heuristic_reads_speed_from_moving_pixels_at_its_assumed_depth(tmp_path):
    """Frames drawn from a known camera: a blob moving 2 m/s across the view 3 m in front of
    the egocentric camera (the heuristic's assumed depth) is read back at about that speed
    and distance; the same blob twice as far is read as twice as slow (what one camera
    cannot tell apart)."""
    import cv2

    from reacthuman.observation import CameraInfo, Frame
    from reacthuman.probes.monocular import estimates
    from reacthuman.scenes.geometry import cross, normalize, sub

    spec = _spec()
    camera = next(c for c in spec.cameras if c.name.value == "egocentric")
    info = CameraInfo.of(camera, 320, 180)
    forward = normalize(sub(camera.lookat, camera.pos))
    right = normalize(cross(forward, camera.up))
    background = np.random.default_rng(0).integers(60, 120, (180, 320, 3), dtype=np.uint8)

    def observe(depth: float, folder):
        times = [0.0, 0.15, 0.3, 0.45, 0.6]
        frames = []
        (folder / "frames").mkdir(parents=True)
        for t in times:
            point = tuple(
                camera.pos[i] + depth * forward[i] + (2.0 * t - 0.6) * right[i] for i in range(3)
            )
            rel = sub(point, camera.pos)
            u = info.cx + info.fx * sum(a * b for a, b in zip(rel, right, strict=True)) / depth
            image = background.copy()
            image[88:93, round(u) - 2 : round(u) + 3] = 255
            name = f"frames/egocentric_{int(t * 1000):04d}ms.png"
            cv2.imwrite(str(folder / name), image)
            frames.append(Frame(view=info.name, t=t, file=name))
        return Observation(
            scene_id=spec.scene_id, window=0.6, frame_times=times, frames=frames,
            cameras=[info], robot={"pos": spec.observer.pos, "yaw": spec.observer.yaw},
        )  # fmt: skip

    near = estimates(observe(3.0, tmp_path / "near"), tmp_path / "near")
    assert near[Kind.speed] == pytest.approx(2.0, rel=0.08)
    assert near[Kind.displacement] == pytest.approx(2.0 * 0.6, rel=0.08)
    far = estimates(observe(6.0, tmp_path / "far"), tmp_path / "far")
    assert far[Kind.speed] == pytest.approx(1.0, rel=0.08)  # placed at 3 m: half the speed
    assert near[Kind.light] in (LightSide.left, LightSide.right)


def test_the_monocular_baseline_answers_from_the_observation_set(observed, tmp_path):
    probes_file = tmp_path / "probes.jsonl"
    assert run_cli("probes", "generate", str(observed), "--out", str(probes_file)).returncode == 0
    out = tmp_path / "scored"
    args = ["probes", "score", str(probes_file), "--brain", "monocular", "--out", str(out)]
    done = run_cli(*args)
    assert done.returncode == 1 and "give --obs OBS" in done.stderr
    done = run_cli(*args, "--obs", str(observed))
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {r["brain"] for r in rows} == {"monocular"} and len(rows) == len(
        read_probes(probes_file)
    )
    # two frames a scene here: their median is no background, so nothing is seen moving
    assert all(r["answer"] is None for r in rows if r["kind"] not in ("light",))
    assert all(r["answer"] in ("A", "B", "C", "D") for r in rows if r["kind"] == "light")


def test_odd_replies_are_read_or_refused_with_the_reason():
    from reacthuman.brain.client import ReplyError
    from reacthuman.probes.ask import read_answer

    spec = _spec()
    robot = spec.observer.pos
    truth = _straight_line(spec, (robot[0] + 3, robot[1], 1.0), (-2.0, 0.0, 0.0), arrival=1.2)
    probes = probes_for(spec, truth, _observation(spec))
    timing, distance = _by_kind(probes)[Kind.time_to_reach], _by_kind(probes)[Kind.distance]
    light = (
        _by_kind(probes, Form.choice).get(Kind.light) or _by_kind(probes, Form.choice)[Kind.speed]
    )
    assert read_answer(timing, {"answer": "Never."}) == NEVER
    assert read_answer(distance, {"answer": "2.5 m"}) == 2.5
    assert read_answer(distance, {"answer": 3}) == 3.0
    assert read_answer(light, {"answer": f"{light.label})"}) == light.label
    for reply, reason in [
        ({"answer": 10**400}, "not a number"),
        ({"answer": True}, "not a number"),
        ({"answer": [1, 2]}, "not a number"),
        ({"answer": "never"}, '"never" is no answer'),
        ({"answer": "far"}, "not a number"),
        ({"reply": 2}, 'no "answer"'),
    ]:
        with pytest.raises(ReplyError, match=reason):
            read_answer(distance, reply)
    with pytest.raises(ReplyError, match="not one of the options"):
        read_answer(light, {"answer": "Z"})
