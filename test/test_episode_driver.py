"""The simulator node's episodes without ROS or Genesis: the order of the phases, the run's
clock, what a resumed run skips, and how a run ends when a node does not answer
(``episode_driver``, driven over a graph and a scene host recorded in plain Python)."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from reacthuman.brain.client import Decision
from reacthuman.episode_driver import (
    NS,
    EpisodeDriver,
    EpisodeSlot,
    Found,
    NodeMissing,
    RunParameters,
    seconds_to_ns,
)
from reacthuman.run_folder import TIMINGS_FILE
from reacthuman.runner import bench_scenes

DURATION = 2.0  # s from a freeze to the horizon, in every scene here
SCENES = [spec.scene_id for spec in bench_scenes("default", 3)]


@dataclass
class Held:
    episodes: dict[str, set[str]]

    def of(self, brain: str) -> set[str]:
        return set(self.episodes.get(brain, ()))


class Host:
    """A scene host that records what it was asked (``episode_host``'s interface)."""

    def __init__(self, calls: list[tuple[Any, ...]]) -> None:
        self.calls = calls

    def play(self, spec, settings, legend, command_for, envs=1):
        self.calls.append(("play", spec.scene_id, envs, command_for is not None))
        return SimpleNamespace(spec=spec, duration=DURATION, seconds={"build": 0.0})

    def execute(self, decision, command_for, video, pose_every):
        self.calls.append(("execute", decision.brain, video))
        return SimpleNamespace(brain=decision.brain)

    def execute_all(self, decisions, commands_for, pose_every):
        self.calls.append(("execute_all", [d.brain for d in decisions]))
        return [SimpleNamespace(brain=d.brain) for d in decisions]

    def finish(self) -> None:
        self.calls.append(("finish",))

    def close(self) -> None:
        self.calls.append(("close",))


class Graph:
    """The other nodes as the driver reaches them, each answer given at once (a plan for
    every brain but those in ``silent``), every call recorded."""

    def __init__(self, found: Found | None = None, silent: tuple[str, ...] = ()) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.found = found or Found(recording=False, scored=Held({}), recorded=None)
        self.silent = silent
        self.unscored: set[str] = set()  # scene ids the scorer never scores
        self.logged: list[str] = []
        self.recorded: list[Held] = []  # the recorder's next words

    def status(self, state, reason, episodes):
        self.calls.append(("status", state))
        return SimpleNamespace(state=state, reason=reason, episodes=episodes)

    def info(self, text):
        self.logged.append(text)

    warning = error = info

    def discover(self):
        return self.found

    def over_unitree(self):
        return False

    def announce(self, ep):
        self.calls.append(("announce", ep.episode, ep.start_ns))

    def stand(self, ep, ticks, controller, timing):
        self.calls.append(("stand", ep.episode))
        return lambda tick: None

    def show(self, ep, staged, brains):
        self.calls.append(("show", ep.episode, brains))
        return ep.start_ns + NS  # the freeze a second into the episode

    def await_plan(self, ep, timeout):
        self.calls.append(("plan", ep.episode))
        if ep.brain in self.silent:
            return None
        return Decision(scene_id=ep.spec.scene_id, brain=ep.brain, r1_reason="a plan")

    def execute(self, ep, staged, decision, freeze_ns, timing):
        self.calls.append(("execute", ep.episode))
        return lambda tick: None

    def execute_side_by_side(self, asked, staged, timing):
        self.calls.append(("execute_side_by_side", [ep.episode for ep, *_ in asked]))
        return lambda ticks: []

    def clock(self, ns):
        self.calls.append(("clock", ns))

    def send_outcome(self, ep, outcome):
        self.calls.append(("outcome", ep.episode))

    def await_score(self, ep, timeout):
        self.calls.append(("score", ep.episode))
        if ep.spec.scene_id in self.unscored:
            return None
        return SimpleNamespace(summary=lambda: f"{ep.brain} {ep.spec.scene_id}")

    def await_recorded(self, timeout):
        return self.recorded.pop(0) if self.recorded else None


def params(run_dir: Path, **changes: Any) -> RunParameters:
    defaults = RunParameters(
        scenes="default",
        limit=1,
        shard=0,
        shards=1,
        brain="oracle,heuristic",
        width=64,
        height=36,
        frames=5,
        legend=False,
        controller="g1",
        policy_path="",
        videos=False,
        episodes_per_process=0,
        brain_timeout=10.0,
        score_timeout=3.0,
        bag_timeout=0.0,
        run_dir=str(run_dir),
        brain_node="brain_node",
        scorer_node="scorer_node",
        recorder_node="recorder_node",
    )
    return replace(defaults, **changes)


def drive(graph: Graph, run_params: RunParameters) -> tuple[Any, list[tuple[Any, ...]]]:
    host_calls: list[tuple[Any, ...]] = []
    driver = EpisodeDriver("run", graph, lambda *_args: Host(host_calls))
    return driver.run(run_params), host_calls


def test_a_scene_is_played_once_and_its_brains_decide_before_their_executions_side_by_side(
    tmp_path,
):
    graph = Graph()
    status, host = drive(graph, params(tmp_path))
    assert status.state == "done" and status.episodes == 2
    assert host == [
        ("play", SCENES[0], 2, True),  # an environment per brain, the G1 standing
        ("execute_all", ["oracle", "heuristic"]),
        ("finish",),
        ("close",),
    ]
    second = DURATION * NS + 2 * NS  # the first's freeze and execution, then a second
    assert [call for call in graph.calls if call[0] != "clock"] == [
        ("status", "running"),
        ("announce", 0, 0),
        ("stand", 0),  # the first episode only: the later ones start from its freeze
        ("show", 0, ("oracle", "heuristic")),  # the brains still to come decide at once
        ("plan", 0),
        ("announce", 1, second),
        ("show", 1, ("heuristic",)),
        ("plan", 1),
        ("execute_side_by_side", [0, 1]),
        ("outcome", 0),
        ("outcome", 1),  # every outcome out before the first score is awaited
        ("score", 0),
        ("score", 1),
        ("status", "done"),
    ]
    ends = [ns for kind, ns in (c[:2] for c in graph.calls) if kind == "clock"]
    assert ends == [NS + seconds_to_ns(DURATION), second + NS + seconds_to_ns(DURATION)]
    lines = [json.loads(line) for line in (tmp_path / TIMINGS_FILE).read_text().splitlines()]
    assert [(t["scene_id"], t["brain"], t["ticks"]) for t in lines] == [
        (SCENES[0], "oracle", 100),
        (SCENES[0], "heuristic", 100),
    ]
    assert "execute" in lines[0] and "play" in lines[0] and "play" not in lines[1]


def test_with_videos_each_execution_runs_before_the_next_episode_with_its_video(tmp_path):
    graph = Graph()
    status, host = drive(graph, params(tmp_path, videos=True))
    assert status.state == "done"
    kinds = [call[0] for call in graph.calls]
    assert kinds == [
        "status",
        *("announce", "stand", "show", "plan", "execute", "clock", "outcome", "score"),
        *("announce", "show", "plan", "execute", "clock", "outcome", "score"),
        "status",
    ]
    videos = [call[2] for call in host if call[0] == "execute"]
    assert videos == [
        tmp_path / "episodes" / "oracle" / SCENES[0] / "execution.mp4",
        tmp_path / "episodes" / "heuristic" / SCENES[0] / "execution.mp4",
    ]


def test_the_stand_in_does_not_stand(tmp_path):
    graph = Graph()
    _status, host = drive(graph, params(tmp_path, controller="kinematic-stand-in"))
    assert ("play", SCENES[0], 2, False) in host
    assert not [call for call in graph.calls if call[0] == "stand"]


def test_a_resumed_run_skips_what_is_scored_and_bagged_and_replays_a_lost_bag(tmp_path):
    scored = Held({"oracle": {SCENES[0], SCENES[1]}, "heuristic": {SCENES[0]}})
    recorded = Held({"oracle": {SCENES[0]}, "heuristic": {SCENES[0]}})  # oracle's 2nd bag lost
    graph = Graph(Found(recording=True, scored=scored, recorded=recorded))
    graph.recorded = [
        Held({brain: {*SCENES} for brain in ("oracle", "heuristic")})  # the new bags written
    ]
    status, _host = drive(graph, params(tmp_path, limit=3, bag_timeout=5.0))
    assert status.state == "done" and status.episodes == 4
    # Episode numbers are the scene's index x brains + the brain's: the same as a fresh run's.
    assert [call[1] for call in graph.calls if call[0] == "announce"] == [2, 3, 4, 5]
    assert "oracle: 1 scored episode(s) have no bag" in graph.logged[0]
    assert SCENES[1] in graph.logged[0]
    assert "2 episode(s) already scored" in graph.logged[1]  # what is skipped, not replayed


def test_a_run_ends_naming_the_scored_episodes_the_recorder_never_bagged(tmp_path):
    graph = Graph(Found(recording=True, scored=Held({}), recorded=Held({})))
    status, _host = drive(graph, params(tmp_path, bag_timeout=0.0))
    assert status.state == "done"
    assert graph.logged[-1] == (
        f"recorder_node wrote no bag for 2 scored episode(s) within 0 s: heuristic "
        f"{SCENES[0]}, oracle {SCENES[0]}; a rerun into {tmp_path} plays them again to "
        "record them"
    )


def test_a_brain_that_publishes_no_plan_is_a_recorded_r1(tmp_path):
    graph = Graph(silent=("heuristic",))
    decisions: list[Decision] = []
    host_calls: list[tuple[Any, ...]] = []

    class Recording(Host):
        def execute_all(self, chosen, commands_for, pose_every):
            decisions.extend(chosen)
            return super().execute_all(chosen, commands_for, pose_every)

    driver = EpisodeDriver("run", graph, lambda *_args: Recording(host_calls))
    assert driver.run(params(tmp_path)).state == "done"
    assert [d.r1_reason for d in decisions] == [
        "a plan",
        "brain_node did not publish a plan within 15 s",  # brain_timeout and 5 s
    ]


def test_a_silent_scorer_fails_the_run_and_frees_the_scenes(tmp_path):
    graph = Graph()
    graph.unscored = {SCENES[0]}
    status, host = drive(graph, params(tmp_path))
    assert status.state == "failed"
    assert status.reason == f"scorer_node did not score {SCENES[0]} within 3 s"
    assert host[-2:] == [("finish",), ("close",)]


def test_a_stop_ends_the_run_after_the_scene_in_progress(tmp_path):
    graph = Graph()
    host_calls: list[tuple[Any, ...]] = []
    driver = EpisodeDriver("run", graph, lambda *_args: Host(host_calls))
    announce = graph.announce

    def stop_at_first(ep: EpisodeSlot) -> None:
        announce(ep)
        driver.stop_requested = True

    graph.announce = stop_at_first
    status = driver.run(params(tmp_path, limit=2))
    assert (status.state, status.reason, status.episodes) == ("stopped", "stop requested", 2)
    assert [call[1] for call in host_calls if call[0] == "play"] == [SCENES[0]]


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"shard": 2, "shards": 2}, "shard 2 of 2: expected 0 <= shard < shards"),
        ({"brain": ""}, None),
    ],
)
def test_bad_parameters_fail_the_run_before_any_node_is_awaited(tmp_path, changes, reason):
    graph = Graph()
    graph.discover = None  # never reached
    status, host = drive(graph, params(tmp_path, **changes))
    assert status.state == "failed" and host == []
    assert status.reason == reason or (reason is None and status.reason)
    assert graph.logged == [status.reason]


def test_a_node_missing_at_discovery_fails_the_run_with_its_reason(tmp_path):
    graph = Graph()

    def missing() -> Found:
        raise NodeMissing("node(s) brain_node not found after 2 s")

    graph.discover = missing
    status, host = drive(graph, params(tmp_path))
    assert (status.state, status.reason) == ("failed", "node(s) brain_node not found after 2 s")
    assert host == []
