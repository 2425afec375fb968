"""BilliardPhys's exact simulation against Genesis: the same tables stepped in Genesis's
rigid solver land where the event-driven simulation says, hit what it says and fall into
the pockets it says (issue 18's cross-check)."""

from __future__ import annotations

import json
import math

import pytest
from helpers import run_cli

from reacthuman.billiards.physics import HEIGHT, RADIUS, WIDTH
from reacthuman.billiards.scenes import BilliardScene


def _table(
    name: str, cue: tuple[float, float], velocity: tuple[float, float], others
) -> BilliardScene:
    """A hand-set table: the cue ball and six others (parked along the bottom cushion where
    the shot does not reach them unless ``others`` places them)."""
    spots = list(others) + [(0.3 + 0.25 * i, 0.08) for i in range(6 - len(others))]
    return BilliardScene(
        scene_id=name, seed=0, horizon=1, positions=(cue, *spots), cue_velocity=velocity
    )


TABLES = [
    # a cushion at an angle: the right cushion, then back across the table
    _table("cushion", (1.5, 0.5), (1.2, 0.9), []),
    # head on: the cue ball stops dead, ball 1 rolls on
    _table("head-on", (0.4, 0.5), (1.5, 0.0), [(0.8, 0.5)]),
    # a cut at 30 degrees: the two leave at right angles
    _table("cut", (0.4, 0.6), (1.8, 0.0), [(0.9, 0.6 - RADIUS)]),
    # straight into the top-right corner pocket
    _table("pocket", (1.6, 0.6), (1.4, 1.4), []),
]


def test_a_near_miss_is_sensitive_and_an_open_roll_is_steady():
    """A table whose exact answers change under a nudge of Genesis's size (3 mm, half a
    degree) is set apart: there a stepping simulator cannot be expected to agree."""
    from reacthuman.billiards.genesis_check import sensitive

    near_miss = _table("near", (0.4, 0.5), (1.5, 0.0), [(0.9, 0.5 + 2 * RADIUS + 1e-3)])
    assert sensitive(near_miss)  # passes 1 mm from ball 1: a nudge makes it a hit
    clear_miss = _table("clear", (0.4, 0.5), (1.5, 0.0), [(0.9, 0.5 + 2 * RADIUS + 0.02)])
    assert not sensitive(clear_miss)
    edge_of_pocket = _table("lip", (1.6, 0.6 + 0.0425), (1.4, 1.4), [])
    assert sensitive(edge_of_pocket)  # a centre 6 cm from the corner pocket's, give or take
    assert not sensitive(TABLES[0])  # two cushions, nothing near
    assert sensitive(TABLES[1])  # head on: 3 mm aside and ball 1 leaves at an angle


@pytest.fixture(scope="module")
def genesis_table():
    from reacthuman.billiards.genesis_check import GenesisTable

    return GenesisTable(envs=len(TABLES))


@pytest.fixture(scope="module")
def checked(genesis_table):
    """The hand-set tables played once, and the table-steps reported while they played."""
    from reacthuman.billiards.genesis_check import cross_check

    steps: list[int] = []
    return cross_check(TABLES, table=genesis_table, progress=steps.append), steps


@pytest.mark.slow  # Genesis: compiles its kernels, then 20,000 steps a second
def test_genesis_agrees_with_the_exact_simulation_on_each_kind_of_event(checked):
    agreements, steps = checked
    assert sum(steps) == len(TABLES) * 20_000  # every table played to its horizon
    by_name = {a.scene_id: a for a in agreements}
    # Genesis floors a contact's friction at 0.01: a cut at 30 degrees leaves up to half a
    # degree off, about 8 mm after a metre; everything else lands within 3 mm
    tolerance = {"cushion": 3e-3, "head-on": 3e-3, "cut": 1e-2, "pocket": 3e-3}
    for a in agreements:
        assert a.hits_agree and a.walls_agree and a.pocketed_agree, a
        assert a.worst_distance is not None and a.worst_distance < tolerance[a.scene_id], a
    assert by_name["cushion"].genesis.walls == ("RIGHT", "TOP")
    assert by_name["head-on"].genesis.hits == (1,)
    assert by_name["cut"].genesis.hits == (1,)
    assert by_name["pocket"].genesis.positions[0] is None  # the cue ball is gone
    assert by_name["pocket"].truth.positions[0] is None
    cue = by_name["head-on"].genesis.positions[0]
    assert cue is not None and math.dist(cue, (0.8 - 2 * RADIUS, 0.5)) < 3e-3  # stopped dead


@pytest.mark.slow
def test_a_table_played_again_in_another_batch_gives_the_same_answer(genesis_table, checked):
    """Batches do not leak into each other: pocketed balls are put back, velocities reset,
    and a table's environment does not matter."""
    agreements, _ = checked
    again = genesis_table.play(list(reversed(TABLES)))
    assert [a.genesis for a in agreements] == list(reversed(again))


@pytest.mark.slow
def test_bad_batches_are_refused(genesis_table):
    with pytest.raises(ValueError, match="5 tables for 4 environments"):
        genesis_table.play(TABLES + TABLES[:1])


@pytest.mark.slow
def test_the_cross_check_command_prints_agreement_by_horizon_and_band(tmp_path):
    out = tmp_path / "check.jsonl"
    done = run_cli(
        "billiards", "cross-check", "--tables", "2", "--horizons", "1", "--envs", "2",
        "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["scene_id"] for r in rows] == ["billiards-1s-000000", "billiards-1s-000001"]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("| tables | n | Q1 hits agree |")
    assert any(line.startswith("| 1 s | 2 |") for line in lines)
    assert any(line.startswith("| all | 2 |") for line in lines)
    for row in rows:
        for p in row["genesis"]["positions"]:
            assert p is None or (0 < p[0] < WIDTH and 0 < p[1] < HEIGHT)
    done = run_cli("billiards", "cross-check", "--horizons", "7")
    assert done.returncode == 1 and "horizon 7" in done.stderr and "Traceback" not in done.stderr
