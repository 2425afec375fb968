"""The oracle: the plan a competent person would make knowing exactly what will happen.

It is handed ground truth (the object's whole path and pose after the freeze, its size, the
room and what stands in it at the freeze) and plans with how the G1 really walks (the
measured gait table, ``gait_table``), never with the simulator itself. Its plans are
ordinary ReactionPlans under the same limits as any model's, so it is the upper bound a model
could reach, and a check that the benchmark's decisions can be executed at all (the share of
its decisions that end as intended is the benchmark's own execution-validity figure).

* **Catch**: every gait of the table (and standing still) against every moment of the path
  after the freeze: the point must be within the arms' reach of where the gait has taken the
  body then, in front of the chest, before the object lands and after the hands have had time
  to rise; the object must not touch the body before it reaches the hands; the walk must keep
  clear of walls, furniture and objects. Among those it takes the one where the object is
  slowest and nearest chest height, with the least walking, and brings both hands to meet the
  object, where the arms really reach (the table's reach map): side by side in its path
  (astride it where one arm cannot come across that far), under it when it falls, once any
  walking command has ended (hands raised while walking change the gait), and a little
  before it arrives.
* **Dodge**: every gait with the arms at rest against the object's swept volume (its box at
  every moment after the freeze): the shortest walk that keeps the body ``DODGE_MARGIN`` from
  it all the way to the horizon, clear of walls and furniture, and that still reads as a dodge
  (not toward the hazard).
* **No action**: stand, hands at rest.

Where no catch meets every constraint it stands and holds its hands out toward the object, and
where no dodge does it takes the one that violates them least, so its decision is still the
right action (the scorer's SAA) even when the body cannot make it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from reacthuman import robot
from reacthuman.brain.classify import classify, hazard_bearing
from reacthuman.brain.motion import to_robot, to_world
from reacthuman.brain.plan import ReactionPlan, parse_plan
from reacthuman.gait_table import Gait, GaitTable, load_gaits
from reacthuman.robot import WALK_STOP
from reacthuman.scenes.geometry import add, quat_rotate, sub
from reacthuman.scenes.labels import Action
from reacthuman.scenes.truth import GroundTruth

Vec3 = tuple[float, float, float]

STEP = 1.0 / 30.0  # s between the path samples the planner considers
BODY_RADIUS = 0.2  # m, the torso and legs as a vertical cylinder (spine.outcome)
# m: the G1's torso reaches 0.08 m ahead of its axis and its bent knees 0.17 m; what a
# catch must keep clear of before the hands meet the object.
BODY_FRONT = 0.15
BODY_HEIGHT = 1.32  # m
CATCH_BODY_GAP = 0.02  # m the object keeps from the body until it reaches the hands
WALK_CLEARANCE = 0.3  # m from the body's axis to a wall, a piece of furniture or an object
OBSTACLE_TOP = 0.05  # m: lower than this (a rug, a flat book) is stepped over
DODGE_MARGIN = 0.2  # m the body keeps from the object's box all the way to the horizon
MIN_DODGE_MOVE = 0.3  # m a dodge's walk must really take the body (the classifier's move)
HANDS_RISE = 0.25  # s the hands take from their sides to a catching pose
HANDS_EARLY = 0.08  # s the hands are in place before the object arrives, at the least
HANDS_LEAD = 0.25  # s more, where there is time: a path met a little early still meets
HOLD_STEP = 0.05  # s: the hold keyframe comes at least this long after the hands are in place
MAX_CATCH_WALK = 1.2  # s of walking before a catch (longer walks end too far from the plan)
SETTLE = 0.0  # s after the walking command stops before the hands start to rise
CHEST_HEIGHT = 0.95  # m: where hands meet an object most surely
# m a hand centre keeps above furniture under it: a hand pressed on a table top pushes the
# body away from it (a G1 holding its palms on a counter edge walked back 0.5 m).
HAND_ABOVE_FURNITURE = 0.1
LANDING_MARGIN = 0.05  # s: meet the object at least this long before it lands
# m from the object's path to each hand centre, for an object wider than the opening between
# the fists (they land further apart than this asks, HAND_SPACING, and meet it either side).
HAND_GAP = 0.03
FIST_WIDTH = 0.05  # m across a G1 fist
# m centre to centre the two hands come no closer than (fist against fist: targets 0.06 m
# apart landed 0.10-0.13 m apart on the proving ground, BENCHMARKS.md "Hands side by side"),
# which leaves an opening between the fists that a tennis ball or a baseball goes through.
HAND_SPACING = 0.12
# An object no longer than this (m, its largest extent: a ball) might pass between the fists:
# one fist meets it in its path and the other comes beside it. Not a book, a bowl or a tin
# can, thin one way only: met by one fist, four that side by side were caught were missed
# (two books, two tin cans on the whole set, BENCHMARKS.md "Hands side by side").
THROUGH_THE_FISTS = HAND_SPACING - FIST_WIDTH + 0.02
# Where the far arm cannot come across to the object's path, it tries places this much
# further out, this many times (the opening must stay narrower than the object).
ASTRIDE_STEP = 0.01  # m
ASTRIDE_STEPS = 7
# m around furniture's footprint a hand centre counts as over it: the rubber hand reaches
# 0.093 m beyond its centre along the hand (its mesh, test_g1), so a hand held 0.06 m short
# of a counter's edge and just below its top pushed on the edge and the G1 walked back from
# the ball (surface_cascade-000008/-000009/-000016; BENCHMARKS.md "Hands clear of furniture").
HAND_CLEARANCE = 0.1
BOX_SPACING = 0.12  # m between the sample points of the object's box
# What a catch's cost adds for walking at all and for hands not side by side in the path (one
# alone, or two astride it): each makes the hands land less surely than the gait table and
# the reach map say (a short turning walk and one hand were chosen over standing with both
# for a catch 0.4 s earlier, and missed).
WALK_COST = 0.3
ASIDE_COST = 0.3
# m ahead of the hand origin that hands held out toward an object out of reach go: inside the
# reach map (0.5 m strained the arms and, held in the room while the body swayed, fell twice).
REACH_TOWARD = 0.4
LARGE = 0.5  # m: an object longer than this (a door) is met a little in from its edge ...
EDGE_INSET = 0.08  # m ... by this much


@dataclass(frozen=True)
class Path:
    """The object after the freeze in the robot frame at the freeze: time (s after the
    freeze), hazard point, velocity, and sample points of its box at each time."""

    t: np.ndarray  # (n,)
    point: np.ndarray  # (n, 3)
    velocity: np.ndarray  # (n, 3)
    box: np.ndarray  # (n, k, 3)
    radius: float  # m, half the object's smallest extent (its box keeps the rest)
    length: float = 0.0  # m, its largest extent


def object_path(truth: GroundTruth, robot_pos: Vec3, robot_yaw: float) -> Path:
    """The ground-truth path from the freeze on, resampled every ``STEP`` s."""
    traj = [p for p in truth.trajectory if p.t >= truth.window - 1e-9]
    stride = max(1, round(STEP * _rate(truth)))
    traj = traj[::stride] if len(traj) > 2 * stride else traj
    t = np.asarray([p.t - truth.window for p in traj])
    point = np.asarray([to_robot(p.pos, robot_pos, robot_yaw) for p in traj])
    velocity = np.gradient(point, t, axis=0) if len(t) > 1 else np.zeros_like(point)
    size = truth.hazard_size or (0.1, 0.1, 0.1)
    offsets = _box_offsets(size)
    boxes = []
    for p in traj:
        if p.center is None or p.quat is None:  # a schema 2.0 truth: a ball round the point
            center, quat = p.pos, (1.0, 0.0, 0.0, 0.0)
        else:
            center, quat = p.center, p.quat
        world = [add(center, quat_rotate(quat, tuple(o))) for o in offsets]
        boxes.append([to_robot(w, robot_pos, robot_yaw) for w in world])
    return Path(t, point, velocity, np.asarray(boxes), radius=0.5 * min(size), length=max(size))


def _rate(truth: GroundTruth) -> float:
    if len(truth.trajectory) < 2:
        return 60.0
    return 1.0 / max(truth.trajectory[1].t - truth.trajectory[0].t, 1e-6)


def _box_offsets(size: Vec3) -> np.ndarray:
    """Points over an object's box (its own axes), at most ``BOX_SPACING`` apart."""
    axes = [np.linspace(-s / 2.0, s / 2.0, max(2, math.ceil(s / BOX_SPACING) + 1)) for s in size]
    grid = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
    return grid


def _gait_poses(gait: Gait | None, times: np.ndarray) -> np.ndarray:
    """(n, 3) base x, y, heading of a gait (None: standing) at these times."""
    if gait is None:
        return np.zeros((len(times), 3))
    return np.asarray([gait.at(float(t)) for t in times])


def body_distance(box: np.ndarray, base: np.ndarray, radius: float = BODY_RADIUS) -> np.ndarray:
    """(n,) distance from the body cylinder at each base (x, y) to the object's box points."""
    horizontal = np.hypot(box[..., 0] - base[:, None, 0], box[..., 1] - base[:, None, 1])
    radial = np.maximum(horizontal - radius, 0.0)
    vertical = np.maximum(np.maximum(box[..., 2] - BODY_HEIGHT, -box[..., 2]), 0.0)
    return np.hypot(radial, vertical).min(axis=1)


@dataclass(frozen=True)
class Room:
    """Walls and obstacles in the robot frame at the freeze, for the walking checks."""

    half: tuple[float, float] | None  # the room's half extents (world), None: unknown
    boxes: list[tuple[Vec3, Vec3]]  # obstacles' world (lo, hi)
    robot_pos: Vec3
    robot_yaw: float

    def top_under(self, x: float, y: float) -> float | None:
        """The top of the highest obstacle under this point (robot frame), if any."""
        wx, wy = self._world(np.asarray([[x, y]]))
        tops = [
            hi[2]
            for lo, hi in self.boxes
            if lo[0] - HAND_CLEARANCE <= wx[0] <= hi[0] + HAND_CLEARANCE
            and lo[1] - HAND_CLEARANCE <= wy[0] <= hi[1] + HAND_CLEARANCE
        ]
        return max(tops) if tops else None

    def _world(self, base: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        c, s = math.cos(self.robot_yaw), math.sin(self.robot_yaw)
        x = self.robot_pos[0] + c * base[:, 0] - s * base[:, 1]
        y = self.robot_pos[1] + s * base[:, 0] + c * base[:, 1]
        return x, y

    def clearance(self, base: np.ndarray) -> np.ndarray:
        """(n,) distance from each base position (robot frame) to the nearest wall or
        obstacle footprint (inf when the room is empty)."""
        x, y = self._world(base)
        out = np.full(len(base), np.inf)
        if self.half is not None:
            hx, hy = self.half
            out = np.minimum.reduce([out, hx - x, x + hx, hy - y, y + hy])
        for lo, hi in self.boxes:
            dx = np.maximum(np.maximum(lo[0] - x, x - hi[0]), 0.0)
            dy = np.maximum(np.maximum(lo[1] - y, y - hi[1]), 0.0)
            out = np.minimum(out, np.hypot(dx, dy))
        return out


def room_of(truth: GroundTruth, robot_pos: Vec3, robot_yaw: float) -> Room:
    half = None if truth.room_size is None else (truth.room_size[0] / 2, truth.room_size[1] / 2)
    boxes = [
        (o.lo, o.hi) for o in truth.obstacles if o.hi[2] > OBSTACLE_TOP and o.lo[2] < BODY_HEIGHT
    ]
    return Room(half, boxes, robot_pos, robot_yaw)


def walk_poses(gait: Gait | None) -> np.ndarray:
    """(n, 3) the gait's whole measured path (standing: the start alone)."""
    return np.zeros((1, 3)) if gait is None else np.asarray(gait.path)


def walk_violation(room: Room, poses: np.ndarray) -> float:
    """How far (m) a walk comes inside ``WALK_CLEARANCE`` of the room's contents, beyond
    where it starts (a robot that starts close to a table may stay as close)."""
    clearance = room.clearance(poses[:, :2])
    allowed = min(WALK_CLEARANCE, float(clearance[0]))
    return float(max(allowed - clearance.min(), 0.0))


def _plan(
    intent: str,
    gait: Gait | None,
    keyframes: list[dict],
    confidence: float = 1.0,
) -> ReactionPlan:
    return parse_plan(
        {
            "object_identified": "oracle",
            "intent": intent,
            "confidence": confidence,
            "walking_cmd": list(gait.command) if gait is not None else [0.0, 0.0, 0.0],
            "walking_duration": gait.duration if gait is not None else 0.0,
            "keyframes": keyframes,
        }
    )


def _rest(t: float) -> dict:
    return {
        "t": t,
        "left_hand": list(robot.REST_LEFT_HAND),
        "right_hand": list(robot.REST_RIGHT_HAND),
        "knee_bend": 0.0,
    }


def _hand_offset(point: Vec3, body: Sequence[float] | np.ndarray) -> Vec3:
    """A point in the robot frame at the freeze as an offset from the hand origin of the body
    at ``body`` (x, y, heading)."""
    local = to_robot(point, (body[0], body[1], 0.0), body[2])
    return sub(local, robot.HAND_ORIGIN)


def _hand_point(offset: Vec3, body: Sequence[float] | np.ndarray) -> Vec3:
    """The inverse of ``_hand_offset``."""
    return to_world(add(offset, robot.HAND_ORIGIN), (body[0], body[1], 0.0), body[2])


def moved_frame(
    hand: Vec3, body: Sequence[float] | np.ndarray, anchor: Sequence[float] | np.ndarray
) -> Vec3:
    """A hand offset from the hand origin of the body at ``body`` (x, y, heading), as an
    offset from the hand origin of the body at ``anchor``."""
    return _hand_offset(_hand_point(hand, body), anchor)


def _mirrored(hand: Vec3) -> Vec3:
    return (hand[0], -hand[1], hand[2])


def _ready(t: float, left: Vec3) -> dict:
    """Hands held where the default pose has them (the gait table's ``ready``)."""
    return {
        "t": t,
        "left_hand": list(left),
        "right_hand": list(_mirrored(left)),
        "knee_bend": 0.0,
    }


def _classifies_as(plan: ReactionPlan, truth: GroundTruth, pos: Vec3, yaw: float) -> bool:
    return classify(plan, hazard_bearing(truth, pos, yaw)) is truth.action


@dataclass(frozen=True)
class Candidate:
    violation: float  # m (or s) by which the plan misses a constraint; 0: it meets them all
    cost: float
    plan: ReactionPlan


def no_action_plan() -> ReactionPlan:
    return _plan("stay put: it will not reach me", None, [_rest(0.3)])


class Meeting(NamedTuple):
    """Where the hands meet the object: offsets from the hand origin, and the knee bend."""

    left: Vec3
    right: Vec3
    knee: float
    side_by_side: bool  # both fists in its path; False: one hand alone, or the two astride it


def hands_at(path: Path, i: int, base: np.ndarray, room: Room, table: GaitTable) -> Meeting | None:
    """Both hands meeting the object at path sample ``i`` with the body at ``base`` (x, y,
    heading): side by side across its path (whichever touches it first closes on it), or,
    for an object narrower than the opening between the fists, the fist on its side in its
    path and the other beside it; a little under its centre when it falls, and never on or
    just above furniture (hands pressed on a table push the body away). Off to one side,
    where the other arm cannot come across that far, the hand on that side meets it and the
    other comes as near as it reaches, the object still wider than the opening between them;
    where not even that, the hand on that side alone (the other held ready). None when out
    of reach."""
    point = path.point[i]
    falling = path.velocity[i][2] < -0.5 * float(np.linalg.norm(path.velocity[i][:2]))
    if path.length > LARGE and not falling:
        # A door's edge sweeping past: meet its face a little in from the edge, which the
        # face crosses at the same moment, so a body a few centimetres off still meets it.
        center = path.box[i].mean(axis=0)
        inward = center[:2] - point[:2]
        span = float(np.linalg.norm(inward))
        if span > 1e-6:
            point = point.copy()
            point[:2] += inward / span * min(EDGE_INSET, 0.5 * span)
    local = _hand_offset((float(point[0]), float(point[1]), float(point[2])), base)
    if local[0] < BODY_FRONT + path.radius + 0.03:
        return None
    below = 0.5 * path.radius if falling else 0.0
    x, y, z = local[0], local[1], local[2] - below
    if path.length < THROUGH_THE_FISTS:  # the fist on its side in its path
        inward = -HAND_SPACING if y >= 0 else HAND_SPACING
        near, beside = (x, y, z), (x, y + inward, z)
        left, right = (near, beside) if y >= 0 else (beside, near)
    else:
        left, right = (x, y + HAND_GAP, z), (x, y - HAND_GAP, z)
    ready = table.ready
    alone = (x, y, z)
    # Standing only: crouched with the arms out the G1 fell in 3 of 6 trials (BENCHMARKS.md),
    # so the crouched reach map is measured but not planned with.
    reach, knee = table.reach, 0.0

    def free(*hands: Vec3) -> bool:
        """No hand rests on or presses into furniture under it."""
        for hand in hands:
            hx, hy, hz = _hand_point(hand, base)
            top = room.top_under(hx, hy)
            if top is not None and hz - top < HAND_ABOVE_FURNITURE:
                return False
        return True

    if reach.reaches(left, left=True) and reach.reaches(right, left=False) and free(left, right):
        return Meeting(left, right, knee, side_by_side=True)
    on_left = y > 0
    if y == 0 or not reach.reaches(alone, left=on_left) or not free(alone):
        return None
    # The hand on the object's side in its path; the other steps out from its side-by-side
    # place toward its own side until its arm reaches, while the object cannot pass between.
    near = left if on_left else right
    side = -1.0 if on_left else 1.0
    for step in range(1, ASTRIDE_STEPS + 1 if reach.reaches(near, left=on_left) else 1):
        far = (x, y + side * HAND_GAP + side * ASTRIDE_STEP * step, z)
        if abs(near[1] - far[1]) - FIST_WIDTH >= 2.0 * path.radius:
            break
        if reach.reaches(far, left=not on_left):
            pair = (near, far) if on_left else (far, near)
            if free(*pair):
                return Meeting(pair[0], pair[1], knee, side_by_side=False)
    if on_left:
        return Meeting(alone, _mirrored(ready), knee, side_by_side=False)
    return Meeting(ready, alone, knee, side_by_side=False)


def catch_plan(
    truth: GroundTruth,
    robot_pos: Vec3,
    robot_yaw: float,
    gaits: GaitTable,
) -> ReactionPlan:
    path = object_path(truth, robot_pos, robot_yaw)
    room = room_of(truth, robot_pos, robot_yaw)
    # Meet it before it lands, unless the floor is its path (a bouncing or rolling ball).
    lands = (
        truth.time_to_floor - truth.window - LANDING_MARGIN
        if truth.time_to_floor is not None and truth.floor_resolves
        else math.inf
    )
    end = min(lands, float(path.t[-1]) - 0.2)
    options: list[Gait | None] = [
        None,
        *(g for g in gaits.choices("held") if g.duration <= MAX_CATCH_WALK),
    ]
    best: Candidate | None = None
    for gait in options:
        poses = _gait_poses(gait, path.t)
        distance = body_distance(path.box, poses[:, :2], BODY_FRONT)
        walk = walk_violation(room, walk_poses(gait))
        moved = 0.0 if gait is None else math.hypot(*gait.at(gait.duration + SETTLE)[:2])
        # The hands, held where the default pose has them while the body walks (held
        # anywhere else they change the gait), rise once the walking command has ended and
        # are in place before the object arrives.
        settled = 0.0 if gait is None else gait.duration + SETTLE
        # The spine holds the hands in place in the room from just after the walking command
        # ends (spine.hands.anchor_time), so the keyframes are offsets from the body then,
        # while reach is judged from where the body is when the object arrives.
        anchor = np.zeros(3) if gait is None else np.asarray(gait.at(gait.duration + WALK_STOP))
        for i, t in enumerate(path.t):
            if t < settled + HANDS_RISE + HANDS_EARLY or t > end:
                continue
            hands = hands_at(path, i, poses[i], room, gaits)
            if hands is None:
                continue
            # The object must reach the hands before anything else of the body, and the walk
            # must not bump into anything: a catch that cannot keep both is no catch.
            if walk > 0.0 or (i and distance[:i].min() < CATCH_BODY_GAP):
                continue
            speed = float(np.linalg.norm(path.velocity[i]))
            height = abs(float(path.point[i][2]) - CHEST_HEIGHT)
            left, right, knee, side_by_side = hands
            left_held, right_held = left == gaits.ready, right == _mirrored(gaits.ready)
            # The meeting hand, into the anchor's frame; one held ready stays as it is.
            if not left_held:
                left = moved_frame(left, poses[i], anchor)
            if not right_held:
                right = moved_frame(right, poses[i], anchor)
            cost = (
                0.5 * speed
                + 1.0 * height
                + 2.0 * moved
                + 0.3 * float(t)
                + (WALK_COST if gait is not None else 0.0)
                + (ASIDE_COST if not side_by_side else 0.0)
            )
            if best is not None and cost >= best.cost:
                continue
            # A plan's keyframes end MAX_KEYFRAME_TIME after the freeze and the hands hold the
            # last one: a later catch has them in place by then.
            latest = robot.MAX_KEYFRAME_TIME - HOLD_STEP - HANDS_RISE
            if settled > latest:
                continue
            ready = min(max(settled, t - HANDS_EARLY - HANDS_LEAD - HANDS_RISE), latest)
            keyframes = [_ready(ready, gaits.ready)] if ready > 0.05 else []
            pose = {"left_hand": list(left), "right_hand": list(right), "knee_bend": knee}
            keyframes.append({"t": ready + HANDS_RISE, **pose})
            keyframes.append({"t": min(t + 0.5, robot.MAX_KEYFRAME_TIME), **pose})
            plan = _plan("catch it with both hands where it arrives", gait, keyframes)
            if not _classifies_as(plan, truth, robot_pos, robot_yaw):
                continue
            best = Candidate(0.0, cost, plan)
    if best is None:  # nothing reachable: still the right action, hands out toward it
        return _reach_toward(truth, robot_pos, robot_yaw)
    return best.plan


def _reach_toward(truth: GroundTruth, robot_pos: Vec3, robot_yaw: float) -> ReactionPlan:
    target = truth.trajectory[-1].pos if truth.impact_point is None else truth.impact_point
    px, py, _pz = to_robot(target, robot_pos, robot_yaw)
    norm = math.hypot(px, py) or 1.0
    ux, uy = px / norm, py / norm
    reach = REACH_TOWARD
    hand = (ux * reach, uy * reach, -0.1)
    side = (-uy * 0.12, ux * 0.12)
    return _plan(
        "reach toward where it arrives",
        None,
        [
            {
                "t": 0.3,
                "left_hand": [hand[0] + side[0], hand[1] + side[1], hand[2]],
                "right_hand": [hand[0] - side[0], hand[1] - side[1], hand[2]],
                "knee_bend": 0.0,
            }
        ],
    )


def dodge_plan(
    truth: GroundTruth,
    robot_pos: Vec3,
    robot_yaw: float,
    gaits: GaitTable,
) -> ReactionPlan:
    path = object_path(truth, robot_pos, robot_yaw)
    room = room_of(truth, robot_pos, robot_yaw)
    best: Candidate | None = None
    # Only walks that really move the body: a command the policy hardly follows (a turn on the
    # spot) reads as a dodge on paper and stays put.
    moving = [g for g in gaits.choices("swing") if math.hypot(*g.path[-1][:2]) >= MIN_DODGE_MOVE]
    for gait in moving:
        poses = _gait_poses(gait, path.t)
        clearance = float(body_distance(path.box, poses[:, :2]).min())
        walk = walk_violation(room, walk_poses(gait))
        violation = walk + max(DODGE_MARGIN - clearance, 0.0)
        moved = math.hypot(*gait.path[-1][:2])
        cost = moved - 0.1 * min(clearance, 1.0)
        if best is not None and (violation, cost) >= (best.violation, best.cost):
            continue
        plan = _plan("get out of its way", gait, [_rest(0.3)])
        if not _classifies_as(plan, truth, robot_pos, robot_yaw):
            continue
        best = Candidate(violation, cost, plan)
    if best is None:
        raise RuntimeError("no gait in the table reads as a dodge")  # a broken gait table
    return best.plan


def oracle_plan(
    truth: GroundTruth, robot_pos: Vec3, robot_yaw: float, gaits: GaitTable | None = None
) -> ReactionPlan:
    """The plan that does the right thing, read from ground truth (module docstring)."""
    table = gaits if gaits is not None else load_gaits()
    if truth.action is Action.NO_ACTION:
        return no_action_plan()
    if truth.action is Action.TRIGGER_DODGE:
        return dodge_plan(truth, robot_pos, robot_yaw, table)
    return catch_plan(truth, robot_pos, robot_yaw, table)
