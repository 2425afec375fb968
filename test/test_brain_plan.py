"""ReactionPlan, its limits policy, the plan -> action rule and the baseline brains."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from reacthuman import robot
from reacthuman.brain import classify as classify_module
from reacthuman.brain.baselines import BASELINES, always_dodge
from reacthuman.brain.classify import ClassifierConfig, classify, hazard_bearing
from reacthuman.brain.motion import base_pose, hand_in_robot_frame, to_world
from reacthuman.brain.oracle import moved_frame, oracle_plan
from reacthuman.brain.oracle_tuning import TUNING
from reacthuman.brain.plan import PlanError, parse_plan
from reacthuman.gait_table import load_gaits
from reacthuman.observation import Observation, RobotPose
from reacthuman.robot import WALK_STOP
from reacthuman.scenes.labels import Action
from reacthuman.scenes.sets import generate_set
from reacthuman.scenes.truth import ground_truth

REST_L, REST_R = list(robot.REST_LEFT_HAND), list(robot.REST_RIGHT_HAND)


def plan_dict(**changes):
    plan = {
        "object_identified": "a mug",
        "intent": "catch it",
        "confidence": 0.8,
        "walking_cmd": [0.0, 0.0, 0.0],
        "walking_duration": 0.0,
        "keyframes": [{"t": 0.3, "left_hand": REST_L, "right_hand": REST_R, "knee_bend": 0.0}],
    }
    plan.update(changes)
    return plan


def test_a_valid_plan_parses_unchanged():
    plan = parse_plan(plan_dict())
    assert plan.clipped == [] and plan.walking_cmd == (0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"walking_cmd": [0.1, 0.2]}, "walking_cmd"),
        ({"confidence": "high"}, "confidence"),
        ({"confidence": float("nan")}, "confidence"),
        ({"keyframes": []}, "keyframes"),
        ({"keyframes": [{"t": 0.1}] * 10_000}, "10000 keyframes"),
        ({"intent": None}, "intent"),
    ],
)
def test_unusable_plans_are_rejected_with_the_field_named(changes, message):
    with pytest.raises(PlanError, match=message):
        parse_plan(plan_dict(**changes))


def test_missing_fields_and_non_objects_are_rejected():
    data = plan_dict()
    del data["walking_duration"]
    with pytest.raises(PlanError, match="walking_duration"):
        parse_plan(data)
    with pytest.raises(PlanError, match="JSON object"):
        parse_plan([1, 2, 3])


def test_absurd_magnitudes_are_clipped_and_recorded():
    plan = parse_plan(
        plan_dict(
            walking_cmd=[50.0, -9.0, 100.0],
            walking_duration=1e6,
            confidence=7,
            keyframes=[
                {"t": 99, "left_hand": [10.0, 0.0, 0.0], "right_hand": REST_R, "knee_bend": -3}
            ],
            extra_field="ignored",
        )
    )
    assert plan.walking_cmd == (
        robot.MAX_FORWARD_SPEED,
        -robot.MAX_LATERAL_SPEED,
        robot.MAX_YAW_RATE,
    )
    assert plan.walking_duration == robot.MAX_WALKING_DURATION and plan.confidence == 1.0
    frame = plan.keyframes[0]
    assert math.dist(frame.left_hand, (0, 0, 0)) == pytest.approx(robot.ARM_REACH)
    assert frame.t == robot.MAX_KEYFRAME_TIME and frame.knee_bend == 0.0
    assert len(plan.clipped) == 8


def test_base_motion_integrates_the_walking_command():
    straight = parse_plan(plan_dict(walking_cmd=[0.5, 0.0, 0.0], walking_duration=2.0))
    assert base_pose(straight, 10.0) == pytest.approx((1.0, 0.0, 0.0))
    turning = parse_plan(plan_dict(walking_cmd=[0.5, 0.0, math.pi / 4], walking_duration=2.0))
    x, y, yaw = base_pose(turning, 2.0)  # a quarter circle of radius 0.5 / (pi / 4)
    radius = 0.5 / (math.pi / 4)
    assert (x, y, yaw) == pytest.approx((radius, radius, math.pi / 2))
    hand = hand_in_robot_frame(straight, (0.3, 0.0, 0.0), 2.0)
    assert hand == pytest.approx((1.3, 0.0, robot.HAND_ORIGIN[2]))
    assert to_world(hand, (1.0, 2.0, 0.0), math.pi / 2) == pytest.approx((1.0, 3.3, 1.1))


def _examples() -> list[tuple[list[float], float, str, Action]]:
    """The worked examples, read from the rule's own documentation."""
    rows = []
    for line in classify_module.__doc__.splitlines():
        match = re.match(r"\| \(([-\d., ]+)\), ([\d.]+) s \| ([^|]+) \| [^|]+ \| (\w+) \|", line)
        if match:
            command = [float(v) for v in match.group(1).split(",")]
            rows.append(
                (command, float(match.group(2)), match.group(3).strip(), Action(match.group(4)))
            )
    return rows


def _hands(description: str):
    if description == "at rest":
        return REST_L, REST_R
    amount = float(re.search(r"([\d.]+) m", description).group(1))
    axis = {"raised": 2, "forward": 0, "off": 0}[
        description.split()[0] if description.split()[0] in ("raised", "forward") else "off"
    ]
    left, right = list(REST_L), list(REST_R)
    left[axis] += amount
    right[axis] += amount
    return left, right


def test_the_documented_worked_examples_hold():
    examples = _examples()
    assert len(examples) == 8
    for command, duration, hands, expected in examples:
        left, right = _hands(hands)
        plan = parse_plan(
            plan_dict(
                walking_cmd=command,
                walking_duration=duration,
                keyframes=[{"t": 0.5, "left_hand": left, "right_hand": right}],
            )
        )
        assert classify(plan, (1.0, 0.0)) is expected, (command, duration, hands)


def test_thresholds_come_from_the_config_file():
    from pathlib import Path

    config = ClassifierConfig.load(Path(__file__).resolve().parents[1] / "config/classifier.yaml")
    assert config == ClassifierConfig()
    timid = parse_plan(plan_dict(walking_cmd=[0.0, 0.25, 0.0], walking_duration=1.0))
    assert classify(timid, (1.0, 0.0)) is Action.NO_ACTION
    assert classify(timid, (1.0, 0.0), ClassifierConfig(move=0.2)) is Action.TRIGGER_DODGE


def _observation(spec) -> Observation:
    return Observation(
        scene_id=spec.scene_id,
        window=0.6,
        frame_times=[],
        frames=[],
        cameras=[],
        legend=[],
        robot=RobotPose(pos=spec.observer.pos, yaw=spec.observer.yaw),
    )


@pytest.fixture(scope="module")
def scenes_with_truth():
    """A generated set with ground truth from each scene's intended motion (no simulator)."""
    _manifest, scenes = generate_set(per_family=6)
    out = []
    for scene in scenes:
        spec = scene.spec
        path = spec.intended.path
        samples = []
        for a, b in zip(path, path[1:], strict=False):
            dt = b.t - a.t
            samples.append((a.t, a.pos, tuple((b.pos[i] - a.pos[i]) / dt for i in range(3))))
        truth = ground_truth(spec, samples, spec.intended.floor_time, 0.1)
        out.append((spec, truth))
    return out


def _reached_from_the_body_at_the_catch(plan, table) -> bool:
    """Both final hands are in the reach map from where the gait table has the body at some
    moment the plan can meet the object (the hands are held in the room from the anchor)."""
    final, pose = plan.keyframes[-1], plan.keyframes[-2]
    gait = None
    if plan.walking_duration > 0.0:
        gait = next(
            g
            for g in table.choices("held")
            if g.command == plan.walking_cmd and g.duration == plan.walking_duration
        )
    anchor = (0.0, 0.0, 0.0) if gait is None else gait.at(gait.duration + WALK_STOP)
    ready = table.ready
    for k in range(11):
        t = pose.t + TUNING.hands_early + TUNING.hands_lead * k / 10
        body = np.asarray((0.0, 0.0, 0.0) if gait is None else gait.at(t))
        # The anchor frame's offsets, seen from the body at t.
        hands = [
            moved_frame(h, np.asarray(anchor), body) for h in (final.left_hand, final.right_hand)
        ]
        left_ok = final.left_hand == pytest.approx(ready) or table.reach.reaches(hands[0])
        right_ok = final.right_hand == pytest.approx(
            (ready[0], -ready[1], ready[2])
        ) or table.reach.reaches(hands[1], left=False)
        if left_ok and right_ok:
            return True
    return False


def test_oracle_plans_classify_to_the_true_action_within_the_arms_reach(scenes_with_truth):
    table = load_gaits()
    catches = 0
    for spec, truth in scenes_with_truth:
        pos, yaw = spec.observer.pos, spec.observer.yaw
        plan = oracle_plan(truth, pos, yaw)
        assert classify(plan, hazard_bearing(truth, pos, yaw)) is truth.action, spec.scene_id
        assert not plan.clipped, spec.scene_id
        if truth.action is Action.EXECUTE_CATCH and len(plan.keyframes) > 1:
            assert _reached_from_the_body_at_the_catch(plan, table), spec.scene_id
            catches += 1
    assert catches >= 3  # the rest meet their object only on the floor, or out of reach


def test_always_dodge_classifies_to_dodge_everywhere(scenes_with_truth):
    for spec, truth in scenes_with_truth:
        bearing = hazard_bearing(truth, spec.observer.pos, spec.observer.yaw)
        assert classify(always_dodge(_observation(spec)), bearing) is Action.TRIGGER_DODGE


def test_fixed_baselines_and_the_seeded_random_brain(scenes_with_truth):
    spec, truth = scenes_with_truth[0]
    bearing = hazard_bearing(truth, spec.observer.pos, spec.observer.yaw)
    observation = _observation(spec)
    assert classify(BASELINES["always-catch"](observation), bearing) is Action.EXECUTE_CATCH
    assert classify(BASELINES["no-action"](observation), bearing) is Action.NO_ACTION
    picks = {
        classify(
            BASELINES["random"](_observation(s)), hazard_bearing(t, s.observer.pos, s.observer.yaw)
        )
        for s, t in scenes_with_truth
    }
    assert picks == set(Action)
    assert BASELINES["random"](observation) == BASELINES["random"](observation)


def test_only_hands_the_plan_holds_out_close_on_what_they_meet():
    # The oracle's one-hand catch holds the other hand ready (the default pose): that one does
    # not grab; a plan with the hands at rest closes none; nor does no plan (an R1).
    table = load_gaits()
    ready_right = [table.ready[0], -table.ready[1], table.ready[2]]
    one_hand = parse_plan(
        {
            "object_identified": "mug",
            "intent": "catch it on my left",
            "confidence": 0.9,
            "walking_cmd": [0.0, 0.0, 0.0],
            "walking_duration": 0.0,
            "keyframes": [
                {"t": 0.3, "left_hand": [0.35, 0.25, -0.1], "right_hand": ready_right},
            ],
        }
    )
    assert classify_module.reaching_hands(one_hand) == {"left_hand"}
    at_rest = BASELINES["no-action"](None)
    assert classify(at_rest, (1.0, 0.0)) is Action.NO_ACTION
    assert classify_module.reaching_hands(at_rest) == set()
    assert classify_module.reaching_hands(None) == set()
