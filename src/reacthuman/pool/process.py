"""A worker process and the pipe it reports on: ``python -m reacthuman.pool.worker JOB.json
FD`` started with its job written beside it, and each score row it writes sent back as one
line of JSON on the pipe ``FD`` the moment it is in the worker's run folder."""

from __future__ import annotations

import os
import selectors
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from reacthuman.pool.config import WorkerJob, row_of
from reacthuman.scoring.results import ScoreRow


@dataclass
class Worker:
    """A started worker: its process and the read end of its pipe (closed at its end)."""

    process: subprocess.Popen[bytes]
    pipe: IO[bytes]
    label: str
    buffer: bytes = b""
    ended: bool = False  # the pipe is at its end: the worker exited, or is about to
    rows: list[ScoreRow] = field(default_factory=list)  # every row it sent

    def take(self, data: bytes) -> list[ScoreRow]:
        """The rows complete in what the pipe gave (``b""``: its end)."""
        if not data:
            self.ended = True
            self.pipe.close()
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\n")
        new = [row_of(line) for line in lines if line]
        self.rows += new
        return new


def start_worker(
    job: WorkerJob,
    folder: Path,
    env: dict[str, str],
    stdout: IO[bytes] | int | None = None,
    preexec_fn: Callable[[], Any] | None = None,
) -> Worker:
    """``job`` in a worker process of its own (its JSON in ``folder``); ``stdout`` (and its
    stderr) where its console goes: None, this process's."""
    path = folder / f"job-{job.shard.index}-of-{job.shard.count}.json"
    path.write_text(job.model_dump_json(indent=2) + "\n")
    read, write = os.pipe()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "reacthuman.pool.worker", str(path), str(write)],
            env=env,
            stdout=stdout,
            stderr=subprocess.STDOUT if stdout is not None else None,
            pass_fds=(write,),
            preexec_fn=preexec_fn,
        )
    except BaseException:
        os.close(read)
        raise
    finally:
        os.close(write)  # the worker's end: the pipe ends when the worker does
    return Worker(process, os.fdopen(read, "rb", buffering=0), job.shard.label)


def rows_of(
    workers: list[Worker], timeout: float | None = None
) -> list[tuple[Worker, list[ScoreRow]]]:
    """What the workers' pipes gave within ``timeout`` s (None: until one gives something),
    worker by worker; nothing once every pipe has ended."""
    open_ = [w for w in workers if not w.ended]
    if not open_:
        return []
    with selectors.DefaultSelector() as selector:
        for worker in open_:
            selector.register(worker.pipe, selectors.EVENT_READ, worker)
        ready = [key.data for key, _events in selector.select(timeout)]
    return [(w, w.take(os.read(w.pipe.fileno(), 65536))) for w in ready]


def rows_of_exited(workers: list[Worker]) -> list[tuple[Worker, list[ScoreRow]]]:
    """The rows still in the pipes of workers that have exited, their pipes then ended: a
    process the worker started and that kept the pipe open cannot hold up its starter."""
    got: list[tuple[Worker, list[ScoreRow]]] = []
    for worker in workers:
        if worker.ended or worker.process.poll() is None:
            continue
        while not worker.ended and (ready := rows_of([worker], 0)):
            got += ready
        if not worker.ended:
            worker.take(b"")
    return got
