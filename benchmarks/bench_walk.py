"""Walking calibration: the speed the simulated G1 reaches under each policy command.

For each raw policy command (the spine's speed gain set to 1) it walks 6 s from standing
and reports the steady speed (over the last 3 s), the distance in the first 5 s and the
lowest base height. ``SPEED_GAIN`` in ``spine/g1_controller.py`` is commanded / achieved at
the plans' typical 0.5 m/s.

    .venv/bin/python benchmarks/bench_walk.py [--controller g1] [--commands 0.33,0.5,0.75,1.0]
"""

from __future__ import annotations

import argparse
import math

from reacthuman import robot
from reacthuman.brain.plan import Keyframe, ReactionPlan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--controller", default="g1")
    parser.add_argument("--policy-path")
    parser.add_argument("--commands", default="0.33,0.5,0.75,1.0")
    parser.add_argument("--axis", choices=("vx", "vy", "yaw"), default="vx")
    args = parser.parse_args()

    from reacthuman.sim.proving import ProvingGround
    from reacthuman.spine.controller import make_controller

    ground = ProvingGround()
    controller = make_controller(args.controller, args.policy_path)
    controller.speed_gain = (1.0, 1.0, 1.0)
    axis = ("vx", "vy", "yaw").index(args.axis)
    rest = Keyframe(t=0.5, left_hand=robot.REST_LEFT_HAND, right_hand=robot.REST_RIGHT_HAND)
    print(f"{controller.name}, raw policy commands on {args.axis}")
    print(f"{'command':>8}{'steady':>10}{'5 s distance':>14}{'min height':>12}{'fell':>6}")
    for value in (float(v) for v in args.commands.split(",")):
        cmd = [0.0, 0.0, 0.0]
        cmd[axis] = value
        plan = ReactionPlan(
            object_identified="walk",
            intent="calibrate",
            confidence=1.0,
            walking_cmd=tuple(cmd),
            walking_duration=6.0,
            keyframes=[rest],
        )
        trial = ground.trial(controller, plan, 6.0)
        if axis < 2:
            steady = math.dist(trial.base[150][:2], trial.base[-1][:2]) / 3.0
        else:
            turned = trial.yaw[-1] - trial.yaw[150]
            steady = math.atan2(math.sin(turned), math.cos(turned)) / 3.0
        five = math.dist(trial.base[0][:2], trial.base[249][:2])
        low = min(p[2] for p in trial.base)
        print(f"{value:>8.2f}{steady:>10.3f}{five:>14.2f}{low:>12.3f}{str(trial.fell):>6}")


if __name__ == "__main__":
    main()
