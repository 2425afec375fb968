"""Push recovery: a standing G1 shoved at the pelvis, with its hands held out (a catch's
pose) and at its sides, with and without the step a lean sets off (BENCHMARKS.md, "Standing
still, stepping when pushed"; ``spine.policy.STEP_TILT``).

For each speed and direction the G1 waits in stance, raises its hands (or not), is shoved
1 s in and stands 3 s more; it prints whether it fell, how far it ended from where it stood
(m) and how many control ticks its gait clock ran.

    .venv/bin/python benchmarks/push_recovery.py [--speeds 0.3,0.5,0.7]
"""

from __future__ import annotations

import argparse
import math

from reacthuman import robot
from reacthuman.brain.plan import Keyframe, ReactionPlan

DIRECTIONS = {"forward": (1.0, 0.0), "back": (-1.0, 0.0), "left": (0.0, 1.0), "right": (0.0, -1.0)}
HELD = Keyframe(t=0.5, left_hand=(0.35, 0.12, 0.0), right_hand=(0.35, -0.12, 0.0))
REST = Keyframe(t=0.0, left_hand=robot.REST_LEFT_HAND, right_hand=robot.REST_RIGHT_HAND)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--speeds", default="0.3,0.5,0.7")
    parser.add_argument("--controller", default="g1")
    args = parser.parse_args()

    import reacthuman.spine.policy as policy_module
    from reacthuman.sim.proving import ProvingGround
    from reacthuman.spine.controller import make_controller

    ground = ProvingGround()
    controller = make_controller(args.controller)
    policy = controller.policy
    if not hasattr(policy, "stance"):
        parser.error(f"{controller.name}: its policy has no stance to step out of (holosoma)")
    step_tilt = policy_module.STEP_TILT
    stepping = [0]
    command = controller.command

    def counted(state):  # counts the ticks the gait clock runs
        out = command(state)
        stepping[0] += not policy.stance
        return out

    controller.command = counted
    for steps in (True, False):
        policy_module.STEP_TILT = step_tilt if steps else math.inf
        for name, frame in (("hands out", HELD), ("hands at sides", REST)):
            for speed in (float(v) for v in args.speeds.split(",")):
                cells = []
                for direction, (dx, dy) in DIRECTIONS.items():
                    plan = ReactionPlan(
                        object_identified="push",
                        intent="stand",
                        confidence=1.0,
                        walking_cmd=(0.0, 0.0, 0.0),
                        walking_duration=0.0,
                        keyframes=[frame],
                    )
                    stepping[0] = 0
                    trial = ground.trial(
                        controller, plan, 4.0, push=(1.0, (speed * dx, speed * dy, 0.0))
                    )
                    end = math.dist(trial.base[-1][:2], (0.0, 0.0))
                    mark = "FELL" if trial.fell else "up"
                    cells.append(f"{direction} {mark} {end:.2f} m {stepping[0]} ticks")
                mode = "steps when it leans" if steps else "stance only"
                print(f"{mode}, {name}, {speed} m/s: " + " | ".join(cells), flush=True)
    policy_module.STEP_TILT = step_tilt


if __name__ == "__main__":
    main()
