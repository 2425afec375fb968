"""The direct path (``direct.run_direct``) with the real simulator: what each brain is shown.

Genesis on the CPU with the kinematic stand-in at 320x180, three scenes: a few minutes.
"""

from __future__ import annotations

import math

import pytest
from spies import Spy, SpyOracle

from reacthuman.direct import run_direct
from reacthuman.runner import EXECUTION_LOOK, bench_scenes, execution_camera
from reacthuman.scenes.sets import default_scenes
from reacthuman.sim.settings import RenderSettings

pytestmark = [pytest.mark.genesis, pytest.mark.slow]

SCENES = 3


def test_a_brain_sees_its_folder_only_and_the_oracle_handed_truth_is_always_right(tmp_path):
    specs = bench_scenes(limit=SCENES)
    settings = RenderSettings(width=320, height=180)
    spy, oracle = Spy(), SpyOracle()
    played = run_direct(specs, [spy, oracle], tmp_path, settings, "kinematic-stand-in")
    rows = {brain.name: [r for r in played if r.brain == brain.name] for brain in (spy, oracle)}
    assert [r.brain for r in played] == [spy.name, oracle.name] * SCENES  # scene by scene
    expected = {spec.scene_id: {"observation.json", "frames"} for spec in specs}
    assert spy.seen == expected and oracle.seen == expected
    assert [oracle.handed[spec.scene_id].scene_id for spec in specs] == list(expected)
    assert len(rows[oracle.name]) == SCENES
    assert all(row.saa == 1.0 and row.safe for row in rows[oracle.name]), rows[oracle.name]
    for spec in specs:
        episode = tmp_path / "episodes" / "spy" / spec.scene_id
        assert {p.name for p in episode.iterdir()} == {
            "observation",
            "plan.json",
            "reply.txt",
            "outcome.json",
        }
        assert {p.name for p in (episode / "observation").iterdir()} == expected[spec.scene_id]


def test_execution_videos_look_at_the_robot_from_inside_the_room():
    for scene in default_scenes():
        spec = scene.spec
        pos, look = execution_camera(spec)
        (px, py, _), yaw = spec.observer.pos, spec.observer.yaw
        ahead = math.cos(yaw) * (look[0] - px) + math.sin(yaw) * (look[1] - py)
        assert ahead == pytest.approx(EXECUTION_LOOK[0]), spec.scene_id
        half_x, half_y = spec.room.size[0] / 2, spec.room.size[1] / 2
        assert abs(pos[0]) < half_x and abs(pos[1]) < half_y, spec.scene_id
        # Far enough that the robot and the metre in front of it are in view.
        assert math.dist(pos[:2], look[:2]) >= 0.8, spec.scene_id
