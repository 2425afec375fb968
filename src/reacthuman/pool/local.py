"""``reacthuman bench --workers N``: a run's scenes in N worker processes on this machine,
each on every N-th scene and writing into the same run folder (its SQLite stores take
concurrent writers; every episode has folders and a bag of its own); through the node
graph, each worker's nodes on a DDS domain this process holds for it."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from reacthuman.pool.config import PoolError, RunConfig, Shard, WorkerJob
from reacthuman.pool.process import Worker, rows_of, rows_of_exited, start_worker
from reacthuman.scoring.results import ScoreRow

WAIT = 1.0  # s between looks at whether a worker has exited, its pipe still open


def run_local(config: RunConfig, workers: int, on_row: Callable[[ScoreRow], None]) -> int:
    """The run in ``workers`` processes, each score row to ``on_row`` here as a worker
    writes it; 0 when every worker finished, 1 otherwise. Ctrl-C reaches the workers too:
    they finish their episode (the node graph) and this returns once they have, raising
    KeyboardInterrupt."""
    envs: list[dict[str, str]] = []
    for _ in range(workers):
        env = dict(os.environ)
        if not config.direct:
            from reacthuman.ros.graph import DomainInUse, free_domain

            try:  # held by this process, lent to the worker (``graph.isolate``)
                env["ROS_DOMAIN_ID"] = str(free_domain())
            except DomainInUse as exc:
                raise PoolError(str(exc)) from None
        envs.append(env)
    with tempfile.TemporaryDirectory(prefix="reacthuman-workers-") as folder:
        started: list[Worker] = []
        try:
            for i, env in enumerate(envs):
                job = WorkerJob(config=config, shard=Shard(index=i, count=workers))
                started.append(start_worker(job, Path(folder), env))
        except BaseException:
            for worker in started:
                worker.process.kill()
                worker.process.wait()
            raise
        interrupted = serve(started, on_row)
    codes = [worker.process.returncode for worker in started]
    failed = [
        f"worker {w.label} exited ({w.process.returncode})" for w in started if w.process.returncode
    ]
    for problem in failed:
        print(f"reacthuman: error: {problem}; a rerun into the same --out resumes", file=sys.stderr)
    if interrupted or any(code == 130 for code in codes):
        raise KeyboardInterrupt
    return 1 if failed else 0


def serve(workers: list[Worker], on_row: Callable[[ScoreRow], None]) -> bool:
    """The workers' rows to ``on_row`` until every one has exited; whether Ctrl-C came (the
    workers had it too: their pipes are read on while they finish)."""
    interrupted = False
    while not all(w.ended for w in workers) or any(w.process.poll() is None for w in workers):
        try:
            for _worker, rows in rows_of(workers, WAIT) + rows_of_exited(workers):
                for row in rows:
                    on_row(row)
            if all(w.ended for w in workers):
                for worker in workers:
                    worker.process.wait()
        except KeyboardInterrupt:
            interrupted = True
    return interrupted
