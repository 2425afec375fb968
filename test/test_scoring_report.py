"""`reacthuman score` and `reacthuman report` on a small run, bad files included."""

from __future__ import annotations

import csv
import shutil

from conftest import run_cli


def decide(observed, out, brain, store):
    result = run_cli(
        "decide",
        str(observed),
        "--brain",
        brain,
        "--out",
        str(out),
        "--store",
        str(store),
        "--quiet",
    )
    assert result.returncode == 0, result.stderr


def test_score_and_report_a_run(observed, tmp_path):
    for brain in ("oracle", "always-dodge", "no-action"):
        decide(observed, tmp_path / "dec" / brain, brain, tmp_path / "s.sqlite")
    run = tmp_path / "run"
    scored = run_cli(
        "score",
        "--observations",
        str(observed),
        "--decisions",
        *(str(p) for p in sorted((tmp_path / "dec").iterdir())),
        "--out",
        str(run),
    )
    assert scored.returncode == 0, scored.stderr
    with (run / "scores.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 36
    oracle = [r for r in rows if r["brain"] == "oracle"]
    assert all(r["saa"] == "1.0" and r["safe"] == "True" for r in oracle)
    again = run_cli(
        "score",
        "--observations",
        str(observed),
        "--decisions",
        str(tmp_path / "dec" / "oracle"),
        "--out",
        str(run),
    )
    assert "the run holds 36" in again.stdout  # rescoring never duplicates
    report = run_cli("report", str(run))
    assert report.returncode == 0, report.stderr
    text = (run / "report.md").read_text()
    assert "oracle (reads ground truth) | 12 | 100.0" in text
    assert "## SAA per family" in text and "disposition" in text
    assert "## SAA per speed band" in text
    widths = {}
    for line in text.splitlines():  # every table row has as many cells as its header
        if line.startswith("|"):
            widths.setdefault(len(widths), line.count("|"))
        else:
            if widths:
                assert len(set(widths.values())) == 1, widths
            widths = {}
    for plot in (
        "disposition",
        "freeze_by_band",
        "safety_rules",
        "endpoint_distance",
        "adversarial",
    ):
        assert (run / "plots" / f"{plot}.png").stat().st_size > 1000
    page = (run / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 5 and "<table>" in page
    assert "## Paired comparisons" in text and "always-dodge - no-action" in text
    other = tmp_path / "run2"
    assert (
        run_cli(
            "score",
            "--observations",
            str(observed),
            "--decisions",
            str(tmp_path / "dec" / "oracle"),
            "--out",
            str(other),
        ).returncode
        == 0
    )
    both = run_cli("report", str(run), "--compare", str(other), "--out", str(tmp_path / "both"))
    assert both.returncode == 0, both.stderr
    board = (tmp_path / "both" / "report.md").read_text()
    assert "run:oracle" in board and "run2:oracle" in board


def test_missing_and_corrupt_files_are_named_and_the_rest_scored(observed, tmp_path):
    decide(observed, tmp_path / "dec", "always-catch", tmp_path / "s.sqlite")
    broken = tmp_path / "obs"
    shutil.copytree(observed, broken)
    truths = sorted(broken.glob("*/*/ground_truth.json"))
    truths[0].write_text("{corrupt")
    truths[1].unlink()
    plans = sorted((tmp_path / "dec").glob("*/*/plan.json"))
    plans[2].write_text("[]")
    specs = sorted(broken.glob("*/*/spec.json"))
    specs[3].write_bytes(b"\xff\xfe{" + specs[3].read_bytes()[1:])
    result = run_cli(
        "score",
        "--observations",
        str(broken),
        "--decisions",
        str(tmp_path / "dec"),
        "--out",
        str(tmp_path / "run"),
    )
    assert result.returncode == 0
    assert "scored 8 decisions (4 unreadable)" in result.stdout
    assert result.stderr.count("could not read") == 4
    assert f"{truths[0]}: unreadable (GroundTruth: document: Invalid JSON" in result.stderr
    assert f"{truths[1]}: cannot read (No such file or directory)" in result.stderr
    assert f"{plans[2]}: unreadable (Decision: document: Input should be" in result.stderr
    assert f"{specs[3]}: not UTF-8 text (byte 0)" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_empty_run_says_so(tmp_path):
    empty = tmp_path / "dec"
    empty.mkdir()
    obs = tmp_path / "obs"
    obs.mkdir()
    result = run_cli(
        "score",
        "--observations",
        str(obs),
        "--decisions",
        str(empty),
        "--out",
        str(tmp_path / "run"),
    )
    assert result.returncode == 1 and "no decisions" in result.stderr
    report = run_cli("report", str(tmp_path / "run"))
    assert report.returncode == 1 and "no decisions to score" in report.stdout
    assert "nothing to score" in (tmp_path / "run" / "report.md").read_text()
    missing = run_cli("report", str(tmp_path / "nowhere"))
    assert missing.returncode == 1 and "no results.sqlite" in missing.stderr
