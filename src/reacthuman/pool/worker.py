"""``python -m reacthuman.pool.worker JOB.json FD``: a worker of a pool, its share of a run
(``config.WorkerJob``) played in this process, every score row reported on the pipe ``FD``
as it is written. Exits 0 when every episode was scored, 1 when the run failed, 130 when
Ctrl-C stopped it (finished episodes keep their results: a rerun resumes)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from reacthuman.pool.config import WorkerJob, send_row


def main(argv: list[str] | None = None) -> int:
    from reacthuman.out_folder import OutFolderError
    from reacthuman.pool.episodes import run_episodes
    from reacthuman.runner import read_bench_set
    from reacthuman.sqlite_store import StoreError

    job_path, fd = argv if argv is not None else sys.argv[1:]
    job = WorkerJob.model_validate_json(Path(job_path).read_text())
    config, shard = job.config, job.shard
    os.set_inheritable(int(fd), False)  # the pipe ends with this process, not its children's
    with os.fdopen(int(fd), "wb", buffering=0) as pipe:
        try:
            scenes = read_bench_set(config.scenes, config.limit)[0]  # the run's, as it chose
            return run_episodes(
                config,
                scenes[shard.index :: shard.count],
                lambda row: send_row(pipe, row),
                shard,
            )
        except (StoreError, OutFolderError) as exc:
            print(f"reacthuman: error: worker {shard.label}: {exc}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            print("reacthuman: interrupted", file=sys.stderr)
            return 130


if __name__ == "__main__":
    sys.exit(main())
