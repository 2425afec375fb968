"""``reacthuman billiards bench``: the run folder and report a user gets, and bad input named."""

from __future__ import annotations

import json

from helpers import run_cli


def test_the_bench_writes_every_table_result_and_the_report(tmp_path):
    out = tmp_path / "run"
    done = run_cli("billiards", "bench", "--out", str(out), "--tables", "4")
    assert done.returncode == 0, done.stderr
    assert "20 tables x 3 answerer(s)" in done.stdout
    assert len(list((out / "tables").glob("*.png"))) == 20
    assert len((out / "tables.jsonl").read_text().splitlines()) == 20
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(results) == 60 and {r["brain"] for r in results} == {
        "oracle",
        "no-collision",
        "straight-line",
    }
    report = (out / "report.md").read_text()
    oracle_all = [line for line in report.splitlines() if line.startswith("| oracle | all |")]
    assert oracle_all == [
        "| oracle | all | 20 | 100.0 [100.0, 100.0] | 100.0 [100.0, 100.0] | "
        "100.0 [100.0, 100.0] | 100.0 | 0 |"
    ]
    assert "| no-collision | 100.0 % | 0.0 % |" in report  # stasis bias in its pure form


def test_bad_input_is_named_before_any_work(tmp_path):
    out = tmp_path / "run"
    done = run_cli("billiards", "bench", "--out", str(out), "--brain", "psychic")
    assert done.returncode == 1
    assert "unknown BilliardPhys baseline(s) psychic" in done.stderr
    assert "Traceback" not in done.stderr and not out.exists()
    done = run_cli("billiards", "bench", "--out", str(out), "--tables", "0")
    assert done.returncode == 2 and "must be >= 1" in done.stderr
    (tmp_path / "file").write_text("x")
    done = run_cli("billiards", "bench", "--out", str(tmp_path / "file"))
    assert done.returncode == 1 and "exists and is not a folder" in done.stderr
