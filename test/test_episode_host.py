"""Scenes in a worker process (``episode_host``): the same episode as in process, renewed
processes, and faults on either side named.

Genesis on the CPU at 320x180: the G1 on one scene, the stand-in on three.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np
import psutil
import pytest

from reacthuman.brain.client import Decision
from reacthuman.brain.oracle import oracle_plan
from reacthuman.episode_host import (
    EpisodeWorker,
    SceneHost,
    Staged,
    Tick,
    WorkerDied,
    WorkerError,
    episode_host,
)
from reacthuman.runner import bench_scenes
from reacthuman.scenes.spec import SceneSpec
from reacthuman.sim.episode import standing_ticks
from reacthuman.sim.settings import RenderSettings
from reacthuman.spine.command import JointCommand
from reacthuman.spine.controller import make_controller

pytestmark = [pytest.mark.genesis, pytest.mark.slow]

SETTINGS = RenderSettings(width=320, height=180)
STANDIN = "kinematic-stand-in"


def oracle_decision(staged: Staged) -> Decision:
    spec = staged.spec
    plan = oracle_plan(staged.truth, spec.observer.pos, spec.observer.yaw)
    return Decision(scene_id=spec.scene_id, brain="oracle", plan=plan)


def assert_same_staging(a: Staged, b: Staged) -> None:
    assert a.truth == b.truth and a.observation == b.observation
    assert a.frame_states == b.frame_states and a.pose == b.pose
    assert (a.duration, a.controller) == (b.duration, b.controller)
    assert a.frames.keys() == b.frames.keys()
    assert all(np.array_equal(a.frames[key], b.frames[key]) for key in a.frames)


class Spine:
    """The spine node's side of each tick: the walking policy runs here, not in the worker
    (it stands the G1 to the freeze, then executes), and every tick's pose is noted."""

    def __init__(self, controller: str, spec: SceneSpec) -> None:
        self.controller = make_controller(controller)
        self.controller.wait(spec.observer.pos, spec.observer.yaw)
        self.spec = spec
        self.ticks = 0
        self.posed: list[int] = []

    def execute(self, decision: Decision) -> None:
        self.controller.start(decision.plan, self.spec.observer.pos, self.spec.observer.yaw)

    def __call__(self, tick: Tick) -> JointCommand:
        self.ticks += 1
        if tick.pose is not None:
            self.posed.append(tick.state.tick)
        return self.controller.command(tick.state)


def test_a_g1_episode_in_a_worker_process_is_the_episode_in_process():
    spec = bench_scenes(limit=1)[0]
    local = SceneHost("g1")
    try:
        here = local.play(spec, SETTINGS)
        decision = oracle_decision(here)
        expected = local.execute(decision)
    finally:
        local.close()
    worker = EpisodeWorker("g1", episodes_per_process=1)
    spine = Spine("g1", spec)
    try:
        there = worker.play(spec, SETTINGS, command_for=spine)
        assert_same_staging(there, here)  # stood under the spine's policy: the same play
        assert spine.ticks == standing_ticks(spec, SETTINGS) > 0
        assert there.pose is not None and set(there.pose.hands) == {"left", "right"}
        spine.execute(decision)
        outcome = worker.execute(decision, spine, pose_every=5)
        worker.finish()
    finally:
        worker.close()
    assert outcome == expected  # the lock-step over the pipe: the same execution
    assert spine.posed and all(tick % 5 == 0 for tick in spine.posed)
    assert spine.posed == list(range(0, outcome.ticks, 5))
    assert worker.process is None


def test_workers_are_renewed_and_a_failing_command_source_stops_only_its_execution():
    specs = bench_scenes(limit=3)
    local = SceneHost(STANDIN)
    expected = []
    try:
        for spec in specs:
            staged = local.play(spec, SETTINGS)
            expected.append(local.execute(oracle_decision(staged)))
    finally:
        local.close()
    worker = EpisodeWorker(STANDIN, episodes_per_process=2)
    pids = []
    try:
        staged = worker.play(specs[0], SETTINGS)
        pids.append(worker.process.pid)
        decision = oracle_decision(staged)

        def spine_gone(tick: Tick) -> JointCommand:
            raise TimeoutError(f"spine_node did not answer control tick {tick.state.tick}")

        with pytest.raises(TimeoutError, match="control tick 0"):
            worker.execute(decision, spine_gone)
        # The worker is ready for more: the same scene executed again ends as in process.
        assert worker.execute(decision) == expected[0]
        worker.finish()
        for spec, outcome in zip(specs[1:], expected[1:], strict=True):
            staged = worker.play(spec, SETTINGS)
            pids.append(worker.process.pid)
            assert worker.execute(oracle_decision(staged)) == outcome
            worker.finish()
    finally:
        worker.close()
    assert pids[0] == pids[1] != pids[2] and worker.processes == 2


def test_a_killed_worker_is_named_and_the_next_scene_gets_a_fresh_one():
    first, second = bench_scenes(limit=2)
    worker = EpisodeWorker(STANDIN)
    try:
        staged = worker.play(first, SETTINGS)
        pid = worker.process.pid
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(
            WorkerDied,
            match=rf"pid {pid}\) was killed by signal 9 during "
            rf"{first.scene_id}; a rerun .* resumes",
        ):
            worker.execute(oracle_decision(staged))
        worker.finish()  # nothing to free: no error
        staged = worker.play(second, SETTINGS)
        assert worker.process.pid != pid and staged.spec == second
    finally:
        worker.close()


def test_a_body_the_worker_cannot_load_is_an_error_naming_it():
    worker = EpisodeWorker("g1-unitree-motion", policy_path="/nonexistent/motion.pt")
    try:
        with pytest.raises(WorkerError, match="motion.pt") as caught:
            worker.play(bench_scenes(limit=1)[0], SETTINGS)
        assert "Traceback" in caught.value.worker_traceback
        assert worker.process.poll() is None  # it answered; the caller decides what stops
    finally:
        worker.close()
    assert worker.process is None


def test_episodes_per_process_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        EpisodeWorker(STANDIN, episodes_per_process=0)
    with pytest.raises(ValueError, match=r"0 \(in this process\) or more, not -1"):
        episode_host(STANDIN, episodes_per_process=-1)


PARENT = """
import sys
from reacthuman.episode_host import EpisodeWorker
from reacthuman.runner import bench_scenes
from reacthuman.scenes.spec import SceneSpec
from reacthuman.sim.episode import standing_ticks
from reacthuman.sim.settings import RenderSettings

worker = EpisodeWorker("kinematic-stand-in")
worker.play(bench_scenes(limit=1)[0], RenderSettings(width=320, height=180))
print(worker.process.pid, flush=True)
sys.stdin.read()  # held until killed
"""


def test_a_worker_whose_parent_is_killed_exits_on_its_own():
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        pid = int(parent.stdout.readline())
        assert psutil.pid_exists(pid)
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 60
    while psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
        assert time.monotonic() < deadline, f"worker {pid} outlived its killed parent"
        time.sleep(0.2)


def test_every_execution_from_a_restored_freeze_is_the_one_after_a_fresh_play():
    """Play once, execute many: a scene played to its freeze runs every brain's plan from
    that freeze, each bit-identical to the same plan after a fresh play, also after a plan
    whose hand closed on the object (object_drop: the oracle catches)."""
    from reacthuman.brain.baselines import always_dodge

    spec = bench_scenes(limit=1)[0]
    host = SceneHost("g1")

    def executed(decision: Decision) -> tuple[object, tuple[float, ...]]:
        outcome = host.execute(decision)
        assert host.played is not None and host.played.episode.g1 is not None
        return outcome, host.played.episode.g1.state(0, 0.0).positions  # at the horizon

    try:
        staged = host.play(spec, SETTINGS)
        catch = oracle_decision(staged)
        dodge = Decision(
            scene_id=spec.scene_id, brain="always-dodge", plan=always_dodge(staged.observation)
        )
        caught = executed(catch)
        dodged = executed(dodge)
        caught_again = executed(catch)
        host.play(spec, SETTINGS)
        dodged_fresh = executed(dodge)
    finally:
        host.close()
    assert caught[0].result == "caught"  # a hand held the object: the weld was opened again
    assert dodged[0].result != "caught"
    assert caught_again == caught
    assert dodged == dodged_fresh


def test_plans_executed_side_by_side_are_each_the_one_executed_alone():
    """Every brain's plan in an environment of its own, stepped together: each outcome and
    each body at the horizon is the plan's alone, in any order and beside any number of
    others (object_drop: the oracle's hand closes on the object in its environment only)."""
    from reacthuman.brain.baselines import always_dodge, no_action

    spec = bench_scenes(limit=1)[0]
    host = SceneHost("g1")

    def at_horizon(envs: int) -> list[tuple[float, ...]]:
        assert host.played is not None and host.played.episode.g1 is not None
        return [s.positions for s in host.played.episode.g1.states(0, 0.0)[:envs]]

    try:
        staged = host.play(spec, SETTINGS, envs=3)
        assert host.played is not None and host.played.episode.envs == 3
        decisions = [
            oracle_decision(staged),
            Decision(scene_id=spec.scene_id, brain="dodge", plan=always_dodge(staged.observation)),
            Decision(scene_id=spec.scene_id, brain="still", plan=no_action(staged.observation)),
        ]
        together = host.execute_all(decisions)
        bodies = at_horizon(3)
        backwards = host.execute_all(decisions[::-1])[::-1]
        bodies_backwards = at_horizon(3)[::-1]
        host.play(spec, SETTINGS)  # two environments: the fewest a scene has
        alone = []
        for decision in decisions:
            alone.append((host.execute(decision), at_horizon(1)[0]))
    finally:
        host.close()
    assert [outcome.result for outcome in together][0] == "caught"
    assert together[1].result != "caught"
    assert together == backwards == [outcome for outcome, _body in alone]
    assert bodies == bodies_backwards == [body for _outcome, body in alone]


def test_a_worker_executes_plans_side_by_side_with_one_exchange_a_tick():
    """The spine node's side of executions side by side: each tick's states of all plans in
    one call, their commands back in one, each plan with a controller of its own; the
    outcomes are the host's own."""
    spec = bench_scenes(limit=1)[0]
    local = SceneHost(STANDIN)
    try:
        staged = local.play(spec, SETTINGS, envs=2)
        r1 = Decision(scene_id=spec.scene_id, brain="r1", r1_reason="no plan: it stands")
        decisions = [oracle_decision(staged), r1]
        expected = local.execute_all(decisions)
    finally:
        local.close()
    worker = EpisodeWorker(STANDIN, episodes_per_process=1)
    spines = [make_controller(STANDIN) for _ in decisions]
    for spine, decision in zip(spines, decisions, strict=True):
        spine.start(decision.plan, spec.observer.pos, spec.observer.yaw)
    exchanges: list[int] = []

    def commands_for(ticks: list[Tick]) -> list[JointCommand]:
        exchanges.append(len(ticks))
        return [s.command(t.state) for s, t in zip(spines, ticks, strict=True)]

    try:
        worker.play(spec, SETTINGS, envs=2)
        outcomes = worker.execute_all(decisions, commands_for)
        worker.finish()
    finally:
        worker.close()
    assert outcomes == expected
    assert exchanges == [2] * outcomes[0].ticks  # one exchange a tick for both
