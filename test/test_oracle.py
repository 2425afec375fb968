"""The oracle plans from ground truth and the room with how the G1 really walks and reaches
(brain.oracle, gait_table): hands meet the object's path in time, walks stop before the
hands rise and keep off furniture, dodges leave the object's swept volume and keep off walls.
Ground truth here is written by hand (exact paths), the gait table is the shipped one."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from helpers import hand_truth

from reacthuman import robot
from reacthuman.brain import oracle, oracle_world
from reacthuman.brain.classify import classify, hazard_bearing
from reacthuman.brain.oracle_tuning import TUNING
from reacthuman.gait_table import load_gaits
from reacthuman.robot import WALK_STOP
from reacthuman.scenes.labels import Action
from reacthuman.scenes.truth import GroundTruth, Obstacle

RATE = 60
G = 9.81


def truth(
    points: list[tuple[float, tuple[float, float, float]]],
    action: Action,
    window: float = 0.3,
    size=(0.08, 0.08, 0.08),
    floor_time: float | None = None,
    obstacles: tuple[Obstacle, ...] = (),
    room=(8.0, 8.0, 3.0),
) -> GroundTruth:
    return hand_truth(
        "object_drop-000001",
        points,
        action,
        window=window,
        floor_time=floor_time,
        size=size,
        room=room,
        obstacles=obstacles,
    )


def drop(x: float, y: float, height: float, window: float = 0.3, **kw) -> GroundTruth:
    """A ball let go at rest ``height`` m up above (x, y), landing on the floor."""
    radius = 0.04
    land = math.sqrt(2 * (height - radius) / G)
    points = []
    for i in range(int(3.0 * RATE) + 1):
        t = i / RATE
        z = max(height - 0.5 * G * t * t, radius)
        points.append((t, (x, y, z)))
    return truth(points, Action.EXECUTE_CATCH, window, floor_time=land, **kw)


def flight(start, velocity, action=Action.TRIGGER_DODGE, **kw) -> GroundTruth:
    """A straight flight at constant velocity (a swinging or thrown object's worst case)."""
    points = [
        (i / RATE, tuple(start[k] + velocity[k] * i / RATE for k in range(3)))
        for i in range(int(3.0 * RATE) + 1)
    ]
    return truth(points, action, **kw)


def gait_of(plan, arms="held"):
    """The gait table's entry the plan walks with: arms held for a catch, swinging for a dodge."""
    table = load_gaits()
    if plan.walking_duration == 0.0:
        return None
    return next(
        g
        for g in table.choices(arms)
        if g.command == plan.walking_cmd and g.duration == plan.walking_duration
    )


def world_hands_at(plan, t: float, gait) -> tuple[np.ndarray, np.ndarray]:
    """Where the plan's last keyframe puts the hands at ``t``: held in place in the room from
    where the gait table has the body just after the walking command ends (spine.hands)."""
    x, y, heading = (0.0, 0.0, 0.0) if gait is None else gait.at(gait.duration + WALK_STOP)
    frame = plan.keyframes[-1]
    out = []
    for hand in (frame.left_hand, frame.right_hand):
        hx, hy, hz = (hand[i] + robot.HAND_ORIGIN[i] for i in range(3))
        c, s = math.cos(heading), math.sin(heading)
        out.append(np.asarray([x + c * hx - s * hy, y + s * hx + c * hy, hz]))
    return out[0], out[1]


def test_a_falling_object_in_reach_is_met_standing_with_both_hands_in_its_path():
    # Wider than the opening between the fists (they come no closer than HAND_SPACING).
    t = drop(0.38, 0.05, 3.0, window=0.1, size=(0.2, 0.2, 0.2))
    plan = oracle.oracle_plan(t, (0.0, 0.0, 0.0), 0.0)
    assert plan.walking_duration == 0.0 and not plan.clipped
    assert classify(plan, hazard_bearing(t, (0.0, 0.0, 0.0), 0.0)) is Action.EXECUTE_CATCH
    pose, hold = plan.keyframes[-2], plan.keyframes[-1]
    assert pose.left_hand == hold.left_hand
    left, right = world_hands_at(plan, pose.t, None)
    middle = (left + right) / 2
    assert middle[:2] == pytest.approx((0.38, 0.05), abs=1e-6)  # under its path
    assert left[1] - right[1] == pytest.approx(2 * TUNING.hand_gap, abs=1e-6)
    # The hands are there before the ball comes down to them, and before it lands.
    fall = math.sqrt(2 * (3.0 - middle[2]) / G) - t.window
    assert pose.t + TUNING.hands_early <= fall + 1e-6
    assert fall < t.time_to_floor - t.window
    table = load_gaits()
    assert table.reach.reaches(pose.left_hand) and table.reach.reaches(pose.right_hand, False)


@pytest.mark.parametrize("side", [1.0, -1.0], ids=["left", "right"])
def test_a_ball_narrower_than_the_opening_between_the_fists_meets_the_fist_on_its_side(side):
    # The hands come no closer than HAND_SPACING centre to centre: side by side a tennis ball
    # went between them. The fist on its side is in its path, the other beside it, inward.
    t = drop(0.38, side * 0.05, 3.0, window=0.1, size=(0.07, 0.07, 0.07))
    plan = oracle.oracle_plan(t, (0.0, 0.0, 0.0), 0.0)
    assert plan.walking_duration == 0.0
    left, right = world_hands_at(plan, plan.keyframes[-2].t, None)
    near, beside = (left, right) if side > 0 else (right, left)
    assert near[:2] == pytest.approx((0.38, side * 0.05), abs=1e-6)
    assert side * (near[1] - beside[1]) == pytest.approx(TUNING.hand_spacing, abs=1e-6)
    assert near[2] == pytest.approx(beside[2])


def test_off_to_one_side_both_hands_meet_it_astride_its_path_where_one_arm_cannot_cross():
    # 0.2 m to the left the right arm does not come across to the ball's path (the reach map):
    # the left hand meets it and the right comes as near as it reaches, the ball wider than
    # the opening between the fists, instead of one hand alone.
    t = drop(0.35, 0.2, 3.0, window=0.1, size=(0.12, 0.12, 0.12))
    table = load_gaits()
    plan = oracle.oracle_plan(t, (0.0, 0.0, 0.0), 0.0)
    assert plan.walking_duration == 0.0
    pose = plan.keyframes[-2]
    x, _y, z = pose.left_hand
    assert not table.reach.reaches((x, 0.2 - TUNING.hand_gap, z), left=False)  # side by side
    assert pose.right_hand != [-v if i == 1 else v for i, v in enumerate(table.ready)]
    left, right = world_hands_at(plan, pose.t, None)
    assert right[1] < 0.2 < left[1]  # astride the path
    assert left[1] - right[1] - TUNING.fist_width < 0.12  # narrower than the ball
    assert table.reach.reaches(pose.left_hand) and table.reach.reaches(pose.right_hand, False)
    assert classify(plan, hazard_bearing(t, (0.0, 0.0, 0.0), 0.0)) is Action.EXECUTE_CATCH


def test_out_of_reach_it_walks_first_and_raises_the_hands_once_stopped():
    # Something light sinking slowly a step and a half ahead (a balloon, a leaf of paper).
    t = flight((0.95, 0.0, 2.4), (0.0, 0.0, -0.5), action=Action.EXECUTE_CATCH)
    plan = oracle.oracle_plan(t, (0.0, 0.0, 0.0), 0.0)
    gait = gait_of(plan)
    assert gait is not None and plan.walking_cmd[0] > 0
    rise = plan.keyframes[0]
    assert rise.left_hand == pytest.approx(load_gaits().ready)  # held ready while walking
    assert rise.t >= plan.walking_duration + TUNING.settle - 1e-9
    catch_t = plan.keyframes[-2].t + TUNING.hands_early
    hands = world_hands_at(plan, catch_t, gait)
    # The hand that meets it is in its path, where the walk (by the gait table) has taken it.
    assert min(math.dist(h[:2], (0.95, 0.0)) for h in hands) < TUNING.hand_gap + 0.01


def test_it_never_plans_a_walk_through_furniture():
    table_box = Obstacle(id="table", lo=(0.3, -0.6, 0.0), hi=(0.7, 0.6, 0.75))
    t = flight(
        (0.95, 0.0, 2.4), (0.0, 0.0, -0.5), action=Action.EXECUTE_CATCH, obstacles=(table_box,)
    )
    plan = oracle.oracle_plan(t, (0.0, 0.0, 0.0), 0.0)
    gait = gait_of(plan)
    room = oracle_world.room_of(t, (0.0, 0.0, 0.0), 0.0)
    poses = oracle_world.gait_poses(gait, np.arange(0.0, 3.0, 0.1))
    assert oracle_world.walk_violation(room, poses) == 0.0
    assert classify(plan, hazard_bearing(t, (0.0, 0.0, 0.0), 0.0)) is Action.EXECUTE_CATCH


def _clearance(plan, t, pos=(0.0, 0.0, 0.0)) -> float:
    path = oracle_world.object_path(t, pos, 0.0)
    poses = oracle_world.gait_poses(gait_of(plan, "swing"), path.t)
    return float(oracle_world.body_distance(path.box, poses[:, :2]).min())


def test_a_dodge_leaves_the_swept_volume_with_a_margin():
    # A heavy box flies at chest height straight at the robot, 2.1 s after the freeze.
    t = flight((5.0, 0.0, 1.0), (-2.0, 0.0, 0.0), size=(0.2, 0.2, 0.2))
    plan = oracle.oracle_plan(t, (0.0, 0.0, 0.0), 0.0)
    assert classify(plan, hazard_bearing(t, (0.0, 0.0, 0.0), 0.0)) is Action.TRIGGER_DODGE
    assert _clearance(plan, t) >= TUNING.dodge_margin


def test_a_tuning_passed_in_is_the_one_planned_with():
    # The default dodge keeps about 0.24 m from the box; asking 0.3 m takes a longer walk.
    t = flight((5.0, 0.0, 1.0), (-2.0, 0.0, 0.0), size=(0.2, 0.2, 0.2))
    wider = dataclasses.replace(TUNING, dodge_margin=0.3)
    default = oracle.oracle_plan(t, (0.0, 0.0, 0.0), 0.0)
    plan = oracle.oracle_plan(t, (0.0, 0.0, 0.0), 0.0, tuning=wider)
    assert _clearance(default, t) < wider.dodge_margin <= _clearance(plan, t)
    assert classify(plan, hazard_bearing(t, (0.0, 0.0, 0.0), 0.0)) is Action.TRIGGER_DODGE


def test_a_dodge_does_not_back_into_a_wall():
    # The wall is 0.35 m behind the robot: backing away is no escape; it steps aside.
    pos = (-3.65, 0.0, 0.0)
    t = flight((1.35, 0.0, 1.0), (-2.0, 0.0, 0.0), size=(0.2, 0.2, 0.2))
    plan = oracle.oracle_plan(t, pos, 0.0)
    room = oracle_world.room_of(t, pos, 0.0)
    poses = oracle_world.gait_poses(gait_of(plan, "swing"), np.arange(0.0, 3.0, 0.1))
    assert oracle_world.walk_violation(room, poses) == 0.0
    assert plan.walking_cmd[0] >= 0.0  # not backward
    assert _clearance(plan, t, pos) >= TUNING.dodge_margin


def test_no_action_stands_with_hands_at_rest():
    t = flight((3.0, 3.0, 1.0), (0.0, 0.0, 0.0), action=Action.NO_ACTION)
    plan = oracle.oracle_plan(t, (0.0, 0.0, 0.0), 0.0)
    assert plan.walking_duration == 0.0
    assert plan.keyframes[-1].left_hand == robot.REST_LEFT_HAND


COUNTER_TOP, COUNTER_EDGE = 0.93, 0.38  # m: rolling_ball's counter, its near end ahead


RUBBER_HAND_REACH = 0.10  # m its mesh reaches beyond a hand's centre (0.093, test_g1)


def off_a_counter(speed: float, duration: float, start: float = 1.4) -> GroundTruth:
    """A ball rolling along a counter toward the robot at ``speed`` from ``start`` m ahead,
    dropping off the counter's near end to the floor."""
    radius = 0.037
    counter = Obstacle(id="counter", lo=(COUNTER_EDGE, -0.5, 0.0), hi=(3.0, 0.5, COUNTER_TOP))
    points = []
    for i in range(int(duration * RATE) + 1):
        t = i / RATE
        x = start - speed * t
        over = max(COUNTER_EDGE - x, 0.0) / speed  # seconds since it left the edge
        z = max(COUNTER_TOP + radius - 0.5 * G * over * over, radius)
        points.append((t, (x, 0.03, z)))
    return truth(points, Action.EXECUTE_CATCH, obstacles=(counter,), size=(2 * radius,) * 3)


def test_hands_meet_a_ball_rolling_off_a_counter_short_of_its_edge_not_on_the_top():
    # multi_object and rolling_ball: a ball rolls along a counter toward the robot at its end
    # and drops off the near edge. Hands pressed on the top would push the body away.
    top, edge = COUNTER_TOP, COUNTER_EDGE
    t = off_a_counter(speed=0.6, duration=3.0)
    plan = oracle.oracle_plan(t, (0.0, 0.0, 0.0), 0.0)
    assert plan.walking_duration == 0.0
    assert classify(plan, hazard_bearing(t, (0.0, 0.0, 0.0), 0.0)) is Action.EXECUTE_CATCH
    for hand in world_hands_at(plan, plan.keyframes[-2].t, None):
        clear_of_top = hand[2] >= top + TUNING.hand_above_furniture
        # The rubber hand reaches RUBBER_HAND_REACH from its centre: short of the edge by
        # less, it pushes against the counter's edge (surface_cascade-000008 walked back).
        assert hand[0] <= edge - RUBBER_HAND_REACH or clear_of_top
        assert hand[2] > top - 0.25  # where it drops, not down at the floor


def test_a_catch_after_the_plans_last_keyframe_time_holds_the_hands_from_before_it():
    # A long glide (object_drop, door_swing, shelf_slide run their ground truth 4-4.5 s) meets
    # the hands 3.1 s after the freeze, later than any keyframe (robot.MAX_KEYFRAME_TIME): the
    # hands are in place before then and hold, and nothing in the plan is clipped.
    t = off_a_counter(speed=0.6, duration=4.2, start=2.3)
    plan = oracle.oracle_plan(t, (0.0, 0.0, 0.0), 0.0)
    assert plan.intent.startswith("catch")
    assert not plan.clipped
    assert plan.keyframes[-2].t < plan.keyframes[-1].t <= robot.MAX_KEYFRAME_TIME
    assert plan.keyframes[-1].left_hand == plan.keyframes[-2].left_hand
    assert classify(plan, hazard_bearing(t, (0.0, 0.0, 0.0), 0.0)) is Action.EXECUTE_CATCH


def test_a_door_edge_sweeping_past_is_met_a_little_in_from_its_edge():
    # The executed door and the walking body each land a few centimetres off the truth: hands
    # on the edge's own path missed 6 of 10 door catches by 0.2-7 cm; the face a little in
    # from the edge passes the same place at the same moment.
    edge_x, half_width = 0.30, 0.425
    points = [(i / RATE, (edge_x, 0.9 - 0.5 * i / RATE, 1.0)) for i in range(3 * RATE + 1)]
    door = truth(points, Action.EXECUTE_CATCH, size=(2 * half_width, 0.04, 2.0))
    door = door.model_copy(
        update={
            "trajectory": [
                p.model_copy(update={"center": (edge_x + half_width, p.pos[1], p.pos[2])})
                for p in door.trajectory
            ]
        }
    )
    plan = oracle.oracle_plan(door, (0.0, 0.0, 0.0), 0.0)
    left, right = world_hands_at(plan, plan.keyframes[-1].t, gait_of(plan))
    assert (left[0] + right[0]) / 2 == pytest.approx(edge_x + TUNING.edge_inset, abs=0.02)
    ball = truth(points, Action.EXECUTE_CATCH, size=(0.08, 0.08, 0.08))  # small: on its path
    plan = oracle.oracle_plan(ball, (0.0, 0.0, 0.0), 0.0)
    left, right = world_hands_at(plan, plan.keyframes[-1].t, gait_of(plan))
    assert (left[0] + right[0]) / 2 == pytest.approx(edge_x, abs=0.02)
