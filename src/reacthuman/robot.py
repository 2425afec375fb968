"""What the robot is and can do: the numbers the prompt states, the plan checker enforces, the
spine executes and the scorer measures with. Unitree G1 (1.32 m); docs/brain.md, "ReactionPlan".

Frames follow REP-103: the robot frame has its origin on the floor between the feet, x
forward, y left, z up. Hand keyframes are given relative to the **hand origin**, the point
midway between the shoulders (``HAND_ORIGIN`` in the robot frame), in the same orientation.
"""

from __future__ import annotations

HAND_ORIGIN: tuple[float, float, float] = (0.0, 0.0, 1.1)  # m, chest between the shoulders
REST_LEFT_HAND: tuple[float, float, float] = (0.05, 0.2, -0.35)  # arms hanging, from the origin
REST_RIGHT_HAND: tuple[float, float, float] = (0.05, -0.2, -0.35)
ARM_REACH = 0.65  # m from the hand origin that a hand target may be
MAX_FORWARD_SPEED = 0.8  # m/s, the walking policy's command limits (Unitree deploy config)
MAX_BACKWARD_SPEED = 0.5
MAX_LATERAL_SPEED = 0.5
MAX_YAW_RATE = 1.57  # rad/s
MAX_WALKING_DURATION = 3.0  # s, the ground-truth horizon
MAX_KEYFRAME_TIME = 3.0  # s after the freeze
MAX_KEYFRAMES = 16
# s after the walking command ends that the spine's hands start to hold their place in the
# room: the G1 walks on 0.2-0.25 m after a command ends, most of it in the first 0.3 s (gait
# table). A planner that puts hands in the room (the oracle) counts from then too.
WALK_STOP = 0.3
