"""Hands side by side: how close together the G1's two hands really come (BENCHMARKS.md,
"Hands side by side"; ``brain.oracle_tuning.OracleTuning.hand_spacing``).

Standing on the proving ground, the G1 raises both hands to keyframes ``--gaps`` apart
(centre to centre, m) at a few places in front of its chest, and holds them. It prints where
the hand centres are after 0.7 s and 1 s (offsets from the hand origin of the body at the
start) and how far apart they are across (y). Fist against fist, they come no closer than
about 0.11 m whatever the target, which is why the oracle meets a ball narrower than the
opening between the fists with one fist in its path.

    .venv/bin/python benchmarks/hand_spacing.py [--gaps 0.06,0.1,0.16]
"""

from __future__ import annotations

import argparse
import math

from reacthuman import robot
from reacthuman.brain.plan import Keyframe, ReactionPlan

PLACES = ((0.3, 0.0, 0.0), (0.35, -0.05, -0.05), (0.4, 0.05, 0.05))  # centre of the pair
MARKS = (35, 50)  # ticks after the start: 0.7, 1.0 s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--controller", default="g1")
    parser.add_argument("--gaps", default="0.06,0.1,0.16")
    args = parser.parse_args()

    from reacthuman.sim.proving import ProvingGround
    from reacthuman.spine.controller import make_controller

    ground = ProvingGround()
    controller = make_controller(args.controller)
    origin = robot.HAND_ORIGIN
    rest = Keyframe(t=0.25, left_hand=robot.REST_LEFT_HAND, right_hand=robot.REST_RIGHT_HAND)
    print("target (x, y, z) of the pair, gap: hands after 0.7 s | 1.0 s, and their spacing")
    for x, y, z in PLACES:
        for gap in (float(g) for g in args.gaps.split(",")):
            left, right = (x, y + gap / 2, z), (x, y - gap / 2, z)
            held = [Keyframe(t=t, left_hand=left, right_hand=right) for t in (0.5, 1.0)]
            plan = ReactionPlan(
                object_identified="hands",
                intent="hands side by side",
                confidence=1.0,
                walking_cmd=(0.0, 0.0, 0.0),
                walking_duration=0.0,
                keyframes=[rest, *held],
            )
            trial = ground.trial(controller, plan, 1.0)
            base, yaw = trial.base[0], trial.yaw[0]
            c, s = math.cos(-yaw), math.sin(-yaw)

            def local(p, base=base, c=c, s=s):
                dx, dy = p[0] - base[0], p[1] - base[1]
                return (c * dx - s * dy - origin[0], s * dx + c * dy - origin[1], p[2] - origin[2])

            cells = []
            for mark in MARKS:
                hands = trial.hands[mark - 1]
                lh, rh = local(hands["left"]), local(hands["right"])
                where = "L ({:+.3f}, {:+.3f}, {:+.3f}) R ({:+.3f}, {:+.3f}, {:+.3f})"
                cells.append(where.format(*lh, *rh) + f" apart {lh[1] - rh[1]:.3f}")
            print(f"({x:+.2f}, {y:+.2f}, {z:+.2f}) gap {gap:.2f}: " + " | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
