"""One failure contract at every entry point that talks to a model (issue 53): whatever a
loopback endpoint answers (a 200 whose body is not JSON, is empty, holds a 5,000-digit
integer, is a list, a string or no completion; Retry-After NaN, negative, infinite, huge or a
date) ends as that entry point's recorded unusable answer, never a traceback, within the
deadline; its output files are written and a rerun on the same store asks again and works.

The CLI runs are real processes (``run_cli_quick``: the client's backoff shortened, since
five retries at the default backoff take half a minute an item)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from loopback import GOOD, Waits, run_cli_quick

from reacthuman.brain.client import Decision, MalformedResponse, ModelClient, completion_object
from reacthuman.brain.extract import ExtractionError, extract_json

KEY = "sk-test-contract-0123456789abcdef"  # not a real key
# The hostile tester's three bodies, each a 200 with Content-Type application/json.
BODIES = {
    "not JSON": ("body", "<html>upstream hiccup</html>"),
    "empty": ("body", ""),
    "5,000-digit integer": ("body", "1" * 5000),
}
SHAPES = {
    **BODIES,
    "a list": ("body", "[1, 2, 3]"),
    "a string": ("body", '"hello"'),
    "no choices": ("body", '{"id": "chatcmpl-1", "object": "chat.completion"}'),
    "an error object": ("body", '{"error": {"message": "upstream overloaded", "code": 502}}'),
    "a digit-heavy usage": (
        "body",
        '{"choices": [{"message": {"content": "hi"}}], "usage": {"prompt_tokens": %s}}'
        % ("9" * 5000),
    ),
    "gzip that is not": ("bytes", 200, {"Content-Encoding": "gzip"}, b"not gzip"),
    "invalid UTF-8": ("bytes", 200, {}, b'{"choices": "\xff\xfe"}'),
}
ENV = {**os.environ, "REACTHUMAN_API_KEY": KEY}


def ask(server, **options) -> tuple[Decision, Waits]:
    """One question to ``server``; the decision and the waits between its tries (recorded,
    not slept)."""
    waits = Waits()
    client = ModelClient(
        "fake/model",
        server.url,
        KEY,
        **{"backoff": 0.01, "max_backoff": 0.5, "timeout": 5.0, "max_retries": 2, **options},
        sleep=waits,
    )
    record = Decision(scene_id="q", brain="fake/model")
    asyncio.run(client.ask(record, [{"role": "user", "content": "hi"}], lambda _found: None))
    return record, waits


@pytest.mark.parametrize("shape", SHAPES)
def test_a_200_that_is_no_chat_completion_is_retried_then_recorded_not_raised(server, shape):
    server.default = SHAPES[shape]
    record, _waits = ask(server)
    assert record.api_failure and record.requests == 3  # retried like a 5xx: not stored
    assert record.r1_reason.startswith("no answer after 3 request(s): ")
    assert "Traceback" not in record.r1_reason and KEY not in record.r1_reason


def test_a_200_that_is_no_completion_then_a_good_one_is_a_plan(server):
    server.responses = [BODIES["not JSON"], BODIES["5,000-digit integer"]]
    server.default = ("reply", json.dumps(GOOD))
    record, _waits = ask(server, max_retries=5)
    assert record.r1_reason is None and record.requests == 3 and not record.api_failure


@pytest.mark.parametrize("lifted", [False, True], ids=["python's bounds", "bounds lifted"])
def test_a_reply_whose_json_cannot_be_read_is_an_unusable_reply(lifted):
    """Also where a library lifted Python's bounds: in the whole suite mypy (test_architecture)
    sets a recursion limit of 16,384, and a reply nested 5,000 deep then parsed."""
    before = sys.get_int_max_str_digits(), sys.getrecursionlimit()
    if lifted:
        sys.set_int_max_str_digits(0)
        sys.setrecursionlimit(20_000)
    try:
        for text in ('{"answer": ' + "7" * 5000 + "}", '{"a": ' + "[" * 5000 + "]" * 5000 + "}"):
            with pytest.raises(ExtractionError, match="too long to read|nested too deep"):
                extract_json(text)
        with pytest.raises(MalformedResponse, match="a number too long to read"):
            completion_object(b'{"choices": [], "n": ' + b"7" * 5000 + b"}")
    finally:
        sys.set_int_max_str_digits(before[0])
        sys.setrecursionlimit(before[1])


@pytest.mark.parametrize(
    "value",
    ["nan", "NaN", "-5", "-inf", "inf", "1e308", "99999999999999999999", "soon", "",
     "future-date", "Thu, 01 Jan 1970 00:00:00 GMT"],
)  # fmt: skip
def test_any_retry_after_gives_a_bounded_wait_and_the_decision_ends_well_within_its_deadline(
    server, value
):
    if value == "future-date":  # an HTTP date an hour ahead: waits the cap, not an hour
        value = format_datetime(datetime.now(UTC) + timedelta(hours=1), usegmt=True)
    busy = ("status", 429, {"Retry-After": value}, '{"error": {"message": "slow down"}}')
    server.responses = [busy, busy]
    server.default = ("reply", json.dumps(GOOD))
    record, waits = ask(server, deadline=10.0, max_backoff=0.3)
    assert record.r1_reason is None and record.requests == 3, record.r1_reason
    assert len(waits) == 2 and all(0.0 <= w <= 0.3 for w in waits), waits  # NaN would wait on


def test_retry_after_is_read_as_seconds_or_a_date_and_never_negative_or_nan():
    from types import SimpleNamespace

    from reacthuman.brain.client import _retry_after

    def after(value):
        return _retry_after(
            SimpleNamespace(response=SimpleNamespace(headers={"retry-after": value}))
        )

    assert after("2") == 2.0 and after("0") == 0.0 and after("inf") == float("inf")
    assert after("nan") is None and after("-1") is None and after("garbage") is None
    assert after("Thu, 01 Jan 1970 00:00:00 GMT") == 0.0
    ahead = format_datetime(datetime.now(UTC) + timedelta(seconds=100), usegmt=True)
    assert 90 < after(ahead) <= 100


def no_traceback(done) -> None:
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert KEY not in done.stdout + done.stderr


def key_on_disk(folder) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.is_file() and KEY.encode() in p.read_bytes()]


@pytest.mark.parametrize("body", BODIES)
def test_decide_records_each_scene_as_r1_with_the_reason_and_a_rerun_decides(
    server, observed, tmp_path, body
):
    server.default = BODIES[body]
    store, out = tmp_path / "responses.sqlite", tmp_path / "out"
    args = ["decide", str(observed), "--model", "fake/model", "--base-url", server.url]
    args += ["--store", str(store), "--out", str(out), "--quiet"]
    done = run_cli_quick(*args, env=ENV)
    no_traceback(done)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [json.loads(line) for line in (out / "decisions.jsonl").read_text().splitlines()]
    assert len(rows) == 12 and all("HTTP 200 but the body" in r["r1_reason"] for r in rows)
    assert "12 scenes could not be decided" in done.stderr
    server.default = ("reply", json.dumps(GOOD))
    again = run_cli_quick(*args, env=ENV)
    no_traceback(again)
    rows = [json.loads(line) for line in (out / "decisions.jsonl").read_text().splitlines()]
    assert again.returncode == 0 and all(r["r1_reason"] is None for r in rows)
    assert not key_on_disk(tmp_path)


def _billiard_answers(scene) -> list[tuple]:
    from reacthuman.billiards.scenes import truth

    answers = truth(scene)
    q1 = {
        "collisions": [{"id": b, "answer": "T" if b in answers.hits else "F"} for b in range(1, 7)]
    }
    q2 = {"walls": [{"wall": w, "answer": "F"} for w in ("TOP", "BOTTOM", "LEFT", "RIGHT")]}
    q3 = {"predictions": [{"id": b, "pos": None if p is None else list(p)}
                          for b, p in enumerate(answers.positions)]}  # fmt: skip
    return [("reply", json.dumps(q)) for q in (q1, q2, q3)]


@pytest.mark.parametrize("body", BODIES)
def test_billiards_bench_records_every_task_as_unusable_and_a_rerun_answers(server, tmp_path, body):
    from reacthuman.billiards.scenes import generate

    server.default = BODIES[body]
    store, run = tmp_path / "responses.sqlite", tmp_path / "run"
    args = ["billiards", "bench", "--model", "fake-vlm", "--base-url", server.url]
    args += ["--store", str(store), "--tables", "1", "--horizons", "2", "--concurrency", "1"]
    done = run_cli_quick(*args, "--out", str(run), env=ENV)
    no_traceback(done)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "1 tables x 1 answerer(s), 1 with an unusable reply" in done.stdout
    (row,) = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    assert len(row["unusable"]) == 3 and all("HTTP 200 but the body" in u for u in row["unusable"])
    server.responses = _billiard_answers(generate(0, 2))
    again = run_cli_quick(*args, "--out", str(run), env=ENV)
    no_traceback(again)
    assert again.returncode == 0 and "0 with an unusable reply" in again.stdout
    assert not key_on_disk(tmp_path)


@pytest.mark.parametrize("body", BODIES)
def test_probes_decide_writes_every_answer_as_unusable_and_a_rerun_answers(
    server, observed, tmp_path, body
):
    from helpers import run_cli

    from reacthuman.probes.labels import Form
    from reacthuman.probes.sets import read_probes

    scene = next(p for p in observed.rglob("ground_truth.json")).parent
    probes_file = tmp_path / "probes.jsonl"
    assert run_cli("probes", "generate", str(scene), "--out", str(probes_file)).returncode == 0
    probes = read_probes(probes_file)
    server.default = BODIES[body]
    store, answers = tmp_path / "responses.sqlite", tmp_path / "answers.jsonl"
    args = ["probes", "decide", str(probes_file), str(observed), "--model", "fake-vlm"]
    args += ["--base-url", server.url, "--store", str(store), "--concurrency", "1"]
    done = run_cli_quick(*args, "--out", str(answers), env=ENV)
    no_traceback(done)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"{len(probes)} probes answered by fake-vlm, {len(probes)} unusable" in done.stdout
    rows = [json.loads(line) for line in answers.read_text().splitlines()]
    assert len(rows) == len(probes)
    assert all(r["score"] == 0.0 and "HTTP 200 but the body" in r["unusable"] for r in rows)
    server.responses = [
        ("reply", '{"answer": "A"}' if p.form is Form.choice else '{"answer": 1.0}') for p in probes
    ]
    again = run_cli_quick(*args, "--out", str(answers), env=ENV)
    no_traceback(again)
    assert again.returncode == 0 and "fake-vlm, 0 unusable" in again.stdout
    assert not key_on_disk(tmp_path)


PAN = "A cast-iron pan slides off the counter while someone is cooking."


@pytest.fixture(scope="module")
def pan(tmp_path_factory):
    """The bank's index (built once for the module, read through ``--index-cache``) and the
    offline planner's selection for ``PAN``."""
    from reacthuman.authoring.offline import plan
    from reacthuman.authoring.retrieval import RiskIndex
    from reacthuman.authoring.risk_memory import default_bank

    cache = tmp_path_factory.mktemp("risk-index")
    return cache, plan(PAN, RiskIndex.build(default_bank(), cache))[0]


@pytest.mark.parametrize("body", BODIES)
def test_scenes_author_rejects_the_description_with_the_reason_and_a_rerun_authors(
    server, tmp_path, body, pan
):
    text = PAN
    cache, selection = pan
    server.default = BODIES[body]
    store = tmp_path / "responses.sqlite"
    args = ["scenes", "author", text, "--model", "scripted", "--base-url", server.url]
    args += ["--store", str(store), "--index-cache", str(cache), "--out", str(tmp_path / "set")]
    done = run_cli_quick(*args, env=ENV)
    no_traceback(done)
    assert done.returncode == 1  # documented: no scene authored, nothing written
    assert "rejected:" in done.stdout and "scripted: no answer after 6 request(s)" in done.stdout
    assert "HTTP 200 but the body" in done.stdout
    assert "no scene could be authored" in done.stderr and not (tmp_path / "set").exists()
    server.default = ("reply", selection.model_dump_json())
    again = run_cli_quick(*args, env=ENV)
    no_traceback(again)
    assert again.returncode == 0 and (tmp_path / "set" / "set.json").is_file()
    assert not key_on_disk(tmp_path)


def test_a_billiard_position_too_large_for_a_float_is_an_unusable_answer():
    from reacthuman.billiards.prompts import UnusableAnswer, read_positions

    with pytest.raises(UnusableAnswer, match="is not \\[x, y\\] in metres"):
        read_positions({"predictions": [{"id": 0, "pos": [10**400, 0.5]}]})


def test_usage_counts_no_float_can_hold_are_not_counts(server):
    from loopback import completion

    huge = 10**400  # JSON reads it; a float cannot hold it
    usage = {"prompt_tokens": huge, "completion_tokens": 7, "cost": huge}
    server.default = ("body", completion(json.dumps(GOOD), usage).decode())
    record, _waits = ask(server)
    assert record.r1_reason is None and record.requests == 1
    assert (record.usage.prompt_tokens, record.usage.completion_tokens) == (0, 7)
    assert record.usage.cost is None


@pytest.mark.genesis
@pytest.mark.slow
def test_bench_scores_each_unusable_answer_as_r1_with_the_reason_and_a_rerun_completes(
    server, tmp_path
):
    """The three bodies in turn (six requests a decision: each is served twice), on the
    direct path with the kinematic stand-in, the cheapest bench there is."""
    server.responses = list(BODIES.values()) * 2
    server.default = BODIES["empty"]
    args = ["bench", "--direct", "--limit", "1", "--resolution", "320x180", "--no-bags"]
    args += ["--controller", "kinematic-stand-in", "--model", "fake/model"]
    args += ["--base-url", server.url, "--out", str(tmp_path / "run")]
    done = run_cli_quick(*args, env=ENV)
    no_traceback(done)
    assert done.returncode == 0, done.stderr[-3000:]
    (row,) = [json.loads(line) for line in (tmp_path / "run" / "scores.jsonl").open()]
    assert row["primary_rule"] == "R1"
    assert row["r1_reason"].startswith("no answer after 6 request(s): HTTP 200 but the body")
    again = run_cli_quick(*args, env=ENV)
    no_traceback(again)
    assert again.returncode == 0, again.stderr[-3000:]
    assert not key_on_disk(tmp_path)
