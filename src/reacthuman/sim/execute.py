"""Execute a plan from the freeze: the spine's commands in lock-step with the physics.

The simulation resumes from the episode's freeze state and advances one control tick at a
time: it hands the body's joint state to ``command_for`` and does not step past the tick
until that returns the tick's command. ``command_for`` is the controller itself on the direct
path and a round trip to the spine node in the ROS graph, so both give the same execution
whatever the machine's speed. 240 Hz physics and 50 Hz control do not divide: tick k covers
physics steps round(4.8 k) .. round(4.8 (k + 1)), alternately 5 and 4 steps.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

import numpy as np

from reacthuman.genesis_runtime import LinkPoses
from reacthuman.scenes.geometry import Vec3, add, quat_rotate, vec3
from reacthuman.scenes.spec import SceneObject
from reacthuman.sim.body import GRASP_MAX_MASS, hand_point
from reacthuman.sim.contacts import touching
from reacthuman.sim.episode import Episode
from reacthuman.sim.settings import DT
from reacthuman.spine.command import CONTROL_PERIOD, JointCommand, JointState, tick_time, ticks_in
from reacthuman.spine.outcome import ExecutionOutcome, OutcomeJudge
from reacthuman.spine.standin import KinematicStandIn

STEPS_PER_TICK = CONTROL_PERIOD / DT  # 4.8


class LockStepError(RuntimeError):
    """The spine answered a tick with a command for another tick."""


def steps_of_tick(tick: int) -> int:
    return round((tick + 1) * STEPS_PER_TICK) - round(tick * STEPS_PER_TICK)


def execution_duration(episode: Episode) -> float:
    """From the freeze to the ground-truth horizon."""
    return episode.spec.timing.horizon - episode.window


def kinematic_readback(command: JointCommand) -> JointState:
    """A body that tracks perfectly (the kinematic stand-in): the next state is the command."""
    after = command.tick + 1
    return JointState(after, tick_time(after), command.names, command.positions)


def initial_state(episode: Episode, controller: object) -> JointState:
    """The body's state at the freeze: the G1's as simulated, or the stand-in's own."""
    if episode.g1 is None:
        if not isinstance(controller, KinematicStandIn):
            raise ValueError(
                f"a scene without the G1 runs the kinematic stand-in, not {controller}"
            )
        return controller.initial_state()
    restore_freeze(episode)
    return episode.g1.state(0, 0.0)


def restore_freeze(episode: Episode) -> None:
    """Back to the freeze, as the play left it: the state restored and a hand that held the
    object in an earlier execution opened (every brain's plan runs from the same freeze)."""
    if episode.g1 is not None:
        episode.g1.release(episode.scene)
    episode.scene.reset(episode.freeze_state)


def graspable(obj: SceneObject) -> bool:
    """What the hands close on: what the catalogue marks graspable (with one hand or, like a
    beach ball or a standee, with both) and lighter than ``GRASP_MAX_MASS``: exactly the
    objects the label rule lets a person catch. Not an object on a hinge or a pendulum's
    cord (a light door, a swinging lamp): a hand stops it, and a weld to it would pull the
    body along its arc (two such catches fell)."""
    return obj.graspable and obj.mass_kg < GRASP_MAX_MASS and obj.joint is None


def touch(
    g1: Any,
    with_robot: tuple[np.ndarray, np.ndarray, np.ndarray],
    entity: Any,
    scene: Any,
    closing: Collection[str],
    may_hold: bool,
    env: int = 0,
) -> dict[str, float]:
    """This step's contact forces between the object and the robot in one environment, per
    part (``with_robot``: the step's contacts between them, ``StepReadings.contacts``). A
    hand in ``closing`` that meets it closes on it (``sim.body.G1Body.grasp``), unless the
    judge says it may no longer be held."""
    forces, hand_link = g1.touches_in(*with_robot)
    if hand_link is not None and may_hold and g1.hand_side[hand_link] in closing:
        g1.grasp(hand_link, entity, scene, env)
    return forces


Poses = tuple[Vec3, Vec3 | None, dict[str, Vec3]]


class StepReadings:
    """What the judges read after every physics step of an execution, in two reads of the
    solver for every environment instead of a dozen getters each (each a kernel launch and
    tensor copies, which cost more than the physics step itself): the poses of the object's
    link, the G1's base and hands (``genesis_runtime.LinkPoses``), and the step's contacts.
    Values are the ones the entities' own getters return."""

    def __init__(self, episode: Episode) -> None:
        self.episode = episode
        self.solver = episode.scene.sim.rigid_solver
        links = [episode.hazard.entity.link_start]
        g1 = episode.g1
        if g1 is not None:
            links += [g1.entity.base_link_idx] + [link.idx for link in g1.hand_links.values()]
        self.links = LinkPoses(self.solver, links)

    def poses(self) -> list[Poses]:
        """Each environment's hazard point, G1 base position and hand centres (None, {} for
        the stand-in)."""
        all_pos, all_quat = self.links.read()
        out: list[Poses] = []
        g1 = self.episode.g1
        for pos, quat in zip(all_pos, all_quat, strict=True):
            link_pos, link_quat = tuple(pos[0].tolist()), tuple(quat[0].tolist())
            point = add(link_pos, quat_rotate(link_quat, self.episode.hazard.hazard_offset))
            if g1 is None:
                out.append((point, None, {}))
                continue
            base = vec3(float(v) for v in pos[1])
            hands = {
                side: hand_point(side, pos[2 + k], quat[2 + k])
                for k, side in enumerate(g1.hand_links)
            }
            out.append((point, base, hands))
        return out

    def contacts(self) -> list[tuple[bool, tuple[np.ndarray, np.ndarray, np.ndarray] | None]]:
        """Each environment's: whether the object touches the floor this step, and its
        contacts with the G1 (links A and B, the force on A) when there is one."""
        out: list[tuple[bool, tuple[np.ndarray, np.ndarray, np.ndarray] | None]] = []
        g1 = self.episode.g1
        for data, mine, on_floor in self.episode.hazard_contacts():
            if g1 is None:
                out.append((on_floor, None))
                continue
            robot = mine & touching(data.geom_a, data.geom_b, g1.entity)
            out.append((on_floor, (data.link_a[robot], data.link_b[robot], -data.force[robot])))
        return out


@dataclass
class Run:
    """One plan's execution among those side by side (``execute_all``): the body's state at
    the freeze, the plan's judge, the hands it holds out (``reaching``) and what it is told
    after each control tick (``on_tick``)."""

    initial: JointState
    judge: OutcomeJudge
    reaching: Collection[str] = ()
    on_tick: Callable[[JointCommand, float], None] | None = None


CommandsFor = Callable[[list[JointState]], list[JointCommand]]


def execute(
    episode: Episode,
    initial: JointState,
    command_for: Callable[[JointState], JointCommand],
    judge: OutcomeJudge,
    on_tick: Callable[[JointCommand, float], None] | None = None,
    reaching: Collection[str] = (),
) -> ExecutionOutcome:
    """One plan's execution (``execute_all`` of one run)."""

    def commands_for(states: list[JointState]) -> list[JointCommand]:
        return [command_for(states[0])]

    return execute_all(episode, [Run(initial, judge, reaching, on_tick)], commands_for)[0]


def execute_all(
    episode: Episode, runs: list[Run], commands_for: CommandsFor
) -> list[ExecutionOutcome]:
    """Run the plans' executions side by side to the horizon, one environment each, and
    judge each; leaves the scene at the horizon. ``commands_for``: each tick's commands for
    the runs' states, in order (one call a tick for all of them: the spine node answers
    them in one exchange).

    With the G1, each command's targets and gains go to its environment's body before the
    tick's physics steps, contacts between the object and the robot are read after each
    step, and a hand the plan holds out (``reaching``: "left_hand", "right_hand",
    ``brain.classify.reaching_hands``) that meets an object it can hold closes on it
    (``touch``). Environments past the runs copy the first run's commands and go unjudged.
    Each run's outcome is the one it has executed alone (``test_sim.py``)."""
    if not runs or len(runs) > episode.envs:
        raise ValueError(f"{len(runs)} plans side by side in a scene of {episode.envs} envs")
    restore_freeze(episode)
    g1 = episode.g1
    hazard = episode.hazard
    holds = g1 is not None and graspable(hazard.obj)
    closing = [set(run.reaching) if holds else set() for run in runs]
    readings = StepReadings(episode)
    states = [run.initial for run in runs]
    step = 0
    start = episode.hazard_point()
    previous = [start] * len(runs)
    spare = episode.envs - len(runs)
    for tick in range(ticks_in(execution_duration(episode))):
        commands = commands_for(states)
        if len(commands) != len(runs):
            raise LockStepError(f"{len(runs)} states at tick {tick} got {len(commands)} commands")
        for state, command in zip(states, commands, strict=True):
            if command.tick != state.tick:
                raise LockStepError(
                    f"tick {state.tick} was answered with a command for {command.tick}"
                )
        if g1 is not None:
            g1.apply_each(commands + [commands[0]] * spare)
        for _ in range(steps_of_tick(tick)):
            episode.scene.step()
            step += 1
            poses = readings.poses()
            contacts = readings.contacts()
            for env, run in enumerate(runs):
                point, base, hands = poses[env]
                before = previous[env]
                velocity: Vec3 = (
                    (point[0] - before[0]) / DT,
                    (point[1] - before[1]) / DT,
                    (point[2] - before[2]) / DT,
                )
                previous[env] = point
                on_floor, with_robot = contacts[env]
                if episode.starts_on_floor:
                    on_floor = episode.landed_at(point)
                judge = run.judge
                if g1 is None or with_robot is None or base is None:
                    judge.observe(step * DT, point, velocity, on_floor, commands[env])
                    continue
                forces = touch(
                    g1,
                    with_robot,
                    hazard.entity,
                    episode.scene,
                    closing[env],
                    judge.may_hold(),
                    env,
                )
                judge.observe_contacts(
                    step * DT, point, velocity, on_floor, hands, base, forces, DT
                )
        after = tick + 1
        for run, command in zip(runs, commands, strict=True):
            run.judge.ticks += 1
            if run.on_tick is not None:
                run.on_tick(command, step * DT)
        if g1 is not None:
            states = g1.states(after, tick_time(after))[: len(runs)]
        else:
            states = [kinematic_readback(command) for command in commands]
    return [run.judge.outcome() for run in runs]
