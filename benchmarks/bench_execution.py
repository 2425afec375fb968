"""The G1 execution benchmark: real-time factor of the body + policy + hand tracking at
240 Hz without rendering, policy and tracker time per 50 Hz tick, and memory.

Runs on the proving ground (floor and G1) and on real episodes (a scene's object too):

    .venv/bin/python benchmarks/bench_execution.py [--controller g1] [--seconds 5]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from reacthuman import robot
from reacthuman.brain.plan import Keyframe, ReactionPlan


def plan(walking, duration, left=robot.REST_LEFT_HAND, right=robot.REST_RIGHT_HAND):
    return ReactionPlan(
        object_identified="bench",
        intent="bench",
        confidence=1.0,
        walking_cmd=walking,
        walking_duration=duration,
        keyframes=[Keyframe(t=1.0, left_hand=left, right_hand=right)],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--controller", default="g1")
    parser.add_argument("--policy-path")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--episodes", type=int, default=17, help="default-set episodes (0: none)")
    args = parser.parse_args()

    from reacthuman.sim.proving import ProvingGround
    from reacthuman.spine.controller import make_controller

    started = time.perf_counter()
    ground = ProvingGround()
    controller = make_controller(args.controller, args.policy_path)
    ground.trial(controller, plan((0.0, 0.0, 0.0), 0.0, (0.4, 0.1, 0.0)), 0.5)  # warm-up
    print(
        f"controller {controller.name}; proving ground built in "
        f"{time.perf_counter() - started:.1f} s (with the tracker's IK scene)"
    )
    cases = {
        "walk 0.5 m/s": plan((0.5, 0.0, 0.0), args.seconds),
        "stand": None,
        "walk + track hands": plan(
            (0.3, 0.2, 0.0), args.seconds, (0.4, 0.1, 0.0), (0.3, -0.2, 0.1)
        ),
    }
    ticks = round(args.seconds * 50)
    print(f"{'case':<20}{'RTF':>7}{'physics ms/tick':>17}{'control ms/tick':>17}{'distance m':>12}")
    for name, chosen in cases.items():
        trials = [ground.trial(controller, chosen, args.seconds) for _ in range(args.repeats)]
        rtf = statistics.median(t.realtime_factor for t in trials)
        physics = statistics.median(t.physics_s for t in trials) / ticks * 1000
        control = statistics.median(t.control_s for t in trials) / ticks * 1000
        print(f"{name:<20}{rtf:>7.2f}{physics:>17.2f}{control:>17.2f}{trials[0].distance:>12.2f}")
    if args.episodes:
        episodes(controller, args.episodes)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:.0f} MB")


def episodes(controller, count: int) -> None:
    """Real episodes of the default set (scene objects, furniture, the G1): the oracle's plan
    executed from the freeze; execution only (the window's rendering is not counted)."""
    from reacthuman.brain.baselines import oracle_plan
    from reacthuman.brain.client import Decision
    from reacthuman.runner import bench_scenes, execute_decision, play
    from reacthuman.sim.execute import execution_duration
    from reacthuman.sim.settings import RenderSettings
    from reacthuman.sim.simulator import Simulator

    simulator = Simulator()
    settings = RenderSettings(width=320, height=180)
    print(f"{'episode':<26}{'executed s':>11}{'wall s':>8}{'RTF':>7}  outcome")
    ratios = []
    for spec in bench_scenes("default", count):
        played = play(simulator, spec, settings, controller)
        plan = oracle_plan(played.truth, spec.observer.pos, spec.observer.yaw)
        decision = Decision(scene_id=spec.scene_id, brain="oracle", plan=plan)
        started = time.perf_counter()
        outcome = execute_decision(played, decision, controller)
        wall = time.perf_counter() - started
        seconds = execution_duration(played.episode)
        simulator.destroy(played.episode)
        ratios.append(seconds / wall)
        rtf = seconds / wall
        print(f"{spec.scene_id:<26}{seconds:>11.2f}{wall:>8.2f}{rtf:>7.2f}  {outcome.result.value}")
    print(f"median RTF over {len(ratios)} episodes: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
