"""The node graph's episodes without ROS: what the simulator node does, phase by phase.

A run plays each scene of its share of the set once to its freeze and gives each brain that
has not finished it an episode of its own from that freeze (``contract``'s protocol): the
scene announced, the stand in lock step with the spine, the window shown, the brain's plan
awaited, the execution in lock step, the outcome sent and its score awaited. This module
decides what happens in which order, on which span of the run's clock, what a resumed run
skips and when the run ends; ``EpisodeGraph`` is how it reaches the other nodes
(``ros.sim_node`` implements it over topics, a test with plain Python).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from reacthuman.brain.client import Decision
from reacthuman.brain.run import brain_names
from reacthuman.episode_host import EpisodeWorker, SceneHost, Staged, Tick, episode_host
from reacthuman.run_folder import TIMINGS_FILE, episode_folder
from reacthuman.runner import bench_scenes
from reacthuman.scenes.spec import SceneSpec
from reacthuman.scoring.results import ScoreRow
from reacthuman.sim.episode import MAX_ENVS, standing_ticks
from reacthuman.sim.settings import RenderSettings
from reacthuman.spine.command import JointCommand, ticks_in
from reacthuman.spine.controller import controller_name
from reacthuman.spine.outcome import ExecutionOutcome
from reacthuman.spine.standin import STANDIN_NAME

NS = 1_000_000_000  # nanoseconds a second: the run's clock counts in them
# During execution /clock and the transforms go out every SLOW_EVERY control ticks (10 Hz):
# the lock-step itself runs on the stamps of /joint_states and the joint commands, and each
# extra message per tick costs every subscriber a callback.
SLOW_EVERY = 5

S = TypeVar("S")
S_co = TypeVar("S_co", covariant=True)
Host = SceneHost | EpisodeWorker  # where a run's scenes live (``episode_host``)


def seconds_to_ns(seconds: float) -> int:
    return round(seconds * NS)


class NodeMissing(RuntimeError):
    """A node of the graph is not there or stopped answering."""


@dataclass(frozen=True)
class EpisodeSlot:
    """One episode's place in the run: its number, its scene, its brain and where it starts
    on the run's clock."""

    run_id: str
    episode: int  # scene index x brains + the brain's index: the same on a resumed run
    spec: SceneSpec
    start_ns: int
    brain: str

    @property
    def envelope(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "episode": self.episode}


Asked = tuple[EpisodeSlot, Decision, int, dict[str, Any]]  # episode, plan, freeze, timing


class Held(Protocol):
    """What a node says the run folder holds (``contract.RunFolderEpisodes``)."""

    def of(self, brain: str) -> set[str]: ...


@dataclass(frozen=True)
class Found:
    """The graph as discovery found it: whether a recorder records bags, and the episodes
    the run folder already holds, scored (the scorer's word) and bagged (the recorder's)."""

    recording: bool
    scored: Held
    recorded: Held | None  # None without a recorder


@dataclass(frozen=True)
class RunParameters:
    """The simulator node's parameters that shape a run (``SimNode.PARAMETERS``)."""

    scenes: str
    limit: int
    shard: int
    shards: int
    brain: str
    width: int
    height: int
    frames: int
    legend: bool
    controller: str
    policy_path: str
    videos: bool
    episodes_per_process: int
    brain_timeout: float
    score_timeout: float
    bag_timeout: float
    run_dir: str
    # The nodes' names, for the messages that say one did not answer.
    brain_node: str
    scorer_node: str
    recorder_node: str


class EpisodeGraph(Protocol[S_co]):
    """The other nodes, as the driver reaches them: each method publishes one step of the
    episode protocol, or waits for another node's answer (None at its timeout)."""

    def status(self, state: str, reason: str | None, episodes: int) -> S_co:
        """Publishes how the run stands, and returns it."""

    def info(self, text: str) -> None: ...

    def warning(self, text: str) -> None: ...

    def error(self, text: str) -> None: ...

    def discover(self) -> Found:
        """Waits until the required nodes are there (NodeMissing otherwise)."""

    def over_unitree(self) -> bool:
        """Whether executions reach the spine over Unitree's interface."""

    def announce(self, ep: EpisodeSlot) -> None: ...

    def stand(
        self, ep: EpisodeSlot, ticks: int, controller: str, timing: dict[str, Any]
    ) -> Callable[[Tick], JointCommand]:
        """Announces the G1's stand; the lock step that asks the spine for each tick."""

    def show(self, ep: EpisodeSlot, staged: Staged, brains: tuple[str, ...]) -> int:
        """Ground truth, the window and the freeze; returns the freeze's time."""

    def await_plan(self, ep: EpisodeSlot, timeout: float) -> Decision | None: ...

    def execute(
        self,
        ep: EpisodeSlot,
        staged: Staged,
        decision: Decision,
        freeze_ns: int,
        timing: dict[str, Any],
    ) -> Callable[[Tick], JointCommand]:
        """Announces the execution; the lock step that asks the spine for each tick."""

    def execute_side_by_side(
        self, asked: list[Asked], staged: Staged, timing: dict[str, Any]
    ) -> Callable[[list[Tick]], list[JointCommand]]:
        """Announces the executions; the lock step asking for all of a tick's at once."""

    def clock(self, ns: int) -> None: ...

    def send_outcome(self, ep: EpisodeSlot, outcome: ExecutionOutcome) -> None: ...

    def await_score(self, ep: EpisodeSlot, timeout: float) -> ScoreRow | None: ...

    def await_recorded(self, timeout: float) -> Held | None:
        """The recorder's next word on the bags it holds."""


class EpisodeDriver(Generic[S]):
    """A run's episodes over ``graph``: its phases in order, resuming and the run's end."""

    def __init__(
        self,
        run_id: str,
        graph: EpisodeGraph[S],
        make_host: Callable[[str, str | None, int], Host] = episode_host,
    ) -> None:
        self.run_id = run_id
        self.graph = graph
        self.make_host = make_host  # ``episode_host``: where the scenes live
        self.stop_requested = False
        self.recording = False  # a recorder was found with the others (``discover``)
        self.recorded: Held | None = None  # what the recorder holds, renewed as it grows
        self.episodes_done = 0
        self.episode_count = 0
        self.controller = ""  # the body's controller, by its full name (set by run)
        self._started: dict[int, float] = {}  # wall clock at each episode's start
        self.timings: list[dict[str, Any]] = []  # wall seconds per episode and phase
        self.scored_now: dict[str, set[str]] = {}  # scene ids scored in this run, by brain
        self.on_row: Callable[[ScoreRow], None] | None = None  # progress, when composed

    def log_progress(self, text: str) -> None:
        """Progress in the node's log when it runs as a process of its own (``ros2 launch``);
        composed, ``reacthuman bench`` prints it (``on_row``)."""
        if self.on_row is None:
            self.graph.info(text)

    def status(self, state: str, reason: str | None = None) -> S:
        return self.graph.status(state, reason, self.episodes_done)

    # -- the run ------------------------------------------------------------------------
    def run(self, params: RunParameters) -> S:
        """Play every scene; returns how the run ended (also published as the run status)."""
        try:
            brain_names(params.brain)
            if not 0 <= params.shard < params.shards:
                raise ValueError(
                    f"shard {params.shard} of {params.shards}: expected 0 <= shard < shards"
                )
        except ValueError as exc:
            self.graph.error(str(exc))
            return self.status("failed", str(exc))
        try:
            found = self.graph.discover()
            self.recording, self.recorded = found.recording, found.recorded
            return self._episodes(params, found.scored)
        except NodeMissing as exc:
            self.graph.error(str(exc))
            return self.status("failed", str(exc))

    def _episodes(self, params: RunParameters, scored: Held) -> S:
        settings = RenderSettings(width=params.width, height=params.height, frames=params.frames)
        specs = bench_scenes(params.scenes, params.limit or None)[params.shard :: params.shards]
        brains = brain_names(params.brain)
        run_dir = Path(params.run_dir)
        done = {brain: self.resumed(brain, specs, scored) for brain in brains}
        controller = self.controller = controller_name(params.controller)
        host = self.make_host(controller, params.policy_path or None, params.episodes_per_process)
        self.episode_count = len(specs) * len(brains)
        already = sum(len(ids) for ids in done.values())
        self.log_progress(
            f"{len(specs)} scene(s) from {params.scenes} x {len(brains)} brain(s) "
            f"({', '.join(brains)}; {already} episode(s) already scored), controller "
            f"{controller}, {settings.width}x{settings.height} -> {run_dir}"
        )
        self.status("running")
        clock_ns = 0
        try:
            for index, spec in enumerate(specs):
                if self.stop_requested:
                    return self.status("stopped", "stop requested")
                slots = [
                    EpisodeSlot(self.run_id, index * len(brains) + number, spec, 0, brain)
                    for number, brain in enumerate(brains)
                    if spec.scene_id not in done[brain]
                ]
                if slots:
                    clock_ns = self._scene(slots, settings, host, clock_ns, params)
        finally:
            host.close()
        if self.stop_requested:
            return self.bagged(self.status("stopped", "stop requested"), params)
        self.log_progress(
            f"done: {self.episodes_done} episode(s) scored into {run_dir / 'results.sqlite'}; "
            f"the report: reacthuman report {run_dir}"
        )
        return self.bagged(self.status("done"), params)

    def resumed(self, brain: str, specs: list[SceneSpec], scored: Held) -> set[str]:
        """The scenes ``brain`` has finished in this run folder, which a resumed run skips:
        scored, and bagged when a recorder is in the graph."""
        done = scored.of(brain)
        # A scored episode always has its bag: one whose bag was lost (the run killed while
        # the recorder still wrote it) is played again to record it, not skipped.
        bagged = self.recorded.of(brain) if self.recording and self.recorded else done
        unbagged = [s.scene_id for s in specs if s.scene_id in done - bagged]
        if unbagged:  # said however the node runs: the user's bags are at stake
            self.graph.warning(
                f"{brain}: {len(unbagged)} scored episode(s) have no bag (a run stopped while "
                f"writing it): played again to record them: {', '.join(unbagged)}"
            )
        return done - set(unbagged)

    def bagged(self, status: S, params: RunParameters) -> S:
        """``status`` once the recorder holds a bag of every episode this run scored (it
        writes the last ones after the run status, each when all its messages are in), or
        after ``bag_timeout``; the episodes still without a bag are named (a rerun into the
        run folder plays them again)."""
        if not self.recording or self.recorded is None:
            return status
        deadline = time.monotonic() + params.bag_timeout
        while True:
            held = self.recorded
            lacking = sorted(
                f"{brain} {scene_id}"
                for brain, ids in self.scored_now.items()
                for scene_id in ids - held.of(brain)
            )
            left = deadline - time.monotonic()
            if not lacking:
                return status
            if left <= 0:
                self.graph.warning(
                    f"{params.recorder_node} wrote no bag for {len(lacking)} scored "
                    f"episode(s) within {params.bag_timeout:g} s: {', '.join(lacking)}; a "
                    f"rerun into {params.run_dir} plays them again to record them"
                )
                return status
            renewed = self.graph.await_recorded(left)
            if renewed is not None:
                self.recorded = renewed

    # -- a scene ------------------------------------------------------------------------
    def _scene(
        self,
        slots: list[EpisodeSlot],
        settings: RenderSettings,
        host: Host,
        clock_ns: int,
        params: RunParameters,
    ) -> int:
        """One scene played once to its freeze (``host``: where it lives, ``episode_host``),
        then an episode per brain in ``slots``, each executed from that freeze: side by side,
        up to ``MAX_ENVS`` at once (one lock-step exchange a tick for all), or one after
        another with videos or over Unitree's interface. Returns the clock after the last.
        Stops after the current episodes when a stop is requested."""
        if self.graph.over_unitree() or params.videos:
            return self._scene_in_turn(slots, settings, host, clock_ns, params)
        staged: Staged | None = None
        envs = min(len(slots), MAX_ENVS)
        try:
            for first in range(0, len(slots), envs):
                asked: list[Asked] = []
                for number in range(first, min(first + envs, len(slots))):
                    ep = replace(slots[number], start_ns=clock_ns)
                    self._begin_episode(ep)
                    if staged is None:  # the scene's first episode plays it
                        staged = self._play(ep, settings, host, params, envs)
                    later = tuple(s.brain for s in slots[number:])
                    freeze_ns = self.graph.show(ep, staged, later)
                    asked.append((ep, self._decide(ep, params), freeze_ns, self.timings[-1]))
                    # A second of clock between episodes.
                    clock_ns = freeze_ns + seconds_to_ns(staged.duration) + NS
                assert staged is not None  # the batch's first episode played it
                outcomes = self._execute_side_by_side(asked, staged, host)
                # Every outcome goes out before the first score is awaited: the scorer
                # scores them one after another while the next round trip is under way.
                for (ep, _decision, freeze_ns, _timing), outcome in zip(
                    asked, outcomes, strict=True
                ):
                    self.graph.clock(freeze_ns + seconds_to_ns(staged.duration))
                    self.graph.send_outcome(ep, outcome)
                for ep, _decision, _freeze_ns, timing in asked:
                    self._await_score(ep, timing, params)
                    self.episodes_done += 1
                if self.stop_requested:
                    break
        finally:
            host.finish()
        return clock_ns

    def _scene_in_turn(
        self,
        slots: list[EpisodeSlot],
        settings: RenderSettings,
        host: Host,
        clock_ns: int,
        params: RunParameters,
    ) -> int:
        """``_scene`` with the executions one after another."""
        staged: Staged | None = None
        try:
            for number, slot in enumerate(slots):
                ep = replace(slot, start_ns=clock_ns)
                self._begin_episode(ep)
                if staged is None:  # the scene's first episode plays it
                    staged = self._play(ep, settings, host, params)
                later = tuple(s.brain for s in slots[number:])
                freeze_ns = self.graph.show(ep, staged, later)
                decision = self._decide(ep, params)
                outcome = self._execute(ep, staged, decision, freeze_ns, host, params)
                end_ns = freeze_ns + seconds_to_ns(staged.duration)
                self.graph.clock(end_ns)
                self.graph.send_outcome(ep, outcome)
                self._await_score(ep, self.timings[-1], params)
                self.episodes_done += 1
                clock_ns = end_ns + NS  # a second of clock between episodes
                if self.stop_requested:
                    break
        finally:
            host.finish()
        return clock_ns

    # -- an episode's phases ------------------------------------------------------------
    def _begin_episode(self, ep: EpisodeSlot) -> None:
        """The episode's timings opened and its scene message published."""
        self._started[ep.episode] = time.perf_counter()
        self.timings.append({"scene_id": ep.spec.scene_id, "brain": ep.brain})
        self.graph.announce(ep)

    def _play(
        self,
        ep: EpisodeSlot,
        settings: RenderSettings,
        host: Host,
        params: RunParameters,
        envs: int = 1,
    ) -> Staged:
        """Play the scene to the freeze; a G1 stands meanwhile under the spine's commands
        (``stand``), or over Unitree's interface under the host's own controller (as a
        robot's own stand would be, before the spine takes it). The scene's later episodes
        start from this freeze: their bags hold no stand."""
        command_for = None
        if not self.graph.over_unitree() and self.controller != STANDIN_NAME:
            ticks = standing_ticks(ep.spec, settings)
            command_for = self.graph.stand(ep, ticks, self.controller, self.timings[-1])
        started = time.perf_counter()
        staged: Staged = host.play(ep.spec, settings, params.legend, command_for, envs)
        self.timings[-1]["play"] = time.perf_counter() - started
        self.timings[-1].update(staged.seconds)
        return staged

    def _decide(self, ep: EpisodeSlot, params: RunParameters) -> Decision:
        """The brain's plan, or an R1 record when none came in time."""
        timeout = params.brain_timeout + 5.0
        deciding = time.perf_counter()
        decision = self.graph.await_plan(ep, timeout)
        self.timings[-1]["publish_and_decide"] = time.perf_counter() - deciding
        if decision is None:
            decision = Decision(
                scene_id=ep.spec.scene_id,
                brain=ep.brain,
                r1_reason=f"{params.brain_node} did not publish a plan within {timeout:g} s",
            )
            self.graph.warning(str(decision.r1_reason))
        return decision

    def _execute(
        self,
        ep: EpisodeSlot,
        staged: Staged,
        decision: Decision,
        freeze_ns: int,
        host: Host,
        params: RunParameters,
    ) -> ExecutionOutcome:
        """The decision executed from the freeze, each tick's command from the spine."""
        timing = self.timings[-1]
        command_for = self.graph.execute(ep, staged, decision, freeze_ns, timing)
        video = None
        if params.videos:
            video = episode_folder(Path(params.run_dir), decision.brain, ep.spec.scene_id)
            video = video / "execution.mp4"
        executing = time.perf_counter()
        outcome: ExecutionOutcome = host.execute(decision, command_for, video, SLOW_EVERY)
        timing["execute"] = time.perf_counter() - executing
        timing["ticks"] = ticks_in(staged.duration)
        return outcome

    def _execute_side_by_side(
        self, asked: list[Asked], staged: Staged, host: Host
    ) -> list[ExecutionOutcome]:
        """The episodes' decisions executed side by side from the freeze, every tick's
        commands from the spine in one exchange."""
        for _ep, _decision, _freeze_ns, each in asked:
            each["ticks"] = ticks_in(staged.duration)
        timing = asked[0][3]  # the executions count in the first episode, as the play does
        commands_for = self.graph.execute_side_by_side(asked, staged, timing)
        executing = time.perf_counter()
        outcomes: list[ExecutionOutcome] = host.execute_all(
            [decision for _ep, decision, _ns, _t in asked], commands_for, SLOW_EVERY
        )
        timing["execute"] = time.perf_counter() - executing
        return outcomes

    def _await_score(self, ep: EpisodeSlot, timing: dict[str, Any], params: RunParameters) -> None:
        """The episode's score row, from the scorer (``timing``: the episode's, written to
        the run's timings file)."""
        scoring = time.perf_counter()
        row = self.graph.await_score(ep, params.score_timeout)
        timing["score_wait"] = time.perf_counter() - scoring
        if row is None:
            raise NodeMissing(
                f"{params.scorer_node} did not score {ep.spec.scene_id} within "
                f"{params.score_timeout:g} s"
            )
        timing["total"] = time.perf_counter() - self._started.pop(ep.episode)
        self.scored_now.setdefault(ep.brain, set()).add(ep.spec.scene_id)
        with (Path(params.run_dir) / TIMINGS_FILE).open("a") as log:
            log.write(json.dumps(timing) + "\n")
        if self.on_row is not None:
            self.on_row(row)
        self.log_progress(f"[{ep.episode + 1}/{self.episode_count}] {row.summary()}")
