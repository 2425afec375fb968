"""Gait start: how far the G1 gets in the first second of a walk, over the phase its gait
clock starts from (holosoma policies; BENCHMARKS.md, "Gait start").

For each command and each start phase of the left foot (the right foot pi later, in steps of
pi/4), the G1 waits in stance for each of the ``--waits`` (as before a freeze), then walks
1 s; it prints where the base went along the command (m) after 0.5 / 0.8 / 1.0 s, and the
phase the spine picks (``HolosomaPolicy.start_gait``) marked with ``*``.

    .venv/bin/python benchmarks/gait_start.py [--commands 0,0.5,0 0.8,0,0] [--waits 0.3,0.9]
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from reacthuman import robot
from reacthuman.brain.plan import Keyframe, ReactionPlan

MARKS = (25, 40, 50)  # ticks after the start: 0.5, 0.8, 1.0 s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--controller", default="g1")
    parser.add_argument("--commands", nargs="+", default=["0,0.5,0", "0,-0.5,0", "0.8,0,0"])
    parser.add_argument("--waits", default="0.3,0.9")
    args = parser.parse_args()

    from reacthuman.sim.proving import ProvingGround
    from reacthuman.spine.controller import make_controller

    ground = ProvingGround()
    controller = make_controller(args.controller)
    policy = controller.policy
    if not hasattr(policy, "start_gait"):
        parser.error(f"{controller.name}: its policy has no gait clock to start (holosoma only)")
    rest = Keyframe(t=0.0, left_hand=robot.REST_LEFT_HAND, right_hand=robot.REST_RIGHT_HAND)
    waits = [float(w) for w in args.waits.split(",")]
    for text in args.commands:
        command = tuple(float(v) for v in text.split(","))
        if len(command) != 3:
            parser.error(f"--commands: {text!r} is not vx,vy,yaw")
        plan = ReactionPlan(
            object_identified="walk",
            intent="gait start",
            confidence=1.0,
            walking_cmd=command,
            walking_duration=1.0,
            keyframes=[rest],
        )
        axis = np.array(command[:2]) / (np.linalg.norm(command[:2]) or 1.0)
        policy.start_gait(command)
        chosen = float(policy.phase[0] + policy.PHASE_STEP)
        print(f"command {command}: m along it after 0.5 / 0.8 / 1.0 s, per wait {waits}")
        for k in range(8):
            lead = -math.pi + k * math.pi / 4
            row = []
            for wait in waits:
                fixed = np.array([lead, lead + math.pi]) - policy.PHASE_STEP

                def start(plan=plan, fixed=fixed) -> None:  # the clock set after start()
                    controller.start(plan, (0.0, 0.0, 0.0), 0.0)
                    policy.phase, policy.stance = fixed.copy(), False

                trial = ground.trial(controller, plan, 1.0, wait=wait, start=start)
                base = np.array(trial.base)[:, :2] - np.array(trial.base[0][:2])
                along = [float(base[m - 1] @ axis) for m in MARKS]
                row.append(" / ".join(f"{v:+.2f}" for v in along) + (" F" if trial.fell else ""))
            mark = "*" if math.isclose(math.cos(lead - chosen), 1.0, abs_tol=1e-6) else " "
            print(f" {mark}{lead:+.2f}  " + "   ".join(row), flush=True)


if __name__ == "__main__":
    main()
