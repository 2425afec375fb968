"""The kinematic stand-in controller, the lock-step arithmetic and the outcome judge."""

from __future__ import annotations

import math

import pytest

from reacthuman import robot
from reacthuman.brain.plan import Keyframe, ReactionPlan
from reacthuman.scenes.generate import generate_scene
from reacthuman.scenes.spec import Family
from reacthuman.spine.command import JointCommand, ticks_in
from reacthuman.spine.outcome import STRIKE_IMPULSE, OutcomeJudge, Result
from reacthuman.spine.standin import STANDIN_JOINTS, KinematicStandIn, hand_offsets


def plan(vx: float = 0.0, duration: float = 0.0) -> ReactionPlan:
    return ReactionPlan(
        object_identified="mug",
        intent="catch",
        confidence=0.9,
        walking_cmd=(vx, 0.0, 0.0),
        walking_duration=duration,
        keyframes=[
            Keyframe(t=0.5, left_hand=(0.4, 0.1, 0.0), right_hand=(0.4, -0.1, 0.0), knee_bend=0.5)
        ],
    )


def test_hands_move_from_rest_to_the_keyframe_and_hold_it():
    p = plan()
    assert hand_offsets(p, 0.0)[0] == pytest.approx(robot.REST_LEFT_HAND)
    left, right, bend = hand_offsets(p, 0.25)
    assert left == pytest.approx(
        [(a + b) / 2 for a, b in zip(robot.REST_LEFT_HAND, (0.4, 0.1, 0.0), strict=True)]
    )
    assert bend == pytest.approx(0.25)
    assert hand_offsets(p, 2.0) == ((0.4, 0.1, 0.0), (0.4, -0.1, 0.0), 0.5)


def test_the_stand_in_walks_in_the_robot_frame_then_stops():
    controller = KinematicStandIn()
    controller.start(plan(vx=0.5, duration=1.0), (1.0, 2.0, 0.0), math.pi / 2)  # facing +y
    state = controller.initial_state()
    assert state.names == STANDIN_JOINTS
    late = controller.command(type(state)(100, 2.0, state.names, state.positions))
    assert late.position("base_x") == pytest.approx(1.0)
    assert late.position("base_y") == pytest.approx(2.5)  # 0.5 m/s for 1 s along +y
    assert late.walking_cmd == (0.0, 0.0, 0.0)
    early = controller.command(type(state)(10, 0.2, state.names, state.positions))
    assert early.walking_cmd == (0.5, 0.0, 0.0)
    assert early.tick == 10


def test_an_r1_stands_still_with_hands_at_rest():
    controller = KinematicStandIn()
    controller.start(None, (0.0, 0.0, 0.0), 0.0)
    command = controller.command(controller.initial_state())
    assert command.walking_cmd == (0.0, 0.0, 0.0)
    assert command.position("left_hand_z") == pytest.approx(
        robot.HAND_ORIGIN[2] + robot.REST_LEFT_HAND[2]
    )


def test_control_ticks_cover_the_execution_at_240_hz():
    from reacthuman.sim.execute import steps_of_tick

    assert ticks_in(2.4) == 120
    assert sum(steps_of_tick(k) for k in range(120)) == 576
    assert {steps_of_tick(k) for k in range(120)} == {4, 5}


def standing(x: float = 0.0) -> JointCommand:
    positions = (x, 0.0, 0.0, x + 0.3, 0.2, 1.1, x + 0.3, -0.2, 1.1, 0.0)
    return JointCommand(0, 0.0, STANDIN_JOINTS, positions, (0.0, 0.0, 0.0))


@pytest.fixture(scope="module")
def mug():
    return generate_scene(Family.object_drop, 0).hazard


def judge_path(obj, points, on_floor_from: int | None = None, command=None):
    judge = OutcomeJudge(obj, "s", "b", "kinematic-stand-in")
    for i, (point, velocity) in enumerate(points):
        floor = on_floor_from is not None and i >= on_floor_from
        judge.observe(i / 240, point, velocity, floor, command or standing())
    return judge.outcome()


def test_an_object_reaching_a_hand_in_the_air_is_caught(mug):
    outcome = judge_path(mug, [((0.3, 0.2, 1.5 - 0.01 * i), (0, 0, -2.0)) for i in range(60)])
    assert outcome.result is Result.caught
    assert outcome.first_contact.part == "left_hand"


def test_a_fast_object_hitting_the_body_is_struck_and_a_far_one_is_clear(mug):
    speed = 3 * STRIKE_IMPULSE / mug.mass_kg
    body = [((0.0, 0.0, 1.0 - 0.001 * i), (0, 0, -speed)) for i in range(10)]
    assert judge_path(mug, body).result is Result.struck
    far = [((3.0, 3.0, 1.0 - 0.01 * i), (0, 0, -speed)) for i in range(100)]
    outcome = judge_path(mug, far, on_floor_from=90)
    assert outcome.result is Result.clear
    assert outcome.floor_time == pytest.approx(90 / 240)
    assert outcome.min_hand_distance > 2


def test_an_object_on_the_floor_is_not_caught(mug):
    outcome = judge_path(mug, [((0.3, 0.2, 1.1), (0, 0, 0))], on_floor_from=0)
    assert outcome.result is Result.clear
