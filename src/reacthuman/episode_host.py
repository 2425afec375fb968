"""Where a bench's Genesis scenes live: a worker process replaced every N episodes.

Genesis keeps native memory for every scene it builds, even after the scene is destroyed
(about 30 MB a scene here), so a process that plays thousands of episodes grows without end.
``observe`` bounds it by renewing its worker processes; the simulator node does the same with
an ``EpisodeWorker``: the scene is built, played, executed and destroyed in a child process,
and after ``episodes_per_process`` episodes that process is replaced by a fresh one. What the
node needs of a scene crosses the process boundary as plain data (``Staged``: the observation,
frames, truth and the body at each frame), and while the G1 stands before the freeze and
during execution every control tick makes one round trip (the body's state out, the spine's
command back), so the lock-step, and with it every outcome, is the same as in one process.

``SceneHost`` is the same interface in the calling process (``episodes_per_process`` 0).
"""

from __future__ import annotations

import functools
import signal
import socket
import subprocess
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from reacthuman.brain.client import Decision
from reacthuman.observation import Observation
from reacthuman.run_folder import Frames
from reacthuman.runner import Played, execute_decision, execute_decisions, play
from reacthuman.scenes.geometry import Vec3
from reacthuman.scenes.spec import SceneSpec
from reacthuman.scenes.truth import GroundTruth
from reacthuman.sim.episode import MIN_ENVS
from reacthuman.sim.execute import execution_duration, initial_state
from reacthuman.sim.settings import RenderSettings
from reacthuman.sim.simulator import Simulator
from reacthuman.spine.command import JointCommand, JointState
from reacthuman.spine.controller import Controller, controller_name, make_controller
from reacthuman.spine.outcome import ExecutionOutcome
from reacthuman.spine.standin import STANDIN_NAME

# Scenes a worker process plays before a fresh one replaces it: ~30 MB a scene (7
# environments, 640x360), ~1.2 GB at most; a fresh process costs ~19 s (BENCHMARKS "Paper scale").
EPISODES_PER_PROCESS = 40


@dataclass(frozen=True)
class BodyPose:
    """Where the G1 is: its base (position, quaternion w x y z) and each hand's centre."""

    base_pos: Vec3
    base_quat: tuple[float, float, float, float]
    hands: dict[str, Vec3]


@dataclass(frozen=True)
class Tick:
    """The body at the start of a control tick, as the spine is shown it; ``pose`` when the
    caller asked for it at this tick (``pose_every``) and the body is the G1."""

    state: JointState
    pose: BodyPose | None = None


@dataclass
class Staged:
    """A scene played to its freeze, as data: what the brain may see, the truth, the body at
    every frame time (and the G1's pose at the freeze) and how long the execution runs."""

    spec: SceneSpec
    observation: Observation
    frames: Frames
    truth: GroundTruth
    frame_states: dict[float, JointState]
    pose: BodyPose | None  # None: the kinematic stand-in (its joints say where it is)
    duration: float  # s from the freeze to the horizon
    controller: str
    seconds: dict[str, float]  # the play's wall seconds by part (``runner.play_seconds``)


CommandFor = Callable[[Tick], JointCommand]
CommandsFor = Callable[[list[Tick]], list[JointCommand]]  # a tick of plans side by side


def body_pose(body: Any, env: int = 0) -> BodyPose:
    """``body``: a sim.body.G1Body; ``env``: its environment."""
    pos, quat = body.base(env)
    return BodyPose(pos, quat, body.hand_points(env))


class SceneHost:
    """Builds, plays, executes and frees one scene at a time in this process."""

    def __init__(self, controller: str, policy_path: str | None = None) -> None:
        self.name = controller_name(controller)
        self.policy_path = policy_path
        self.physical = self.name != STANDIN_NAME  # the G1, a body in the scene
        self.simulator = Simulator()
        self.played: Played | None = None
        self._more: list[Controller] = []  # controllers past the first, for plans side by side

    @functools.cached_property
    def controller(self) -> Controller:
        """The body's controller, made at first use: the kinematic stand-in's (it is the
        simulated body), or the G1's when no ``command_for`` drives it (with one, the walking
        policy runs where the commands come from: the spine node, not here)."""
        return make_controller(self.name, self.policy_path)

    def controllers(self, n: int) -> list[Controller]:
        """``n`` controllers of this host's kind, one per plan executed side by side (the
        G1's kinematic model is the process's, shared)."""
        while len(self._more) < n - 1:
            self._more.append(make_controller(self.name, self.policy_path))
        return [self.controller, *self._more[: n - 1]]

    def play(
        self,
        spec: SceneSpec,
        settings: RenderSettings,
        legend: bool = False,
        command_for: CommandFor | None = None,
        envs: int = MIN_ENVS,
    ) -> Staged:
        """Build ``spec``'s scene and play it to the freeze (the previous one is freed).
        ``command_for``: where the standing G1's commands come from (None: this host's
        controller); the kinematic stand-in does not stand under a controller. ``envs``:
        how many plans ``execute_all`` will execute side by side."""

        self.finish()
        relay = None
        if command_for is not None and self.physical:
            asked = command_for

            def relay(state: JointState) -> JointCommand:
                return asked(Tick(state))

        stand = None if relay is not None else self.controller
        played = self.played = play(self.simulator, spec, settings, stand, legend, relay, envs)
        g1 = played.episode.g1
        if g1 is None:  # the stand-in, where the scene puts the robot
            stand_in = self.controller
            stand_in.start(None, spec.observer.pos, spec.observer.yaw)
            standing = initial_state(played.episode, stand_in)
            states = {t: standing for t in played.observation.frame_times}
        else:
            states = dict(played.episode.g1_states)
        return Staged(
            spec,
            played.observation,
            played.frames,
            played.truth,
            states,
            body_pose(g1) if g1 is not None else None,
            execution_duration(played.episode),
            self.name,
            played.seconds,
        )

    def execute(
        self,
        decision: Decision,
        command_for: CommandFor | None = None,
        video: Path | None = None,
        pose_every: int = 0,
    ) -> ExecutionOutcome:
        """Execute ``decision`` on the scene played last. ``command_for``: where each tick's
        command comes from (None: this host's controller), gains included for the G1.
        ``pose_every``: the G1's pose goes with every that many ticks' state (0: never)."""
        if self.played is None:
            raise RuntimeError("execute before play")
        body = self.played.episode.g1
        relay = None
        if command_for is not None:
            asked = command_for

            def relay(state: JointState) -> JointCommand:
                pose = None
                if body is not None and pose_every and state.tick % pose_every == 0:
                    pose = body_pose(body)
                return asked(Tick(state, pose))

        controller = self.name if relay is not None and self.physical else self.controller
        return execute_decision(self.played, decision, controller, relay, video=video)

    def execute_all(
        self,
        decisions: list[Decision],
        commands_for: CommandsFor | None = None,
        pose_every: int = 0,
    ) -> list[ExecutionOutcome]:
        """Execute the decisions side by side on the scene played last (at most the ``envs``
        it was played with), each as ``execute`` would alone. ``commands_for``: every tick's
        commands for all of them at once (None: this host's controllers)."""
        if self.played is None:
            raise RuntimeError("execute before play")
        body = self.played.episode.g1
        relay = None
        if commands_for is not None:
            asked = commands_for

            def relay(states: list[JointState]) -> list[JointCommand]:
                posed = body is not None and pose_every and states[0].tick % pose_every == 0
                return asked(
                    [
                        Tick(state, body_pose(body, env) if posed and body else None)
                        for env, state in enumerate(states)
                    ]
                )

        if relay is not None and self.physical:
            return execute_decisions(self.played, decisions, self.name, relay)
        return execute_decisions(self.played, decisions, self.controllers(len(decisions)), relay)

    def finish(self) -> None:
        """Free the scene played last (if any)."""
        if self.played is not None:
            played, self.played = self.played, None
            self.simulator.destroy(played.episode)

    def close(self) -> None:
        self.finish()


class WorkerDied(RuntimeError):
    """The worker process that holds the scenes exited (killed, out of memory, a crash)."""


class _Abort(Exception):
    """The caller's command source failed: stop the execution and report back."""


def _serve(connection: Any, controller: str, policy_path: str | None) -> None:
    """The worker process: a ``SceneHost`` answering its parent over ``connection``."""
    # Ctrl-C reaches the whole process group; the parent decides what stops, and then
    # closes this process (or its end of the pipe closes, when the parent is killed).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    host: SceneHost | None = None

    def relayed(tick: Tick) -> JointCommand:
        connection.send(("tick", tick))
        kind, payload = connection.recv()
        if kind != "command":
            raise _Abort
        return payload

    def relayed_all(ticks: list[Tick]) -> list[JointCommand]:
        connection.send(("ticks", ticks))
        kind, payload = connection.recv()
        if kind != "commands":
            raise _Abort
        return payload

    while True:
        try:
            kind, args = connection.recv()
        except (EOFError, ConnectionResetError):
            return
        try:
            if kind == "close":
                if host is not None:
                    host.close()
                connection.send(("closed", None))
                return
            if host is None:  # here, so that a controller that cannot load is an answer
                host = SceneHost(controller, policy_path)
            if kind == "play":
                spec, settings, legend, relay, envs = args
                staged = host.play(spec, settings, legend, relayed if relay else None, envs)
                connection.send(("staged", staged))
            elif kind == "execute_all":
                decisions, relay, pose_every = args
                outcomes = host.execute_all(decisions, relayed_all if relay else None, pose_every)
                connection.send(("outcomes", outcomes))
            elif kind == "execute":
                decision, relay, video, pose_every = args
                outcome = host.execute(decision, relayed if relay else None, video, pose_every)
                connection.send(("outcome", outcome))
            elif kind == "finish":
                host.finish()
                connection.send(("finished", None))
        except (EOFError, BrokenPipeError, ConnectionResetError):
            return  # the parent is gone (killed, or it closed its end mid-execution)
        except _Abort:
            answer: tuple[str, Any] = ("aborted", None)
        except Exception as exc:
            answer = ("error", (type(exc).__name__, str(exc), traceback.format_exc()))
        else:
            continue
        try:
            connection.send(answer)
        except (BrokenPipeError, ConnectionResetError):
            return


class WorkerError(RuntimeError):
    """An exception in the worker process, raised again in the parent (``worker_traceback``:
    where it happened there)."""

    def __init__(self, message: str, worker_traceback: str = "") -> None:
        super().__init__(message)
        self.worker_traceback = worker_traceback


class EpisodeWorker:
    """A ``SceneHost`` in a child process, replaced by a fresh one every
    ``episodes_per_process`` finished episodes so that Genesis's memory stays bounded."""

    def __init__(
        self,
        controller: str,
        policy_path: str | None = None,
        episodes_per_process: int = EPISODES_PER_PROCESS,
    ) -> None:
        if episodes_per_process < 1:
            raise ValueError(f"episodes_per_process must be at least 1, not {episodes_per_process}")
        self.controller = controller
        self.policy_path = policy_path
        self.episodes_per_process = episodes_per_process
        self.process: Any = None
        self.connection: Any = None
        self.episodes = 0  # finished in the current process
        self.processes = 0  # started so far
        self.scene_id = ""  # what the worker is doing, for errors

    # -- the process ------------------------------------------------------------------
    def _start(self) -> None:
        # A process of its own (``python -m reacthuman.episode_host``) rather than
        # multiprocessing's spawn, which imports the caller's main module again (an rclpy
        # node's, or a script without a main guard, which then fails).
        mine, theirs = socket.socketpair()
        command = [sys.executable, "-m", __name__, str(theirs.fileno()), self.controller]
        command.append(self.policy_path or "")
        try:
            self.process = subprocess.Popen(command, pass_fds=(theirs.fileno(),))
        finally:
            theirs.close()
        self.connection = Connection(mine.detach())
        self.episodes = 0
        self.processes += 1

    def _send(self, message: tuple[str, Any]) -> None:
        try:
            self.connection.send(message)
        except (BrokenPipeError, ConnectionResetError, OSError):
            raise self._died() from None

    def _receive(self) -> tuple[str, Any]:
        try:
            kind, payload = self.connection.recv()
        except (EOFError, ConnectionResetError, OSError):
            raise self._died() from None
        if kind == "error":
            name, text, trace = payload
            raise WorkerError(f"{name}: {text} (in the episode worker, {self.scene_id})", trace)
        return kind, payload

    def _died(self) -> WorkerDied:
        process = self.process
        try:
            code = process.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            process.kill()
            code = process.wait()
        self.connection.close()
        self.process = self.connection = None
        how = (
            f"was killed by signal {-code}" if code is not None and code < 0 else f"exited ({code})"
        )
        return WorkerDied(
            f"the episode worker process (pid {process.pid}) {how} during {self.scene_id}; "
            "a rerun into the same run folder resumes from the scenes already scored"
        )

    def _call(self, kind: str, args: Any, expect: str) -> Any:
        self._send((kind, args))
        got, payload = self._receive()
        if got != expect:
            raise WorkerError(f"the episode worker answered {got!r} to {kind!r}")
        return payload

    # -- the host interface -----------------------------------------------------------
    def play(
        self,
        spec: SceneSpec,
        settings: RenderSettings,
        legend: bool = False,
        command_for: CommandFor | None = None,
        envs: int = MIN_ENVS,
    ) -> Staged:
        if self.process is not None and self.episodes >= self.episodes_per_process:
            self.close()
        if self.process is None:
            self._start()
        self.scene_id = spec.scene_id
        self._send(("play", (spec, settings, legend, command_for is not None, envs)))
        return self._answer_ticks(command_for, "staged")

    def execute(
        self,
        decision: Decision,
        command_for: CommandFor | None = None,
        video: Path | None = None,
        pose_every: int = 0,
    ) -> ExecutionOutcome:
        self._send(("execute", (decision, command_for is not None, video, pose_every)))
        return self._answer_ticks(command_for, "outcome")

    def execute_all(
        self,
        decisions: list[Decision],
        commands_for: CommandsFor | None = None,
        pose_every: int = 0,
    ) -> list[ExecutionOutcome]:
        self._send(("execute_all", (decisions, commands_for is not None, pose_every)))
        return self._answer_ticks(commands_for, "outcomes", "ticks", "commands")

    def _answer_ticks(
        self,
        command_for: Callable[[Any], Any] | None,
        result: str,
        asks: str = "tick",
        answer: str = "command",
    ) -> Any:
        """Answer the worker's control ticks with ``command_for`` until it sends ``result``."""
        while True:
            kind, payload = self._receive()
            if kind == result:
                return payload
            if kind != asks or command_for is None:
                raise WorkerError(f"the episode worker sent {kind!r} before its {result!r}")
            try:
                command = command_for(payload)
            except BaseException:
                self._send(("abort", None))
                self._receive()  # "aborted": the worker is ready for the next request
                raise
            self._send((answer, command))

    def finish(self) -> None:
        if self.process is not None:
            self._call("finish", None, "finished")
            self.episodes += 1

    def close(self) -> None:
        """Free the scene and end the worker process (a later ``play`` starts another)."""
        if self.process is None:
            return
        process = self.process
        try:
            self._call("close", None, "closed")
        except (WorkerDied, WorkerError):
            pass
        finally:
            if self.connection is not None:
                self.connection.close()
            try:
                process.wait(timeout=30.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            self.process = self.connection = None


def episode_host(
    controller: str,
    policy_path: str | None = None,
    episodes_per_process: int = EPISODES_PER_PROCESS,
) -> SceneHost | EpisodeWorker:
    """Scenes in a worker process renewed every ``episodes_per_process`` episodes, or in this
    process when it is 0."""
    if episodes_per_process < 0:
        raise ValueError(
            f"episodes_per_process must be 0 (in this process) or more, not {episodes_per_process}"
        )
    if episodes_per_process == 0:
        return SceneHost(controller, policy_path)
    return EpisodeWorker(controller, policy_path, episodes_per_process)


def main(argv: list[str] | None = None) -> None:
    """The worker process: ``python -m reacthuman.episode_host FD CONTROLLER [POLICY_PATH]``,
    started by ``EpisodeWorker`` with its end of a socket pair as FD."""
    fd, controller, policy_path = argv if argv is not None else sys.argv[1:]
    _serve(Connection(int(fd)), controller, policy_path or None)


if __name__ == "__main__":
    # Run as the module's importable self, so what crosses the pipe pickles by its real name
    # (reacthuman.episode_host.Staged, not __main__.Staged).
    from reacthuman.episode_host import main as served

    served()
