"""The G1's kinematics without a simulator (spine.kinematics): link poses and the hand
tracker's inverse kinematics, checked against Genesis's on the same MJCF, and a spine that
never imports Genesis."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from reacthuman import robot
from reacthuman.spine.g1 import G1_JOINTS, HAND_LINK, HAND_POINT, g1_document
from reacthuman.spine.hands import IK_JOINTS, IK_SEED, HandTracker
from reacthuman.spine.kinematics import IK_TOLERANCE, G1Kinematics, g1_kinematics

SIDES = ("left", "right")
BODIES = (*(HAND_LINK[s] for s in SIDES), "left_ankle_roll_link", "right_ankle_roll_link")


def _random_postures(n: int, spread: float, seed: int = 0) -> list[np.ndarray]:
    model = g1_kinematics()
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        q = HandTracker().standing.copy()
        q[:3] += rng.normal(size=3) * 0.3
        quat = rng.normal(size=4)
        q[3:7] = quat / np.linalg.norm(quat)
        for name in G1_JOINTS:
            q[model.qs[name]] += rng.normal() * spread
        out.append(q)
    return out


@pytest.fixture(scope="module")
def genesis_g1():
    """Genesis's own kinematic G1 from the same document (the tracker's copy until 2026-12-06)."""
    from reacthuman.genesis_runtime import genesis

    gs = genesis()
    scene = gs.Scene(show_viewer=False)
    entity = scene.add_entity(gs.morphs.MJCF(file=g1_document()), material=gs.materials.Kinematic())
    scene.build()
    return entity


@pytest.mark.slow
def test_link_poses_and_joint_layout_are_genesiss(genesis_g1):
    from reacthuman.genesis_runtime import as_numpy

    model = g1_kinematics()
    assert model.n_qs == genesis_g1.n_qs
    for name in G1_JOINTS:
        assert model.qs[name] == genesis_g1.get_joint(name).qs_idx_local[0], name
    for qpos in _random_postures(12, spread=0.5):
        genesis_g1.set_qpos(qpos)
        frames = model.frames(qpos, BODIES)
        for body in BODIES:
            link = genesis_g1.get_link(body)
            assert np.allclose(frames[body][0], as_numpy(link.get_pos()), atol=2e-6), body
            w, x, y, z = as_numpy(link.get_quat()).astype(float)
            column_x = (1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y))
            assert np.allclose(frames[body][1][:, 0], column_x, atol=2e-6), body


@pytest.mark.slow
def test_the_arms_solve_as_genesiss_inverse_kinematics_where_the_hands_can_reach(genesis_g1):
    """Same algorithm: where Genesis's solve reaches both targets, ours lands on the same
    joints (float64 against Genesis's float32; an unreachable target's end differs more)."""
    from reacthuman.genesis_runtime import as_numpy

    model = g1_kinematics()
    arms = model.targets([HAND_LINK[s] for s in SIDES], [HAND_POINT[s] for s in SIDES], IK_JOINTS)
    links = [genesis_g1.get_link(HAND_LINK[s]) for s in SIDES]
    dofs = [genesis_g1.get_joint(n).dofs_idx_local[0] for n in IK_JOINTS]
    arm_qs = [model.qs[n] for n in IK_JOINTS]
    rng = np.random.default_rng(1)
    compared = 0
    standing = HandTracker().standing
    for posture in _random_postures(30, spread=0.08, seed=2):
        posture[:7] = standing[:7]  # the robot frame: floor at z = 0, the pelvis above the origin
        goals = np.array(
            [
                np.add(robot.HAND_ORIGIN, (0.3, 0.15 * side, 0.0)) + rng.normal(size=3) * 0.12
                for side in (1, -1)
            ]
        )
        init = posture.copy()
        for name, value in IK_SEED.items():
            init[model.qs[name]] = value
        theirs, their_error = genesis_g1.inverse_kinematics_multilink(
            links=links, poss=list(goals), local_points=[np.asarray(HAND_POINT[s]) for s in SIDES],
            init_qpos=init, rot_mask=[False] * 3, dofs_idx_local=dofs, max_samples=1, seed=0,
            return_error=True,
        )  # fmt: skip
        ours, our_error = model.solve(init, arms, goals)
        if np.abs(as_numpy(their_error)[:, :3]).max() > IK_TOLERANCE:
            continue
        compared += 1
        assert np.abs(our_error).max() <= IK_TOLERANCE
        assert np.allclose(ours[0][arm_qs], as_numpy(theirs)[arm_qs], atol=1e-3)
    assert compared >= 15


def test_joint_ranges_hold_and_unreachable_targets_end_at_the_limit_of_the_iterations():
    model = g1_kinematics()
    arms = model.targets([HAND_LINK["left"]], [HAND_POINT["left"]], IK_JOINTS[:4])
    start = HandTracker().standing.copy()
    far = np.array([[[3.0, 2.0, 3.0]]])
    solved, error = model.solve(start, arms, far)
    assert np.linalg.norm(error) > 1.0
    for name in IK_JOINTS[:4]:
        body = model.bodies[model.body(name.replace("_joint", "_link"))]
        assert body.limits[0] <= solved[0][model.qs[name]] <= body.limits[1]
    untouched = [i for i in range(model.n_qs) if i not in {model.qs[n] for n in IK_JOINTS[:4]}]
    assert np.array_equal(solved[0][untouched], start[untouched])
    # several problems at once give each the answer it has alone
    near = np.array([[np.add(robot.HAND_ORIGIN, (0.3, 0.15, 0.05))]])
    both, both_error = model.solve(np.stack([start, start]), arms, np.concatenate([far, near]))
    assert np.array_equal(both[0], solved[0]) and np.array_equal(both_error[0], error[0])
    alone, _ = model.solve(start, arms, near)
    assert np.array_equal(both[1], alone[0])


def test_a_document_the_model_cannot_read_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="no pelvis on a free joint"):
        G1Kinematics("<mujoco><worldbody><body name='pelvis'/></worldbody></mujoco>")
    ball = (
        "<mujoco><worldbody><body name='pelvis'><freejoint/><body name='arm'>"
        "<joint name='shoulder' type='ball'/></body></body></worldbody></mujoco>"
    )
    with pytest.raises(ValueError, match="'shoulder' is not a hinge"):
        G1Kinematics(ball)
    with pytest.raises(KeyError, match="no body 'tail'"):
        g1_kinematics().frames(HandTracker().standing, ["tail"])


def test_the_spine_tracks_hands_without_importing_a_simulator():
    """A spine on a robot's computer (or the node graph's process) builds its tracker and
    solves without Genesis or torch."""
    code = (
        "import sys\n"
        "from reacthuman.spine.hands import HandTracker\n"
        "t = HandTracker()\n"
        "t.solve((0.35, 0.12, 0.05), (0.35, -0.12, 0.05))\n"
        "print(sorted(m for m in ('genesis', 'torch', 'quadrants') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stderr


def test_the_shipped_reach_maps_are_where_this_tracker_lands_the_hands():
    """The planners read assets/gaits.json's reach maps; they must be this tracker's
    (``calibrate-gaits`` measures them with it)."""
    from reacthuman.gait_table import load_gaits
    from reacthuman.sim.gait_calibration import measure_reach, ready_hand

    table = load_gaits()
    tracker = HandTracker()
    assert ready_hand(tracker) == table.ready
    assert measure_reach(tracker).reachable == table.reach.reachable
    assert measure_reach(tracker, knee_bend=1.0).reachable == table.reach_crouched.reachable
