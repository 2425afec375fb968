"""The benchmark's episode, phase by phase: play a scene to its freeze, decide, execute.

Playing builds the scene, plays it to the freeze rendering the window and rolls out ground
truth; every brain's plan is then executed from that freeze in lock-step with a controller
and judged. The ROS 2 graph (``reacthuman.ros``) runs these functions in its nodes, the direct
path (``reacthuman.direct``) in one loop, and the two give identical score rows. Where each
file of a run goes is ``reacthuman.run_folder``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reacthuman.brain.classify import reaching_hands
from reacthuman.brain.client import Decision
from reacthuman.observation import Observation
from reacthuman.run_folder import Frames
from reacthuman.scenes.geometry import Vec3
from reacthuman.scenes.set_files import read_manifest, read_scenes
from reacthuman.scenes.set_models import Scene, SkippedScene
from reacthuman.scenes.sets import default_scenes
from reacthuman.scenes.spec import CameraName, SceneSpec
from reacthuman.scenes.truth import GroundTruth
from reacthuman.sim.episode import MIN_ENVS, standing
from reacthuman.sim.execute import CommandsFor, Run, execute, execute_all, initial_state
from reacthuman.sim.observe import observation_for
from reacthuman.sim.settings import RenderSettings
from reacthuman.spine.command import JointCommand, JointState
from reacthuman.spine.controller import Controller
from reacthuman.spine.outcome import ExecutionOutcome, OutcomeJudge


@dataclass
class Played:
    """A scene played to its freeze: the built episode, what the brain may see, the truth."""

    spec: SceneSpec
    episode: Any  # sim.episode.Episode
    observation: Observation
    frames: Frames
    truth: GroundTruth
    seconds: dict[str, float]  # wall seconds by part (``play_seconds``)


def play(
    simulator: Any,
    spec: SceneSpec,
    settings: RenderSettings,
    stand: Controller | None = None,
    legend: bool = False,
    command_for: Callable[[JointState], JointCommand] | None = None,
    envs: int = MIN_ENVS,
) -> Played:
    """Build the scene and play it to the freeze. ``stand``: the G1's controller, which keeps
    the G1 standing (zero command) from the start; None for the kinematic stand-in.
    ``command_for``: where the standing G1's commands come from instead (the spine node,
    through the graph: ``stand`` is then not needed). ``legend``: the legend ablation (the
    observation also describes the objects). ``envs``: how many plans will be executed side
    by side from the freeze (``sim.simulator.Simulator.build``)."""
    started = time.perf_counter()
    episode = simulator.build(spec, settings, command_for or standing(stand, spec), envs)
    built = time.perf_counter()
    try:
        truth = episode.run()
    except BaseException:  # the stand's command source failed: the scene is freed here
        simulator.destroy(episode)
        raise
    seconds = play_seconds(built - started, time.perf_counter() - built, episode.seconds)
    observation = observation_for(spec, settings, legend)
    return Played(spec, episode, observation, episode.frames, truth, seconds)


def play_seconds(build: float, run: float, episode: dict[str, float]) -> dict[str, float]:
    """Where a play's wall time went: building the scene, physics to the freeze (with the
    G1 standing under its controller), rendering the window, and the ground-truth roll-out
    (physics past the freeze, and the rest of the play's own bookkeeping)."""
    to_freeze = episode["physics"] - episode["after_freeze"]
    return {
        "build": build,
        "to_freeze": to_freeze,
        "render": episode["render"],
        "truth": run - to_freeze - episode["render"],
    }


VIDEO_FPS = 25  # an execution video frame every second control tick


# The execution view: looking at a point this far ahead of the robot at this height, from
# this far off to the side of the close-up camera (as far as the room allows), this high.
EXECUTION_LOOK = (0.45, 0.8)  # m ahead of the robot's feet, m above the floor
EXECUTION_CAMERA = (2.2, 1.5, 80.0)  # m away, m above the floor, degrees off straight ahead
WALL_GAP = 0.15  # m the execution camera keeps inside the walls


def execution_camera(spec: SceneSpec) -> tuple[Vec3, Vec3]:
    """(camera position, look-at point) for an execution video: the robot and the metre in
    front of it, where catches connect and dodges start, seen from the side (the event's own
    close-up frames the event, often with the robot out of shot): the close-up camera's side,
    unless the room leaves more space on the other."""
    (px, py, _pz), yaw = spec.observer.pos, spec.observer.yaw
    c, s = math.cos(yaw), math.sin(yaw)
    ahead, height = EXECUTION_LOOK
    look = (px + c * ahead, py + s * ahead, height)
    closeup = next(cam for cam in spec.cameras if cam.name is CameraName.closeup)
    side = 1.0 if -s * (closeup.pos[0] - px) + c * (closeup.pos[1] - py) >= 0.0 else -1.0
    distance, up, degrees = EXECUTION_CAMERA
    half = (spec.room.size[0] / 2.0 - WALL_GAP, spec.room.size[1] / 2.0 - WALL_GAP)

    def room_along(bearing: float) -> tuple[float, float, float]:
        unit = (math.cos(bearing), math.sin(bearing))
        reach = distance
        for k in (0, 1):
            if abs(unit[k]) > 1e-9:
                wall = half[k] if unit[k] > 0 else -half[k]
                reach = min(reach, (wall - look[k]) / unit[k])
        return max(reach, 0.0), unit[0], unit[1]

    views = [room_along(yaw + sign * math.radians(degrees)) for sign in (side, -side)]
    reach, ux, uy = views[0] if views[0][0] >= 0.75 * distance else max(views)
    return (look[0] + ux * reach, look[1] + uy * reach, up), look


class ExecutionVideo:
    """The execution seen from beside the robot (``execution_camera``) as an MP4 file, for
    people and the report. Rendering costs ~0.1 s a frame at 640x360 on these CPUs, so it is
    an option. It moves the close-up camera, which has rendered its frames by the freeze."""

    def __init__(self, episode: Any, path: Path) -> None:
        import imageio.v2 as imageio

        path.parent.mkdir(parents=True, exist_ok=True)
        self.camera = episode.cameras[CameraName.closeup]
        pos, look = execution_camera(episode.spec)
        self.camera.set_pose(pos=pos, lookat=look)
        self.path = path
        self.writer = imageio.get_writer(
            path, fps=VIDEO_FPS, codec="libx264", quality=7, macro_block_size=8
        )
        self.ticks = 0

    def on_tick(self, command: JointCommand, t: float) -> None:
        from reacthuman.genesis_runtime import as_numpy

        if self.ticks % (50 // VIDEO_FPS) == 0:
            self.writer.append_data(as_numpy(self.camera.render(rgb=True)[0]))
        self.ticks += 1

    def close(self) -> None:
        self.writer.close()


def execute_decision(
    played: Played,
    decision: Decision,
    controller: Controller | str,
    command_for: Callable[[JointState], JointCommand] | None = None,
    on_tick: Callable[[JointCommand, float], None] | None = None,
    video: Path | None = None,
) -> ExecutionOutcome:
    """Execute the decision's plan from the freeze (a standing robot for an R1); with
    ``video``, also write the execution's close-up view there as MP4. ``controller``: the
    body's, or only its name when ``command_for`` drives a G1 (the spine node, through the
    graph: its policy then runs there alone)."""
    spec = played.spec
    if isinstance(controller, str):
        if command_for is None or played.episode.g1 is None:
            raise ValueError(f"{controller}: only a G1 driven by command_for needs no controller")
        name, source = controller, command_for
    else:
        controller.start(decision.plan, spec.observer.pos, spec.observer.yaw)
        name, source = controller.name, command_for or controller.command
    judge = OutcomeJudge(
        spec.hazard,
        spec.scene_id,
        decision.brain,
        name,
        floor_resolves=spec.intended.floor_resolves,
    )
    recorder = ExecutionVideo(played.episode, video) if video is not None else None

    def ticked(command: JointCommand, t: float) -> None:
        if recorder is not None:
            recorder.on_tick(command, t)
        if on_tick is not None:
            on_tick(command, t)

    try:
        return execute(
            played.episode,
            initial_state(played.episode, controller),
            source,
            judge,
            ticked,
            reaching=reaching_hands(decision.plan),
        )
    finally:
        if recorder is not None:
            recorder.close()


def execute_decisions(
    played: Played,
    decisions: list[Decision],
    controllers: list[Controller] | str,
    commands_for: CommandsFor | None = None,
) -> list[ExecutionOutcome]:
    """Execute the decisions' plans side by side from the freeze, one environment each
    (``sim.execute.execute_all``; at most the scene's ``envs``), each exactly as
    ``execute_decision`` would alone. ``controllers``: one per decision, or only their name
    when ``commands_for`` drives the G1s (the spine node: it answers every tick's states in
    one exchange)."""
    spec = played.spec
    episode = played.episode
    if isinstance(controllers, str):
        if commands_for is None or episode.g1 is None:
            raise ValueError(f"{controllers}: only G1s driven by commands_for need no controller")
        names = [controllers] * len(decisions)
        initials = [initial_state(episode, controllers)] * len(decisions)
        source = commands_for
    else:
        if len(controllers) != len(decisions):
            raise ValueError(f"{len(controllers)} controllers for {len(decisions)} decisions")
        bodies = list(controllers)
        for controller, decision in zip(bodies, decisions, strict=True):
            controller.start(decision.plan, spec.observer.pos, spec.observer.yaw)
        names = [controller.name for controller in bodies]
        initials = [initial_state(episode, controller) for controller in bodies]

        def own(states: list[JointState]) -> list[JointCommand]:
            return [body.command(state) for body, state in zip(bodies, states, strict=True)]

        source = commands_for or own
    runs = [
        Run(
            initial,
            OutcomeJudge(
                spec.hazard,
                spec.scene_id,
                decision.brain,
                name,
                floor_resolves=spec.intended.floor_resolves,
            ),
            reaching_hands(decision.plan),
        )
        for decision, name, initial in zip(decisions, names, initials, strict=True)
    ]
    return execute_all(episode, runs, source)


def read_bench_set(
    source: str | Path | None = None, limit: int | None = None
) -> tuple[list[Scene], list[str]]:
    """The scenes of a bench run, with their metadata, and the scenes of the set that could
    not be read (each named with its file and why: it is that scene's error, the others
    run). ``source``: a set folder, whose first ``limit`` scenes are chosen before any is
    read (a bad spec past them is never read), or the embedded default (``None`` or
    ``"default"``): the first scene of every family that the validated set keeps
    (``scenes.sets.DEFAULT_SCENE_SEEDS``), 17 scenes."""
    if source is None or str(source) == "default":
        scenes = default_scenes()
        return (scenes if limit is None else scenes[:limit]), []
    _manifest, scenes, problems = read_scenes(source, limit)
    return scenes, problems


def bench_set(source: str | Path | None = None, limit: int | None = None) -> list[Scene]:
    """The scenes of ``read_bench_set`` that could be read (every process of a run picks
    the same ones, so a worker's share is the same scenes)."""
    return read_bench_set(source, limit)[0]


def bench_skipped(source: str | Path | None = None) -> list[SkippedScene] | None:
    """The groups a bench's scene set skipped (its manifest's), for the validity report's
    yield; None for the embedded default, whose scenes were chosen by hand."""
    if source is None or str(source) == "default":
        return None
    return list(read_manifest(source).skipped)


def bench_scenes(source: str | Path | None = None, limit: int | None = None) -> list[SceneSpec]:
    """The specs of ``bench_set``."""
    return [scene.spec for scene in bench_set(source, limit)]
