"""The pool under ``reacthuman bench --workers N`` and ``--ray``: a run's typed configuration
reaches every worker as it was built, a worker's score rows come back whole on its pipe, and
a worker that fails fails the run with its name. The runs themselves (byte-equal rows to one
process) are in test_graph.py (--workers) and test_ray.py (--ray)."""

from __future__ import annotations

import io
import os
from pathlib import Path

from helpers import C, D, row

from reacthuman.pool.config import RunConfig, Shard, WorkerJob, send_row
from reacthuman.pool.local import run_local
from reacthuman.pool.process import Worker, rows_of
from reacthuman.sim.settings import RenderSettings


def test_a_worker_job_carries_the_runs_choices_and_a_node_gets_its_files_absolute(tmp_path):
    config = RunConfig(
        out=Path("runs/x"),
        brains=("oracle", "some/model"),
        base_url="http://localhost:1/v1",
        settings=RenderSettings(width=320, height=180, frames=3),
        policy_path="motion.pt",
        params="my.yaml",
        record=False,
    )
    job = WorkerJob(config=config, shard=Shard(index=1, count=2))
    assert WorkerJob.model_validate_json(job.model_dump_json()) == job
    moved = config.with_files_absolute()
    assert moved.policy_path == str(Path("motion.pt").resolve())
    assert moved.params == str(Path("my.yaml").resolve())
    assert moved.model_copy(update={"policy_path": "motion.pt", "params": "my.yaml"}) == config
    assert RunConfig(out=Path("x"), brains=("oracle",)).with_files_absolute().params is None


def test_a_shard_outside_its_count_is_refused():
    for index, count in ((2, 2), (-1, 2), (0, 0)):
        try:
            Shard(index=index, count=count)
        except ValueError:
            continue
        raise AssertionError(f"shard {index}/{count} was taken")


def test_rows_a_worker_writes_come_back_whole_through_its_pipe():
    read, write = os.pipe()
    worker = Worker(process=None, pipe=os.fdopen(read, "rb", buffering=0), label="0/1")  # type: ignore[arg-type]
    first, second = row(1, "oracle", C, C), row(2, "oracle", D, C)
    with os.fdopen(write, "wb", buffering=0) as pipe:
        send_row(pipe, first)
        whole = b'{"row": ' + b'"x"}\n'  # noqa: F841 (the framing is one JSON line a row)
        buffer = io.BytesIO()
        send_row(buffer, second)
        line = buffer.getvalue()
        pipe.write(line[:20])  # half a line: nothing yet of the second row
        assert [rows for _w, rows in rows_of([worker], 5)] == [[first]]
        pipe.write(line[20:])
        assert [rows for _w, rows in rows_of([worker], 5)] == [[second]]
    assert [rows for _w, rows in rows_of([worker], 5)] == [[]]  # the pipe's end
    assert worker.ended and worker.rows == [first, second]
    assert rows_of([worker], 5) == []


def test_a_worker_that_fails_fails_the_run_and_names_itself(tmp_path, capfd):
    config = RunConfig(
        out=tmp_path / "run", scenes=str(tmp_path / "no-such-set"), brains=("oracle",), direct=True
    )
    (tmp_path / "run").mkdir()
    assert run_local(config, 2, lambda r: None) == 1
    err = capfd.readouterr().err
    for label in ("0/2", "1/2"):
        assert (
            f"reacthuman: error: worker {label} exited (1); a rerun into the same --out resumes"
            in err
        )
