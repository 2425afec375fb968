"""``reacthuman billiards bench``: the run folder and report a user gets, and bad input named."""

from __future__ import annotations

import json

from helpers import run_cli


def test_the_bench_writes_every_table_result_and_the_report(tmp_path):
    out = tmp_path / "run"
    done = run_cli("billiards", "bench", "--out", str(out), "--tables", "4")
    assert done.returncode == 0, done.stderr
    assert "20 tables x 3 answerer(s)" in done.stdout
    shown = list((out / "tables").glob("*.png"))
    assert len([p for p in shown if not p.name.endswith("-paths.png")]) == 20
    paths = sorted(p.name for p in shown if p.name.endswith("-paths.png"))
    assert paths == [f"billiards-{h}s-000000-paths.png" for h in range(1, 6)]
    assert len((out / "tables.jsonl").read_text().splitlines()) == 20
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(results) == 60 and {r["brain"] for r in results} == {
        "oracle",
        "no-collision",
        "straight-line",
    }
    report = (out / "report.md").read_text()
    assert f"![the exact paths](tables/{paths[0]})" in report
    assert "![accuracy by horizon](accuracy.png)" in report
    assert (out / "accuracy.png").read_bytes().startswith(b"\x89PNG")
    oracle_all = [line for line in report.splitlines() if line.startswith("| oracle | all |")]
    assert oracle_all == [
        "| oracle | all | 20 | 100.0 [100.0, 100.0] | 100.0 [100.0, 100.0] | "
        "100.0 [100.0, 100.0] | 100.0 [100.0, 100.0] | 100.0 | 0 |"
    ]
    assert "| no-collision | 100.0 % | 0.0 % |" in report  # stasis bias in its pure form
    bands = [line.split(" | ") for line in report.splitlines() if " events | " in line]
    assert {b[0] for b in bands} == {"| oracle", "| no-collision", "| straight-line"}
    assert sum(int(b[2]) for b in bands if b[0] == "| oracle") == 20  # every table in one band


def test_videos_roll_every_table_out_and_the_report_links_them(tmp_path):
    out = tmp_path / "run"
    done = run_cli(
        "billiards", "bench", "--out", str(out), "--tables", "2", "--horizons", "1",
        "--brain", "oracle", "--videos",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    videos = sorted(p.name for p in (out / "tables").glob("*.mp4"))
    assert videos == ["billiards-1s-000000.mp4", "billiards-1s-000001.mp4"]
    assert all((out / "tables" / v).stat().st_size > 1000 for v in videos)
    report = (out / "report.md").read_text()
    assert "[billiards-1s-000000 rolled out](tables/billiards-1s-000000.mp4)" in report
    done = run_cli("billiards", "bench", "--out", str(tmp_path / "plain"), "--tables", "1")
    assert done.returncode == 0 and not list((tmp_path / "plain" / "tables").glob("*.mp4"))


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


def test_a_loopback_model_answers_every_task_through_the_client_and_its_store(server, tmp_path):
    """Three calls a table with the image; a reply that stays unusable after the re-asks is
    recorded and judged wrong, the others graded; a rerun asks nothing already answered."""
    from reacthuman.billiards.scenes import generate, truth

    scene = generate(0, 2)
    answers = truth(scene)
    q1 = {
        "collisions": [{"id": b, "answer": "T" if b in answers.hits else "F"} for b in range(1, 7)]
    }
    q3 = {
        "predictions": [
            {"id": b, "pos": None if p is None else list(p)}
            for b, p in enumerate(answers.positions)
        ]
    }
    server.responses = [
        ("reply", f"```json\n{json.dumps(q1)}\n```"),
        ("reply", "The cue ball touches the TOP wall."),  # Q2, three times: never usable
        ("reply", '{"walls": [{"wall": "TOP", "answer": "maybe"}]}'),
        ("reply", "still no JSON"),
        ("reply", json.dumps(q3)),
    ]
    store = tmp_path / "responses.sqlite"
    args = ["billiards", "bench", "--model", "fake-vlm", "--base-url", server.url]
    args += ["--store", str(store), "--tables", "1", "--horizons", "2", "--concurrency", "1"]
    done = run_cli(*args, "--out", str(tmp_path / "run"))
    assert done.returncode == 0, done.stderr
    assert "1 tables x 1 answerer(s), 1 with an unusable reply" in done.stdout
    assert len(server.requests) == 5
    first = server.requests[0]["body"]["messages"][0]["content"]
    assert "Task 1" in first[0]["text"] and "mu = 0.002" in first[0]["text"]
    assert first[1]["image_url"]["url"].startswith("data:image/png;base64,")
    (row,) = [
        json.loads(line) for line in (tmp_path / "run" / "results.jsonl").read_text().splitlines()
    ]
    assert row["brain"] == "fake-vlm" and (row["q1"], row["q2"], row["q3"]) == (1.0, 0.0, 1.0)
    assert row["answer"]["walls"] is None
    assert row["unusable"] == [
        "q2: unusable reply: no JSON object in the reply (truncated or prose only)"
    ]
    again = run_cli(*args, "--out", str(tmp_path / "again"))
    assert again.returncode == 0, again.stderr
    assert len(server.requests) == 5  # every answer, the unusable one too, from the store
