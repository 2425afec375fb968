"""The G1 spine: the walking policy drives the legs, the hand tracker the arms, PD the waist.

Each 50 Hz tick it turns the body's joint state into 29 joint targets with PD gains:

* legs: the walking policy under the plan's walking command (zero outside
  ``walking_duration``, so it stands), plus the crouch of the keyframes' ``knee_bend``;
* arms: inverse kinematics to the interpolated hand keyframes (``spine.hands``), or the
  default pose when the plan has none;
* waist: held straight, leaning back while the hands reach forward (``spine.hands.balance_lean``).

The same commands drive the simulated body (``sim.body``) or a physical G1
(``unitree.robot_spine`` on Unitree's DDS interface, or ``unitree.ros2_route``).
"""

from __future__ import annotations

import math

from reacthuman import robot
from reacthuman.brain.plan import ReactionPlan
from reacthuman.scenes.geometry import Vec3
from reacthuman.spine.command import JointCommand, JointState, tick_time
from reacthuman.spine.g1 import ARM_JOINTS, DEFAULT_POSE, G1_JOINTS, WAIST_JOINTS
from reacthuman.spine.hands import IK_JOINTS, HandTracker, crouch_offsets
from reacthuman.spine.policy import WalkingPolicy

ARM_GAINS = (150.0, 4.0)  # kp, kd of the arm joints that track hand keyframes
REST_TOLERANCE = 0.01  # m: a keyframe hand this close to the rest pose leaves the arm at rest
WRIST_GAINS = (20.0, 1.0)
WAIST_GAINS = (60.0, 2.5)
# What the policies were trained on (vx, vy in m/s, yaw rate in rad/s): commands are clipped.
COMMAND_LIMITS = ((-1.0, 1.0), (-1.0, 1.0), (-1.0, 1.0))
# Commanded / achieved speed of each policy on the simulated G1, so that the body walks at the
# plan's speed (measured by benchmarks/bench_walk.py; BENCHMARKS.md).
SPEED_GAIN: dict[str, tuple[float, float, float]] = {
    "holosoma-fastsac": (1.25, 2.0, 1.15),
    "holosoma-ppo": (1.35, 1.0, 1.0),  # vx measured; vy and yaw not calibrated
    "unitree-motion": (1.0, 1.0, 1.0),
}


def _clip_command(cmd: tuple[float, float, float]) -> tuple[float, float, float]:
    return tuple(  # type: ignore[return-value]
        min(max(v, lo), hi) for v, (lo, hi) in zip(cmd, COMMAND_LIMITS, strict=True)
    )


def moves_hands(plan: ReactionPlan | None) -> bool:
    """Whether the plan puts a hand anywhere but at rest (or bends the knees). Hands at rest
    leave the arms to the walking policy, which swings them as it was trained to (holosoma
    walked about a quarter slower with its arms held, BENCHMARKS.md)."""
    if plan is None:
        return False
    rest = (robot.REST_LEFT_HAND, robot.REST_RIGHT_HAND)
    return any(
        math.dist(hand, at_rest) > REST_TOLERANCE
        for frame in plan.keyframes
        for hand, at_rest in zip((frame.left_hand, frame.right_hand), rest, strict=True)
    ) or any(frame.knee_bend > 0.0 for frame in plan.keyframes)


class G1Controller:
    """The spine of a G1 (module docstring)."""

    joint_names = G1_JOINTS
    physical = True

    def __init__(
        self,
        policy: WalkingPolicy,
        speed_gain: tuple[float, float, float] | None = None,
        tracker: HandTracker | None = None,
    ) -> None:
        self.policy = policy
        self.name = f"g1-{policy.name}"
        self.speed_gain = speed_gain or SPEED_GAIN.get(policy.name, (1.0, 1.0, 1.0))
        self._tracker = tracker
        self.plan: ReactionPlan | None = None
        self._tracking_started = False
        self.tracking = False
        gains: dict[str, tuple[float, float]] = {}
        for name in WAIST_JOINTS:
            gains[name] = WAIST_GAINS
        for side in ("left", "right"):
            for name in ARM_JOINTS[side]:
                gains[name] = ARM_GAINS if name in IK_JOINTS else WRIST_GAINS
        self._fixed_gains = gains
        self._gains = self._plan_gains()

    def prepare(self) -> None:
        """Build the hand tracker now (its compiled kinematics load in about 0.4 s) instead
        of at the first plan that moves the hands."""
        _ = self.tracker

    @property
    def tracker(self) -> HandTracker:
        if self._tracker is None:
            self._tracker = HandTracker()
        return self._tracker

    def start(self, plan: ReactionPlan | None, robot_pos: Vec3, robot_yaw: float) -> None:
        """A new execution (``plan`` None: an R1, the robot stands where it is). The policy
        stands in stance while the command is zero and starts a walk on its leading foot
        (``spine.policy.HolosomaPolicy``)."""
        self.plan = plan
        self.policy.reset()
        self._tracking_started = False
        self.tracking = moves_hands(plan)
        self._gains = self._plan_gains()

    def wait(self, robot_pos: Vec3, robot_yaw: float) -> None:
        """Stand until an execution starts (the scene played to its freeze): no plan."""
        self.start(None, robot_pos, robot_yaw)

    def gains(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """PD gains of the 29 joints for the current execution: the policy's on the legs, the
        spine's on the waist and arms (stiffer on the arms while they track keyframes). They
        depend only on the policy and the plan: the spine node publishes them once per
        execution (``contract.GainsMessage``), not with every tick's targets."""
        return self._gains

    def _plan_gains(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        gains = dict(self._fixed_gains)
        tracking = self.tracking
        for name, (_target, kp, kd) in self.policy.upper_body.items():
            gains[name] = (kp, kd)
        for name, kp, kd in zip(
            self.policy.joint_names, self.policy.kp, self.policy.kd, strict=True
        ):
            if not tracking or name not in self._fixed_gains:
                gains[name] = (float(kp), float(kd))
        if tracking:
            gains.update(dict.fromkeys(IK_JOINTS, ARM_GAINS))
        return tuple(gains[n][0] for n in G1_JOINTS), tuple(gains[n][1] for n in G1_JOINTS)

    def walking_command(self, t: float) -> tuple[float, float, float]:
        plan = self.plan
        if plan is None or t >= plan.walking_duration:
            return (0.0, 0.0, 0.0)
        return plan.walking_cmd

    def command(self, state: JointState) -> JointCommand:
        t = tick_time(state.tick)
        walking = self.walking_command(t)
        policy_cmd = _clip_command(
            tuple(v * g for v, g in zip(walking, self.speed_gain, strict=True))  # type: ignore[arg-type]
        )
        tracking = self.tracking
        if hasattr(self.policy, "mask_upper"):
            self.policy.mask_upper = tracking
        action = self.policy.act(state, policy_cmd)
        targets = dict(DEFAULT_POSE)
        for name, (target, _kp, _kd) in self.policy.upper_body.items():
            targets[name] = target
        for name, target in zip(action.names, action.targets, strict=True):
            if not tracking or name not in self._fixed_gains:  # the legs, or all it drives
                targets[name] = float(target)
        if tracking:
            if not self._tracking_started:  # the tracker's scene is built on first use
                self.tracker.start(self.plan)
                self._tracking_started = True
            arms, bend = self.tracker.targets(state, t)
            targets.update(arms)
            for name, offset in crouch_offsets(bend).items():
                targets[name] += offset
        kp, kd = self.gains()
        return JointCommand(
            tick=state.tick,
            t=t,
            names=G1_JOINTS,
            positions=tuple(float(targets[n]) for n in G1_JOINTS),
            walking_cmd=walking,
            kp=kp,
            kd=kd,
        )
