"""Aggregates, intervals and the results store, on small hand-computed runs."""

from __future__ import annotations

import csv
import json

import pytest
from helpers import C, D, N, row

from reacthuman.scenes.spec import Family, SpeedBand
from reacthuman.scoring.aggregate import (
    band_consistency,
    breakdown,
    majority_vote,
    paired_comparison,
    stat,
    summarise_brain,
)
from reacthuman.scoring.results import ResultsStore


def test_stat_drops_missing_values_and_brackets_the_mean():
    s = stat([1.0, 0.0, None, 1.0, 1.0])
    assert s.mean == 0.75 and s.n == 4 and s.missing == 1
    assert 0.0 <= s.low <= s.mean <= s.high <= 1.0
    empty = stat([None, None])
    assert empty.mean is None and empty.n == 0 and empty.missing == 2  # no division by zero
    assert stat([0.5] * 10).low == stat([0.5] * 10).high == 0.5
    assert stat([1.0, 0.0] * 20).low == stat([1.0, 0.0] * 20).low  # seeded: reproducible


def test_brain_summary_by_hand():
    rows = [
        row(0, "m", C, C, d_end=0.2),
        row(1, "m", N, C, d_end=0.9),
        row(2, "m", C, D, rules=("R2", "R4")),
        row(3, "m", N, D, rules=("R3", "R4")),
        row(4, "m", None, D, rules=("R1",)),
        row(5, "m", D, D),
    ]
    s = summarise_brain(rows)
    assert s.saa.mean == pytest.approx(2 / 6) and s.safety.mean == pytest.approx(3 / 6)
    assert s.freeze_rate.mean == pytest.approx(2 / 6)
    assert s.saa_catch_scenes.mean == 0.5 and s.saa_dodge_scenes.mean == 0.25
    assert s.unsafe_on_dodge_scenes.mean == 0.75
    assert s.primary_rules == {"R2": 1, "R3": 1, "R1": 1} and s.r1 == 1
    assert s.d_end.mean == pytest.approx(0.55) and s.d_end.missing == 4
    assert s.d_end_correct_catch.mean == pytest.approx(0.2) and s.d_end_correct_catch.n == 1
    assert s.aia.missing == 1  # the R1 decision has no intent


def test_breakdown_groups_and_majority_vote():
    rows = [
        row(0, "a", C, C),
        row(0, "b", C, C),
        row(0, "c", C, C),  # unanimous, right
        row(1, "a", D, C),
        row(1, "b", D, C),
        row(1, "c", C, C),  # majority wrong
        row(2, "a", D, D),
        row(2, "b", N, D),
        row(2, "c", C, D),  # a tie: wrong
        row(3, "a", N, N),
        row(3, "b", N, N),
        row(3, "c", None, N),  # majority right
    ]
    vote = majority_vote(rows)
    assert vote["scenes"] == 4 and vote["majority_saa"] == 0.5
    assert vote["unanimous_rate"] == 0.25 and vote["unanimous_accuracy"] == 1.0
    per_brain = breakdown(rows, lambda r: r.brain, lambda r: r.saa)
    assert per_brain["a"].mean == 0.75 and per_brain["c"].mean == 0.5


def test_consistency_across_speed_bands():
    bands = [SpeedBand.slow, SpeedBand.normal, SpeedBand.fast, SpeedBand.very_fast]
    rows = [row(i, "m", C, C, band=b, group=0) for i, b in enumerate(bands)]  # all the same
    rows += [
        row(4 + i, "m", a, C, band=b, group=1)  # slow differs
        for i, (a, b) in enumerate(zip([N, C, C, C], bands, strict=True))
    ]
    rows += [
        row(8 + i, "m", a, C, band=b, group=2)  # ends agree, middle differs
        for i, (a, b) in enumerate(zip([C, D, C, C], bands, strict=True))
    ]
    rows += [row(12, "m", C, C, band=SpeedBand.slow, group=3)]  # incomplete: not counted
    result = band_consistency(rows)
    assert result["groups"] == 3
    assert result["all_bands_same"] == pytest.approx(1 / 3)
    assert result["slowest_fastest_agree"] == pytest.approx(2 / 3)


def test_paired_comparison_uses_shared_scenes_only():
    rows = [
        row(0, "a", C, C),
        row(0, "b", D, C),
        row(1, "a", D, D),
        row(1, "b", D, D),
        row(2, "a", N, D),
        row(2, "b", D, D),
        row(3, "a", C, C),
    ]  # scene 3: only a
    result = paired_comparison(rows, "a", "b")
    assert result["scenes"] == 3 and result["a_only_right"] == 1 and result["b_only_right"] == 1
    assert result["saa_difference"].mean == 0.0


def test_results_store_never_duplicates_and_exports_csv_and_jsonl(tmp_path):
    store = ResultsStore(tmp_path / "results.sqlite")
    first = row(0, "m", C, D, rules=("R2", "R4"))
    store.put(first)
    store.put(first)  # a rerun
    store.put(row(1, "m", D, D))
    store.put(row(0, "m", D, D))  # a resumed run that decided scene 0 again: replaced
    rows = store.rows()
    assert len(rows) == 2 and rows[0].action is D
    csv_path, jsonl_path = store.export(tmp_path)
    with csv_path.open() as handle:
        table = list(csv.DictReader(handle))
    assert len(table) == 2 and table[0]["brain"] == "m" and table[0]["d_end"] == ""
    lines = [json.loads(line) for line in jsonl_path.read_text().splitlines()]
    assert [line["scene_id"] for line in lines] == [r.scene_id for r in rows]
    store.close()


def test_a_results_file_that_is_not_sqlite_is_named_with_what_to_do(tmp_path):
    from reacthuman.sqlite_store import StoreError

    bad = tmp_path / "results.sqlite"
    bad.write_bytes(b"these are my notes, not a database\n" * 100)
    with pytest.raises(StoreError, match="results.sqlite: cannot be opened .*move it aside"):
        ResultsStore(bad)
    assert bad.read_bytes().startswith(b"these are my notes")  # left as it was


def test_a_results_file_that_cannot_be_written_is_found_before_any_work(tmp_path):
    import sqlite3

    from reacthuman import sqlite_store
    from reacthuman.sqlite_store import StoreError

    ResultsStore(tmp_path / "results.sqlite").close()
    # Opened read-only, as on a read-only mount (file modes do not stop root).
    db = sqlite3.connect(f"file:{tmp_path / 'results.sqlite'}?mode=ro", uri=True)
    with pytest.raises(StoreError, match="cannot be written .*readonly.*make the file"):
        sqlite_store.check_writable(db, tmp_path / "results.sqlite", "scores")


def test_a_store_opened_while_another_process_writes_waits_instead_of_failing(tmp_path):
    """SQLite answers 'database is locked' at once, without its busy wait, to a connection that
    turns a file to WAL while another holds a write lock (a bench's worker graphs open the run's
    stores together); the store waits for the lock instead."""
    import sqlite3
    import threading
    import time

    from reacthuman.brain.store import ResponseStore

    path = tmp_path / "responses.sqlite"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("CREATE TABLE other (x)")
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO other VALUES (1)")
    with pytest.raises(sqlite3.OperationalError, match="locked"):  # what SQLite alone does
        sqlite3.connect(path, timeout=30, isolation_level=None).execute("PRAGMA journal_mode=WAL")
    release = threading.Timer(0.3, other.execute, args=("COMMIT",))
    release.start()
    began = time.monotonic()
    store = ResponseStore(path)
    assert time.monotonic() - began >= 0.25
    store.check_writable()
    store.close()
    release.join()
    other.close()


def test_a_stored_row_that_no_longer_reads_as_a_score_counts_as_not_scored(tmp_path):
    store = ResultsStore(tmp_path / "results.sqlite")
    store.put(row(0, "m", C, D))
    store.put(row(1, "m", D, D))
    store._db.execute(
        "UPDATE scores SET row = ? WHERE scene_id = ?",
        ('{"saa": "NaN?"}', row(1, "m", D, D).scene_id),
    )
    rows = store.rows()
    assert [r.scene_id for r in rows] == [row(0, "m", C, D).scene_id]
    assert store.unreadable == 1
    store.put(row(1, "m", D, D))  # the resumed run scores it again and replaces the row
    assert len(store.rows()) == 2 and store.unreadable == 0


def test_execution_outcomes_count_against_the_decisions_own_action(tmp_path):
    from reacthuman.scoring.aggregate import execution_summary
    from reacthuman.scoring.report import write_report
    from reacthuman.spine.outcome import Result

    def executed(scene, action, outcome, family=Family.rolling_ball):
        r = row(scene, "oracle", action, action, family=family)
        return r.model_copy(update={"outcome": outcome, "controller": "g1-holosoma-fastsac"})

    rows = [
        executed(0, C, Result.caught),
        executed(1, C, Result.clear),  # a catch that missed
        executed(2, D, Result.clear, Family.door_swing),
        executed(3, D, Result.struck, Family.door_swing),
        executed(4, N, Result.clear, Family.door_swing),
        executed(5, D, Result.fell, Family.door_swing),
        row(6, "oracle", None, D),  # R1: no plan was executed
    ]
    summary = execution_summary(rows)
    assert summary.executed == 6 and summary.intended == 3 and summary.falls == 1
    assert summary.outcomes == {"caught": 1, "clear": 3, "struck": 1, "fell": 1}
    md, _page = write_report(rows, tmp_path, "t")
    text = md.read_text()
    assert "## Execution outcomes" in text and "g1-holosoma-fastsac" in text
    # Families by brain; each cell: share as intended, of how many, caught/struck/clear/fell.
    assert "| family | oracle (reads ground truth) |" in text
    assert "| door_swing | 50 % of 4 · 0/1/2/1 |" in text
    assert "| all families | 50 % of 6 · 1/1/3/1 |" in text
    # The benchmark's own check comes first, before the main results.
    assert text.index("## Execution validity") < text.index("## Main results")
    assert "ended as intended in 50.0 % (3/6)" in text
    assert "catches caught 1/2, dodges clear 1/3, no action clear 1/1, falls 1" in text
    assert "this run misses them" in text


def test_execution_validity_is_the_oracles_share_against_its_targets():
    from reacthuman.scoring.aggregate import execution_validity, execution_validity_text
    from reacthuman.spine.outcome import Result

    def executed(scene, brain, action, outcome):
        r = row(scene, brain, action, action)
        return r.model_copy(update={"outcome": outcome, "controller": "g1"})

    good = [executed(i, "oracle", C, Result.caught) for i in range(9)]
    good += [executed(9 + i, "oracle", D, Result.clear) for i in range(20)]
    good += [executed(40, "m", C, Result.clear)]  # another brain's miss does not count
    validity = execution_validity(good)
    assert validity is not None and validity.meets_targets()
    assert validity.shares()["intended"] == 1.0 and validity.catches == 9
    missed = [
        *good,
        executed(50, "oracle", C, Result.clear),
        executed(51, "oracle", C, Result.clear),
        executed(52, "oracle", C, Result.clear),
    ]
    assert not execution_validity(missed).meets_targets()  # 9 of 12 catches caught: under 80 %
    assert execution_validity([executed(1, "m", C, Result.caught)]) is None
    assert "add `--brain oracle`" in execution_validity_text(None)


def test_a_bench_runs_report_shows_each_episodes_strip_and_links_its_video(tmp_path):
    from PIL import Image

    from reacthuman.observation import Frame, Observation, RobotPose, frame_name
    from reacthuman.scenes.spec import CameraName
    from reacthuman.scoring.report import write_report
    from reacthuman.spine.outcome import Result

    run = tmp_path / "run"
    r = row(3, "oracle", C, C).model_copy(update={"outcome": Result.caught, "controller": "g1"})
    episode = run / "episodes" / "oracle" / r.scene_id
    frames = []
    for t in (0.0, 0.3, 0.6):
        for view in (CameraName.egocentric, CameraName.overhead):
            name = frame_name(view, t)
            (episode / "observation" / "frames").mkdir(parents=True, exist_ok=True)
            Image.new("RGB", (64, 36), (40, 90, 200)).save(episode / "observation/frames" / name)
            frames.append(Frame(view=view, t=t, file=f"frames/{name}"))
    observation = Observation(
        scene_id=r.scene_id,
        window=0.6,
        frame_times=[0.0, 0.3, 0.6],
        frames=frames,
        cameras=[],
        robot=RobotPose(pos=(0.0, 0.0, 0.0), yaw=0.0),
    )
    (episode / "observation" / "observation.json").write_text(observation.to_json())
    (episode / "execution.mp4").write_bytes(b"\x00")
    md, page = write_report([r], run / "report", "t")
    strip = run / "report" / "strips" / "oracle" / f"{r.scene_id}.png"
    # Three egocentric frames and the overhead one at the freeze, side by side.
    assert Image.open(strip).size == (4 * 192 + 3 * 4, 108)
    text = md.read_text()
    assert f"### oracle · {r.scene_id} · EXECUTE_CATCH (truth EXECUTE_CATCH) · caught" in text
    html = page.read_text()
    assert f'src="strips/oracle/{r.scene_id}.png"' in html
    assert f'href="../episodes/oracle/{r.scene_id}/execution.mp4"' in html
