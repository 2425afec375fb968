"""The 17 family samplers: pure functions of the seed that encode each family's physics."""

from __future__ import annotations

import math

import pytest

from reacthuman import robot
from reacthuman.brain.motion import to_robot
from reacthuman.gait_table import load_gaits
from reacthuman.scenes.cameras import ASPECT
from reacthuman.scenes.catalogue import default_catalogue, longest_extent
from reacthuman.scenes.design import MIN_SPEED_RATIO
from reacthuman.scenes.families import REGISTRY
from reacthuman.scenes.families.base import adversarial_pool, planned_side
from reacthuman.scenes.generate import DEFAULT_ADVERSARIAL_RATE, generate_scene
from reacthuman.scenes.geometry import box_corners, project, quat_rotate, sub
from reacthuman.scenes.kinematics import G
from reacthuman.scenes.labels import (
    Action,
    Arrival,
    action_label,
    intrinsic_reasons,
    others_of,
    provisional_label,
)
from reacthuman.scenes.moment import DEFAULT_WINDOW, MIN_WINDOW, REACTION_MARGIN, resolution_time
from reacthuman.scenes.reach import MOVING_SPEED
from reacthuman.scenes.samplers import GenerationError, pinnable_objects, schedule
from reacthuman.scenes.spec import (
    SWEPT_BANDS,
    Family,
    FurnitureKind,
    ObjectRole,
    Pin,
    Pose,
    RoomType,
    SceneSpec,
    SpeedBand,
)
from reacthuman.scenes.twin import reads_heavier

# Seeds per family: 16 on every run, 240 (60 groups of a swept family) in the sweeps.
SEEDS = [16, pytest.param(240, marks=[pytest.mark.slow, pytest.mark.sweep])]
GRAVITY_PACED = {
    Family.hanging_fall,
    Family.ceiling_drop,
    Family.furniture_tip,
    Family.stack_collapse,
    Family.ladder_slip,
}


def test_all_17_families_are_registered_twelve_swept_five_gravity_paced():
    assert set(REGISTRY) == set(Family)
    assert len(Family) == 17
    assert {f for f, s in REGISTRY.items() if s.gravity_paced} == GRAVITY_PACED


@pytest.mark.parametrize("seeds", SEEDS)
@pytest.mark.parametrize("family", list(Family), ids=lambda f: f.value)
def test_many_seeds_validate_round_trip_and_follow_the_label_rule(family, seeds):
    catalogue = default_catalogue()
    for seed in range(seeds):
        try:
            spec = generate_scene(family, seed)
        except GenerationError:
            continue  # the set schedule skips these; test_sets checks how rarely
        text = spec.to_json()
        again = SceneSpec.from_json(text)
        assert again == spec and again.to_json() == text
        label, safety = provisional_label(spec)
        hazard = spec.hazard
        physics = catalogue.get(hazard.catalogue_name)
        assert hazard.hazards == physics.hazards and hazard.mass_kg == physics.mass_kg
        assert hazard.graspable == physics.graspable
        arrival = Arrival(
            reaches_observer=spec.intended.reaches_observer,
            peak_speed=spec.intended.peak_speed,
            peak_kinetic_energy=spec.intended.peak_kinetic_energy,
        )
        others = others_of(spec, spec.intended.others)
        assert label is action_label(hazard, arrival, others)
        # The group's planned side, by design: a catch group's faster bands may be dodges
        # only where the family lets speed decide (a very fast throw).
        side = planned_side(REGISTRY[family], spec.group)
        by_speed = REGISTRY[family].speed_decides_label and label is Action.TRIGGER_DODGE
        assert label is side or by_speed, (spec.scene_id, label, side)


# Scene groups of a family that no design can give a decision moment (the set schedule skips
# them and moves on): a defect of the family's design, at most one group in ten anywhere
# (issue 51; measured 0 of 40 in every family).
MAX_SKIPPED_SHARE = 0.1


# A rate: 40 groups a family measure it (the sweeps: the default seeds and a block far from
# them, where hanging_fall once found a design for only 31 of 40 groups and bouncing_object
# misses 2 of the first 8); the default block's first 8 groups on every run allow no failure.
SWEEP = [pytest.mark.slow, pytest.mark.sweep]


@pytest.mark.parametrize(
    ("first", "groups"),
    [(0, 8), pytest.param(0, 40, marks=SWEEP), pytest.param(15000000, 40, marks=SWEEP)],
    ids=["default-8", "default-40", "far-40"],
)
@pytest.mark.parametrize("family", list(Family), ids=lambda f: f.value)
def test_generation_fails_rarely(family, groups, first):
    gravity = family in GRAVITY_PACED
    failures = 0
    for group in range(first, first + groups):
        try:
            generate_scene(family, group if gravity else 4 * group)
        except GenerationError:
            failures += 1
    assert failures <= MAX_SKIPPED_SHARE * groups


@pytest.mark.parametrize("family", list(Family), ids=lambda f: f.value)
def test_every_design_leaves_a_decision_moment(family, default_set):
    """The designed motion (closed form) starts outside the reach zone (or at rest in it, as
    multi_object's row, arriving when it is set moving), keeps its band's
    reaction margin after a window of 0.3-0.6 s, and a swept group's speed at the hands rises
    with the band by the design ratio (the simulation checks the same on measured motion)."""
    _manifest, scenes = default_set
    mine = [s.spec for s in scenes if s.spec.family is family]
    for spec in mine:
        motion = spec.intended
        assert MIN_WINDOW <= spec.timing.window <= DEFAULT_WINDOW, spec.scene_id
        if motion.reaction_margin is not None:
            assert motion.reaction_margin >= REACTION_MARGIN[spec.speed_band], spec.scene_id
        path = motion.path
        outside = (
            math.hypot(path[0].pos[0] - spec.observer.pos[0], path[0].pos[1] - spec.observer.pos[1])
            > 1.2
            or path[0].pos[2] > 2.0
        )
        at_rest = math.hypot(*(b - a for a, b in zip(path[0].pos, path[1].pos, strict=True))) < (
            MOVING_SPEED * (path[1].t - path[0].t)
        )
        assert outside or at_rest, spec.scene_id
    if family in GRAVITY_PACED:
        return
    groups: dict[int, list] = {}
    for spec in mine:
        groups.setdefault(spec.group, []).append(spec)
    for group in (g for g in groups.values() if len(g) == 4):
        speeds = [s.intended.peak_speed for s in group]  # at the hands
        assert speeds == sorted(speeds) and speeds[-1] >= MIN_SPEED_RATIO * speeds[0], speeds
        if not REGISTRY[family].speed_decides_label:
            assert len({provisional_label(s)[0] for s in group}) == 1, group[0].scene_id


def test_same_inputs_give_the_same_bytes_and_other_seeds_differ():
    a = generate_scene("rolling_ball", 7).to_json()
    assert generate_scene("rolling_ball", 7).to_json() == a
    assert generate_scene("rolling_ball", 11).to_json() != a


def test_seed_schedule_groups_four_bands_in_swept_families():
    assert schedule("rolling_ball", 0) == (0, SpeedBand.slow)
    assert schedule("rolling_ball", 7) == (1, SpeedBand.very_fast)
    assert schedule("ceiling_drop", 7) == (7, SpeedBand.gravity)


BAND_FIELDS = {"scene_id", "seed", "speed_band", "intended", "objects", "timing"}
# thrown_object's thrower stands where the throw arrives in about the same time in every band,
# so its start, the thrower drawn there and the cameras that frame it differ too.
MOVED_BY_BAND = {Family.thrown_object: {"cameras", "furniture"}}


def _groups(family: Family, count: int) -> list[list]:
    """The first ``count`` swept scene groups of a family that generate (the set schedule
    skips the few that no design can give a decision moment)."""
    groups = []
    for group in range(4 * count):
        try:
            groups.append([generate_scene(family, 4 * group + i) for i in range(4)])
        except GenerationError:
            continue
        if len(groups) == count:
            return groups
    raise AssertionError(f"{family.value}: fewer than {count} groups generate")


@pytest.mark.parametrize(
    "family", [f for f in Family if f not in GRAVITY_PACED], ids=lambda f: f.value
)
def test_bands_of_a_group_differ_only_in_speed(family):
    for specs in _groups(family, 3):
        assert [s.speed_band for s in specs] == list(SWEPT_BANDS)
        base = specs[0].model_dump()
        speeds = []
        for spec in specs:
            dump = spec.model_dump()
            allowed = BAND_FIELDS | MOVED_BY_BAND.get(family, set())
            assert {k for k in dump if dump[k] != base[k]} <= allowed
            assert dump["timing"]["t0"] == base["timing"]["t0"]
            for obj, obj0 in zip(dump["objects"], base["objects"], strict=True):
                moving = {"lin_vel", "ang_vel", "pose"}
                assert {k for k in obj if obj[k] != obj0[k]} <= moving
            moving_objects = [o for o in spec.objects if any(o.lin_vel) or any(o.ang_vel)]
            # The sweep is over the speed across the room: a lob's vertical speed is set by
            # gravity and where it is aimed (the slow band's throw rises highest).
            speeds.append(
                max(math.hypot(*o.lin_vel[:2]) + abs(o.ang_vel[2]) for o in moving_objects)
            )
        assert speeds == sorted(speeds) and speeds[0] < speeds[-1], family


def test_free_fall_in_intended_motion_accelerates_at_g():
    spec = next(
        s
        for s in (generate_scene("ceiling_drop", seed) for seed in range(20))
        if s.intended.floor_time and s.intended.floor_time > 0.5
    )
    path = spec.intended.path
    z = [p.pos[2] for p in path[:4]]
    dt = path[1].t - path[0].t
    accel = (z[2] - 2 * z[1] + z[0]) / dt**2
    assert accel == pytest.approx(-G, rel=0.01)


def _at(path, t: float) -> tuple[float, float, float]:
    """The intended path's hazard point at ``t``, linear between its samples."""
    for a, b in zip(path, path[1:], strict=False):
        if a.t <= t <= b.t:
            w = (t - a.t) / (b.t - a.t)
            return tuple(pa + w * (pb - pa) for pa, pb in zip(a.pos, b.pos, strict=True))
    return path[-1].pos


# Families whose motion starts slowly (an inverted pendulum, a slip): the hazard point's
# designed path moves at least this far over the window, about 10 px of a 640-px close-up
# 2-3 m away (`reacthuman scenes validity` measures it on the rendered frames). Released from
# rest just past balance, as first designed, they moved 1-3 cm: too little to see.
SLOW_STARTS = (Family.hanging_fall, Family.furniture_tip, Family.ladder_slip)
MIN_DESIGNED_MOVE = 0.05  # m


@pytest.mark.parametrize("first_seed", [0, 9_000_000])
@pytest.mark.parametrize("family", SLOW_STARTS, ids=lambda f: f.value)
def test_slow_starting_hazards_move_visibly_over_the_window(family, first_seed):
    designed = 0
    for seed in range(first_seed, first_seed + 18):
        try:
            spec = generate_scene(family, seed)
        except GenerationError:  # a group with no design: a set skips it (the yield)
            continue
        designed += 1
        path, t0 = spec.intended.path, spec.timing.t0
        moved = math.dist(_at(path, t0), _at(path, t0 + spec.timing.window))
        assert moved >= MIN_DESIGNED_MOVE, (spec.scene_id, moved)
    assert designed >= 16


def test_a_fixture_off_its_hook_drops_onto_the_shelf_then_tips_toward_the_robot():
    for seed in range(6):
        spec = generate_scene("hanging_fall", seed)
        shelf = next(f for f in spec.furniture if f.kind is FurnitureKind.wall_shelf)
        shelf_top = shelf.pose.pos[2] + shelf.size[2] / 2.0
        fixture = spec.hazard
        corners = box_corners(fixture.pose.pos, fixture.shape.size, fixture.pose.quat)
        gap = min(c[2] for c in corners) - shelf_top
        assert 0.06 <= gap <= 0.125, (spec.scene_id, gap)  # it hangs above the shelf
        path = spec.intended.path
        fall = math.sqrt(2.0 * gap / G)
        before = [p for p in path if p.t < fall - 0.02]
        # Straight down at g until it lands: the top edge keeps its place across the room.
        assert all(math.dist(p.pos[:2], path[0].pos[:2]) < 1e-3 for p in before)
        drop = path[0].pos[2] - before[-1].pos[2]
        assert drop == pytest.approx(0.5 * G * before[-1].t ** 2, abs=2e-3)
        # Then it tips toward the robot.
        robot_at = spec.observer.pos
        after = [p for p in path if fall + 0.1 <= p.t <= fall + 0.6]
        toward = [math.dist(p.pos[:2], robot_at[:2]) for p in after]
        assert toward == sorted(toward, reverse=True) and toward[0] - toward[-1] > 0.03


# Families whose catch a G1 makes standing still: the object comes to its hands.
STANDING_CATCHES = (
    Family.rolling_ball,
    Family.multi_object,
    Family.object_drop,
    Family.surface_cascade,
    Family.chain_reaction,
    Family.thrown_object,
    Family.sliding_object,
    Family.bouncing_object,
    Family.stair_tumble,
    Family.pendulum_swing,
    Family.hanging_fall,
)


@pytest.mark.parametrize("family", STANDING_CATCHES)
def test_the_designed_path_meets_hands_held_out_by_a_standing_g1(family):
    # After the freeze (and the 0.25 s the hands take to rise) and before it lands, the
    # hazard passes where the hands of a G1 standing still reach (the measured reach map:
    # both, or the one on its side, as the oracle plans), ahead of its body: the catch the
    # label asks for can be made.
    reach = load_gaits().reach
    checked = 0
    for seed in range(64):  # until 8 catches (a pendulum's bob is mostly a heavy bag)
        if checked == 8:
            break
        spec = generate_scene(family, seed)
        motion = spec.intended
        if provisional_label(spec)[0] is not Action.EXECUTE_CATCH:
            continue
        resolved = resolution_time(motion.arrival_time, motion.floor_time, motion.floor_resolves)
        assert resolved is not None and motion.reaction_margin is not None
        ready = resolved - motion.reaction_margin + 0.25
        landed = motion.floor_time if motion.floor_time is not None else math.inf
        met = False
        for a, b in zip(motion.path, motion.path[1:], strict=False):
            for k in range(10):  # the path is sampled at 10 Hz; a fall crosses the hands faster
                t = a.t + (b.t - a.t) * k / 10
                if not ready <= t < landed:
                    continue
                pos = tuple(p + (q - p) * k / 10 for p, q in zip(a.pos, b.pos, strict=True))
                local = to_robot(pos, spec.observer.pos, spec.observer.yaw)
                x, y, z = sub(local, robot.HAND_ORIGIN)
                both = reach.reaches((x, y + 0.03, z), left=True) and reach.reaches(
                    (x, y - 0.03, z), left=False
                )
                met = met or (local[0] > 0.2 and (both or reach.reaches((x, y, z), left=y > 0)))
        assert met, spec.scene_id
        checked += 1
    assert checked >= 6


def test_object_drop_glides_off_the_table_end_inside_its_horizon_in_every_band():
    # The glide loses the simulator's least friction (0.01 g): pushed slow, the grippiest
    # object still tips off inside the ground truth, which runs 4.5 s for this family.
    for seed in range(16):
        spec = generate_scene(Family.object_drop, seed)
        assert spec.timing.horizon == 4.5
        assert spec.intended.floor_time is not None, spec.scene_id
        assert spec.intended.floor_time < spec.timing.horizon - 0.25, spec.scene_id
    assert generate_scene(Family.thrown_object, 0).timing.horizon == 3.5


def test_ramp_angles_are_above_the_friction_cone():
    for seed in range(60):
        spec = generate_scene("sliding_object", seed)
        ramp = next(f for f in spec.furniture if f.kind is FurnitureKind.ramp)
        angle = math.atan2(ramp.size[2], ramp.size[0])
        mu = max(spec.hazard.friction, ramp.friction)
        assert math.tan(angle) > mu, spec.scene_id


def test_ladders_slide_past_the_no_slip_limit_or_stand_past_vertical():
    regimes = set()
    for seed in range(40):
        spec = generate_scene("ladder_slip", seed)
        ladder = spec.hazard
        axis = quat_rotate(ladder.pose.quat, (0.0, 0.0, 1.0))  # the ladder's long axis
        # Lean from vertical, positive toward the wall (the robot looks at the wall).
        yaw = spec.observer.yaw
        forward = axis[0] * math.cos(yaw) + axis[1] * math.sin(yaw)
        lean = math.atan2(forward, axis[2])
        if lean > 0:
            regimes.add("slide")
            mu_f = max(ladder.friction, spec.room.floor_friction)
            mu_w = max(ladder.friction, 0.1)
            assert math.tan(lean) > 2 * mu_f / (1 - mu_f * mu_w)
        else:
            regimes.add("tip")
            depth, height = ladder.shape.size[0], ladder.shape.size[2]
            assert -lean > math.atan2(depth, height)  # past balance
    assert regimes == {"slide", "tip"}


def test_chain_reaction_targets_start_at_rest_and_triggers_launch_at_t0():
    for spec in (spec for group in _groups(Family.chain_reaction, 3) for spec in group):
        assert spec.hazard.lin_vel == (0.0, 0.0, 0.0) and spec.timing.t0 > 0
        trigger = next(o for o in spec.objects if o.role.value == "trigger")
        assert trigger.launch_at_t0 and any(trigger.lin_vel)


def test_a_strike_knocks_its_object_off_the_counter_in_every_band():
    """A chain's object is launched, not nudged: off the counter into reach and down to the
    floor inside the horizon even at the slow band (a bottle under a baseball stayed put and
    was labelled a catch all the same). A catch group's heavy object takes a football, never
    the bowling ball that would make the scene a dodge."""
    heavy_catches = 0
    for seed in range(0, 120, 4):  # the slow band of 30 groups: the weakest strike
        spec = generate_scene(Family.chain_reaction, seed)
        assert spec.intended.floor_time is not None, spec.scene_id
        trigger = next(o for o in spec.objects if o.role.value == "trigger")
        tall = spec.hazard.shape.size[2] >= 0.12  # the football strikes below its top
        if provisional_label(spec)[0] is Action.EXECUTE_CATCH and spec.hazard.mass_kg > 0.12:
            if not tall:
                continue  # an apple, an orange: a baseball launches it
            heavy_catches += 1
            assert trigger.catalogue_name == "soccer_ball", spec.scene_id
    assert heavy_catches >= 5


def test_stacks_stand_until_nudged_over_their_edge():
    """The upper stack's centre sits just inside the bottom item's front edge, so the stack
    stands through its settling pre-roll; at t0 every item above the bottom one is set turning
    toward the robot about that edge, enough to carry it past balance."""
    checked = 0
    for seed in range(30):
        try:
            spec = generate_scene("stack_collapse", seed)
        except GenerationError:
            continue
        checked += 1
        assert spec.timing.t0 == 0.5
        items = sorted(spec.objects, key=lambda o: o.pose.pos[2])
        bottom, above = items[0], items[1:]
        yaw = spec.observer.yaw
        forward = (math.cos(yaw), math.sin(yaw))

        ahead = [o.pose.pos[0] * forward[0] + o.pose.pos[1] * forward[1] for o in items]
        com = sum(ahead[1:]) / len(above)
        half_depth = bottom.shape.size[0] / 2.0
        assert 0.85 * half_depth < ahead[0] - com < 0.95 * half_depth
        assert not bottom.launch_at_t0 and all(o.launch_at_t0 for o in above)
        for item in above:  # toward the robot, turning the same way
            toward = item.lin_vel[0] * forward[0] + item.lin_vel[1] * forward[1]
            assert toward < 0.0 or item is above[0], spec.scene_id
            assert math.hypot(*item.ang_vel) > 0.05
    assert checked >= 20


SOLID = {
    FurnitureKind.table,
    FurnitureKind.counter,
    FurnitureKind.stool,
    FurnitureKind.wall_shelf,
    FurnitureKind.hanging_shelf,
    FurnitureKind.platform,
}


def _aabb(center, size, quat):
    corners = box_corners(center, size, quat)
    return [min(c[i] for c in corners) for i in range(3)], [
        max(c[i] for c in corners) for i in range(3)
    ]


@pytest.mark.parametrize("family", list(Family), ids=lambda f: f.value)
def test_objects_start_inside_the_room_and_clear_of_furniture(family, default_set):
    _manifest, scenes = default_set
    for scene in (s for s in scenes if s.spec.family is family):
        spec = scene.spec
        sx, sy, sz = spec.room.size
        for obj in spec.objects:
            lo, hi = _aabb(obj.pose.pos, obj.shape.size, obj.pose.quat)
            assert lo[2] >= -1e-3 and hi[2] <= sz + 1e-3, (spec.scene_id, obj.id)
            assert -sx / 2 - 1e-3 <= lo[0] and hi[0] <= sx / 2 + 1e-3, (spec.scene_id, obj.id)
            assert -sy / 2 - 1e-3 <= lo[1] and hi[1] <= sy / 2 + 1e-3, (spec.scene_id, obj.id)
            # Sphere and cylinder boxes overstate the solid, so only the centre is checked
            # against furniture: it must not be inside any solid piece.
            for piece in spec.furniture:
                if piece.kind not in SOLID:
                    continue
                # The centre in the piece's own (possibly tilted) frame, against its extents.
                w, x, y, z = piece.pose.quat
                rel = [obj.pose.pos[i] - piece.pose.pos[i] for i in range(3)]
                local = quat_rotate((w, -x, -y, -z), rel)
                inside = all(abs(local[i]) < piece.size[i] / 2 - 1e-3 for i in range(3))
                assert not inside, (spec.scene_id, obj.id, piece.id)


def test_every_camera_sees_the_hazard_at_the_start(default_set):
    _manifest, scenes = default_set
    for scene in scenes:
        spec = scene.spec
        start = spec.intended.path[0].pos
        for cam in spec.cameras:
            if cam.name.value == "egocentric":
                continue  # a drop from right above the robot starts outside its head camera
            uv = project(start, cam.pos, cam.lookat, cam.up, cam.fov_deg, ASPECT)
            assert uv is not None and max(abs(uv[0]), abs(uv[1])) <= 1.0, (spec.scene_id, cam.name)
        sx, sy, sz = spec.room.size
        for cam in spec.cameras:
            assert abs(cam.pos[0]) < sx / 2 and abs(cam.pos[1]) < sy / 2 and 0 < cam.pos[2] < sz


def test_look_alikes_are_staged_only_where_their_cue_reads_the_right_way():
    catalogue = default_catalogue()
    bouncing = {o.name for o in adversarial_pool(REGISTRY[Family.bouncing_object], catalogue)}
    # A solid steel apple rebounds off a counter higher than an apple: it would look light.
    assert "steel_apple" not in bouncing
    assert {"lead_core_tennis_ball", "concrete_filled_basketball", "foam_bowling_ball"} <= bouncing
    assert "steel_apple" not in pinnable_objects(Family.bouncing_object)
    # One swing does not show a heavy bob from a light one (a blind reading, issue 51).
    assert REGISTRY[Family.pendulum_swing].mass_cue is None
    assert "lead_sandbag" not in pinnable_objects(Family.pendulum_swing)
    staged = 0
    for sampler in REGISTRY.values():
        if sampler.mass_cue is None:
            continue  # stages none (test_adversarial_rate_is_configurable_...)
        for variant in adversarial_pool(sampler, catalogue):
            genuine = catalogue.get(variant.imitates)
            heavier = reads_heavier(sampler.mass_cue, variant, genuine)
            assert heavier == bool(intrinsic_reasons(variant)), (sampler.family, variant.name)
            staged += 1
    assert staged >= 3


@pytest.mark.slow  # 102 scenes at each of three rates
def test_adversarial_rate_is_configurable_and_look_alikes_go_where_mass_shows():
    def adversarial(rate):
        found = {}
        for family in Family:
            for seed in range(0, 48, 4):
                try:
                    spec = generate_scene(family, seed, rate)
                except GenerationError:
                    continue  # a group no design suits: the schedule skips it
                found.setdefault(family, []).append(spec)
        return found

    assert not any(s.adversarial for v in adversarial(0.0).values() for s in v)
    everywhere = adversarial(1.0)
    for family, specs in everywhere.items():
        # Only a window that shows mass plainly (a bounce onto a counter) can tell a
        # look-alike from the genuine object (the twin test), and a group stages one only
        # where the pool has a look-alike of the group's side.
        staged = [s.adversarial for s in specs]
        assert any(staged) == REGISTRY[family].shows_mass, family
        for spec in specs:
            if spec.adversarial:  # its look lies: the genuine twin takes the other action
                twin = default_catalogue().get(spec.hazard.imitates)
                assert bool(intrinsic_reasons(twin)) != bool(intrinsic_reasons(spec.hazard))
    # On an incline friction hides mass (a foam brick and a clay one slide alike), so the
    # slides stage no look-alike: their window could not tell the twins apart. Nor does one
    # swing show a heavy bob from a light one (a blind reading, issue 51).
    assert {f for f, s in REGISTRY.items() if s.shows_mass} == {Family.bouncing_object}
    default = adversarial(DEFAULT_ADVERSARIAL_RATE)
    flags = [s.adversarial for s in default[Family.bouncing_object]]
    # Two of every three dodge groups and the catch between two of them: genuine balls too.
    assert 0.3 < sum(flags) / len(flags) < 0.7
    # A harmless look-alike only between two dangerous ones.
    for specs in default.values():
        staged = {s.seed // 4: provisional_label(s)[0] for s in specs if s.adversarial}
        last = max(s.seed // 4 for s in specs)
        for group, label in staged.items():
            if label is Action.EXECUTE_CATCH:
                assert staged.get(group - 1) is Action.TRIGGER_DODGE, (specs[0].family, group)
                if group < last:
                    assert staged.get(group + 1) is Action.TRIGGER_DODGE, (specs[0].family, group)
    # Both directions: harmless things that look dangerous and dangerous things that look
    # harmless, the dodges at least a third.
    labels = [provisional_label(s)[0] for v in default.values() for s in v if s.adversarial]
    assert labels.count(Action.TRIGGER_DODGE) >= len(labels) / 3
    assert Action.EXECUTE_CATCH in labels


@pytest.mark.parametrize("first_seed", [0, 31, 98_765, 3_000_000, 6_000_000])
def test_any_block_holds_look_alikes_of_both_sides_and_genuine_balls_beside_them(first_seed):
    """Two of every three dodge groups take a look-alike and the catch between two of them:
    on any block of 18 bouncing scenes 6-12 look-alikes, at least half of them dodges, and
    genuine balls too (what a reader compares a look-alike with); on a block of two groups,
    at least a third dodges."""
    from reacthuman.scenes.sets import generate_set

    def block(per_family):
        _manifest, scenes = generate_set(
            per_family, [Family.bouncing_object], first_seed=first_seed
        )
        return [(s.spec.adversarial, provisional_label(s.spec)[0]) for s in scenes]

    scenes = block(18)
    staged = [label for adversarial, label in scenes if adversarial]
    assert 6 <= len(staged) <= 12
    assert staged.count(Action.TRIGGER_DODGE) >= len(staged) / 2
    assert any(not adversarial for adversarial, _label in scenes)
    small = [label for adversarial, label in block(6) if adversarial]
    assert small.count(Action.TRIGGER_DODGE) >= len(small) / 3


def test_adversarial_rate_changes_the_object_not_the_group():
    found = False
    for seed in range(0, 64, 4):
        a = generate_scene("bouncing_object", seed, 0.0)
        b = generate_scene("bouncing_object", seed, 1.0)
        if not b.adversarial:
            continue  # a catch group whose draw stays genuine (look-alikes favour dodges)
        found = True
        assert not a.adversarial
        # What the group is stays, and so does the action its object calls for.
        assert (a.group, a.speed_band, a.room.type) == (b.group, b.speed_band, b.room.type)
        assert provisional_label(a)[0] is provisional_label(b)[0]
    assert found


def test_intended_path_starts_at_the_hazard_point_of_the_primary_hazard(default_set):
    _manifest, scenes = default_set
    for scene in scenes:
        spec = scene.spec
        hazard = spec.hazard
        offset = quat_rotate(hazard.pose.quat, hazard.hazard_point)
        point = [hazard.pose.pos[i] + offset[i] for i in range(3)]
        start = spec.intended.path[0].pos
        assert math.dist(point, start) < 0.03, spec.scene_id


@pytest.mark.parametrize("family", list(Family), ids=lambda f: f.value)
def test_a_jointed_object_starts_moving_as_its_joint_lets_it(family):
    # The simulator takes the hinge's own velocity; a linear velocity that disagrees with
    # w x r would be a different motion from the one designed (a swing set off backwards).
    for seed in range(8):
        spec = generate_scene(family, seed)
        for obj in spec.objects:
            if obj.joint is None or obj.joint.kind != "pendulum":
                continue
            r = sub(obj.pose.pos, obj.joint.anchor)
            w = obj.ang_vel
            swept = (
                w[1] * r[2] - w[2] * r[1],
                w[2] * r[0] - w[0] * r[2],
                w[0] * r[1] - w[1] * r[0],
            )
            assert all(abs(a - b) < 2e-3 for a, b in zip(swept, obj.lin_vel, strict=True)), (
                spec.scene_id
            )


def test_a_close_up_that_cannot_show_a_small_object_large_zooms_in_while_it_frames_the_path():
    """A ball that crosses 2.5 m of room in the window: no framed pose shows it 20 px across,
    so the close-up keeps the one that, zoomed in as far as the path stays in frame, shows it
    largest."""
    from reacthuman.scenes.cameras import (
        CLOSEUP_AIM_PX,
        CLOSEUP_MIN_FOV,
        ZOOM_STEP,
        closeup,
        frames_all,
        shown_span_px,
    )
    from reacthuman.scenes.rng import SeededRng

    start, end, ball = (3.5, 0.4, 1.4), (1.2, -0.2, 0.9), 0.065
    points = [start, end]
    camera = closeup(
        SeededRng("test", "zoom", 2),
        start,
        (-1.0, 5.0, -3.0, 3.0, 3.0),
        points,
        moves=[(start, end)],
        extent=ball,
    )
    assert frames_all(camera, points)
    assert shown_span_px(camera, end, ball) < CLOSEUP_AIM_PX
    assert camera.fov_deg < 48.0  # narrower than any pose is drawn with
    narrower = camera.model_copy(update={"fov_deg": camera.fov_deg - ZOOM_STEP})
    assert camera.fov_deg - ZOOM_STEP < CLOSEUP_MIN_FOV or not frames_all(narrower, points)


def test_the_close_up_zooms_in_on_a_stack_that_starts_to_tip_until_it_shows_it_move():
    """A stack of cereal boxes nudged over its edge moves 2.5-3.5 cm in its window: from a
    close-up that framed the whole stack, 6-8 px (stack_collapse-000009 and -000013 showed
    7 and 9 px rendered, under the 10 px ``scenes validity`` asks for)."""
    from reacthuman.scenes.cameras import shown_move_px

    for seed in range(18):
        spec = generate_scene("stack_collapse", seed)
        t0, window = spec.timing.t0, spec.timing.window
        move = (_at(spec.intended.path, t0), _at(spec.intended.path, t0 + window))
        assert shown_move_px(spec.camera("closeup"), move) >= 12.0, spec.scene_id


def test_the_close_up_is_chosen_for_what_a_tumbling_object_shows_end_on():
    """Kitchen scissors (22 x 8 x 1.5 cm) thrown tumbling pointed at the close-up at the
    freeze and showed 15 px (thrown_object-9000004): the close-up is chosen for their 8 cm
    (seen end-on there they show 15.7 px of it, where the pose chosen for their length showed
    13.3; seen any other way, more)."""
    from reacthuman.scenes.cameras import shown_span_px
    from reacthuman.scenes.catalogue import end_on_extent

    spec = generate_scene("thrown_object", 9000004)
    assert spec.hazard.catalogue_name == "kitchen_scissors"
    point = _at(spec.intended.path, spec.timing.t0 + spec.timing.window)
    assert end_on_extent(spec.hazard.shape) == pytest.approx(0.08)
    assert shown_span_px(spec.camera("closeup"), point, 0.08) >= 15.0


def test_every_scene_shows_its_hazard_to_the_head_camera_at_the_freeze(default_set):
    """At least ``HEAD_AIM_PX`` across (of 640) where the hazard is at the freeze: an apple
    thrown at 12 m/s is still 4.9 m off there and showed 7 px (thrown_object-000003)."""
    from reacthuman.scenes.cameras import HEAD_AIM_PX, shown_span_px

    _manifest, scenes = default_set
    for scene in scenes:
        spec = scene.spec
        point = _at(spec.intended.path, spec.timing.t0 + spec.timing.window)
        span = shown_span_px(spec.camera("egocentric"), point, longest_extent(spec.hazard.shape))
        assert span >= HEAD_AIM_PX, (spec.scene_id, round(span, 1))


@pytest.mark.parametrize(
    "ball, too_far", [("tennis_ball", True), ("basketball", False)], ids=["tennis", "basketball"]
)
def test_a_design_whose_hazard_is_too_far_off_to_see_at_the_freeze_is_told_so(ball, too_far):
    """A ball thrown flat at 12 m/s from 8.5 m, with the very fast band's margin left at the
    freeze: 4.9 m off, a tennis ball spans 6 px of the head camera, a basketball 21."""
    from reacthuman.scenes.design import Design
    from reacthuman.scenes.families.base import Layout
    from reacthuman.scenes.kinematics import MotionPath

    thrown = default_catalogue().get(ball)
    obj = thrown.placed("hazard", ObjectRole.hazard, Pose(pos=(8.5, 0.0, 1.0)))
    path = MotionPath()
    for step in range(240):
        t = step / 240.0
        path.append(t, (8.5 - 12.0 * t, 0.0, 1.0), (-12.0, 0.0, 0.0))
    layout = Layout(
        furniture=[], objects=[obj], primary="hazard", path=path, event_origin=(8.5, 0.0, 1.0),
        description="a ball thrown at the robot",
    )  # fmt: skip
    design = Design(SpeedBand.very_fast, layout, obj.mass_kg)
    assert any("too far off to see" in p for p in design.problems()) is too_far
    assert not any("too far off to see" in p for p in design.problems(sight=False))


def test_thrown_groups_draw_what_the_head_camera_can_show_and_an_author_may_pin_the_rest():
    small = {
        name
        for name in REGISTRY[Family.thrown_object].pool
        if longest_extent(default_catalogue().get(name).shape) < 0.11
    }
    assert {"tennis_ball", "apple", "baseball"} <= small
    drawn = {
        generate_scene("thrown_object", 4 * group).hazard.catalogue_name for group in range(24)
    }
    assert not drawn & small and len(drawn) >= 6
    pinned = generate_scene(
        "thrown_object", 3, pin=Pin(object="tennis_ball", room=RoomType.playroom)
    )
    assert pinned.hazard.catalogue_name == "tennis_ball"
    assert pinned.speed_band is SpeedBand.very_fast


def test_the_close_up_sees_a_swinging_door_face_on_not_edge_on_at_the_freeze():
    """Judged by its length alone a door looked large from any pose, and one close-up kept a
    pose that saw it edge-on at the freeze: 6 px of a 640-px frame (door_swing-000003)."""
    from reacthuman.scenes.cameras import CLOSEUP_AIM_PX, shown_width_px

    for seed in range(12):
        spec = generate_scene("door_swing", seed)
        edge = _at(spec.intended.path, spec.timing.t0 + spec.timing.window)
        anchor = spec.hazard.joint.anchor
        width = shown_width_px(spec.camera("closeup"), (anchor[0], anchor[1], edge[2]), edge)
        assert width >= CLOSEUP_AIM_PX, (spec.scene_id, width)


@pytest.mark.parametrize(
    "landing_height, hidden",
    [(1.45, True), (1.0, False)],
    ids=["above-the-eye", "below-the-eye"],
)
def test_a_design_whose_hazard_a_landing_hides_from_the_head_camera_is_told_so(
    landing_height, hidden
):
    """The G1's eye is 1.2 m up: a ball rolling on a landing above it, 1 m behind the
    landing's edge, shows nothing to the head camera (stair_tumble-9000000 showed 0 px). Such
    a design is redrawn (``Design.problems``)."""
    from reacthuman.scenes.design import Design
    from reacthuman.scenes.families.base import Layout
    from reacthuman.scenes.families.blocks import furniture
    from reacthuman.scenes.kinematics import MotionPath

    ball = (
        default_catalogue()
        .get("orange")
        .placed("hazard", ObjectRole.hazard, Pose(pos=(4.1, 0.0, landing_height + 0.04)))
    )
    path = MotionPath()
    for step in range(60):
        path.append(
            step / 240.0, (4.1 - 0.3 * step / 240.0, 0.0, landing_height + 0.04), (-0.3, 0, 0)
        )
    path.hold_until(3.5)
    center, size = (3.75, 0.0, landing_height / 2), (1.5, 0.9, landing_height)
    landing = furniture("landing", FurnitureKind.platform, center, size, (0.5, 0.5, 0.5), 0.5)
    layout = Layout(
        furniture=[landing], objects=[ball], primary="hazard", path=path,
        event_origin=(3.5, 0.0, landing_height), description="a ball on a landing",
    )  # fmt: skip
    design = Design(SpeedBand.slow, layout, ball.mass_kg)
    assert (design.hidden_behind() == "landing") is hidden
    assert any("hides the hazard" in p for p in design.problems()) is hidden
