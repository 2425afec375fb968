"""``reacthuman bench --ray [ADDRESS]``: a run's scenes in groups, each group a Ray task on
some node of a cluster (``ray_task``), assembled into the run folder exactly as a local run
writes it.

Each task streams its group back scene by scene as ``SceneBundle``s (episode folders, bags,
score rows, decisions, timings, the simulator's warnings). The driver writes a bundle's
files first and its score rows last: a row in ``results.sqlite`` always has its files. A
lost node loses only what its tasks had not finished; that is run again on another node
(``MAX_ATTEMPTS`` per group; at most ``DEFAULT_GROUP_SIZE`` scenes a group unless
--ray-group-size says otherwise), and a rerun into the same --out resumes as a local one does.
Ctrl-C cancels the tasks, whose workers stop as Ctrl-C stops a local one.

Every node needs the same ReactHuman (checked: version and simulator version) and, for
``--scenes``, nothing: a group's scenes travel with its task, and the run's configuration
with its file options made absolute.
"""

from __future__ import annotations

import logging
import math
import os
import sys
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from reacthuman.pool.config import PoolError, RunConfig
from reacthuman.pool.ray_task import NodeMismatch, SceneBundle, run_group, versions
from reacthuman.scoring.results import ScoreRow

MAX_ATTEMPTS = 3  # a group whose task fails (its node lost) runs again, at most this often


def groups_of(scenes: list[Any], cpus: int, size: int) -> list[list[Any]]:
    """Scenes dealt into groups, every n-th scene to a group (as --workers deals them): at
    least one group per CPU of the cluster, at most ``size`` scenes a group."""
    count = min(len(scenes), max(cpus, math.ceil(len(scenes) / size)))
    return [scenes[i::count] for i in range(count)] if count else []


def merge(run: Any, bundle: SceneBundle, results: Any, responses: Any) -> list[ScoreRow]:
    """A finished scene into the run folder: files, decisions, timings and warnings first,
    score rows last. Returns the rows."""
    from reacthuman.run_folder import LIBRARY_LOG_FILE, TIMINGS_FILE

    for name, data in bundle.files.items():
        relative = PurePosixPath(name)
        if relative.is_absolute() or ".." in relative.parts:
            raise ValueError(f"a task sent a file outside the run folder: {name!r}")
        path = run / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        partial.write_bytes(data)
        os.replace(partial, path)
    responses.put_rows(bundle.decisions)
    if bundle.timings:
        with (run / TIMINGS_FILE).open("a") as handle:
            handle.write("".join(line + "\n" for line in bundle.timings))
    if bundle.log:
        with (run / LIBRARY_LOG_FILE).open("a") as handle:
            handle.write(bundle.log)
    rows = [ScoreRow.model_validate_json(text) for text in bundle.rows]
    for row in rows:
        results.put(row)
    return rows


def connect(address: str | None) -> Any:
    """Ray, connected to the cluster at ``address`` (None: the one RAY_ADDRESS names, or a
    Ray started on this machine for the run)."""
    try:
        import ray
    except ImportError:
        raise PoolError("--ray needs Ray: pip install 'ray==2.60.0'") from None
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if address and ":" in address and "://" not in address:  # Ray waits minutes on no one
        import socket

        host, _, port = address.rpartition(":")
        try:
            socket.create_connection((host, int(port)), timeout=10).close()
        except (OSError, ValueError) as exc:
            raise PoolError(
                f"--ray {address}: cannot connect to Ray: nothing answers there ({exc}); start "
                "the cluster's head first (`ray start --head`), or drop ADDRESS for a Ray on "
                "this machine"
            ) from None
    try:
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=True)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise PoolError(f"--ray {address or ''}: cannot connect to Ray: {exc}") from None
    return ray


def run_ray(
    config: RunConfig,
    scenes: list[Any],
    address: str | None,
    group_size: int,
    on_row: Callable[[ScoreRow], None],
) -> int:
    """The run's scenes as Ray tasks (module docstring), each merged row to ``on_row``; 0
    when every scene was scored, 1 when some group failed ``MAX_ATTEMPTS`` times (a rerun
    into the same --out resumes)."""
    from reacthuman.brain.store import ResponseStore
    from reacthuman.direct import finished
    from reacthuman.scoring.results import ResultsStore

    ray = connect(address)
    run = config.out
    brains = list(config.brains)
    results = ResultsStore(run / "results.sqlite")
    responses = ResponseStore(run / "responses.sqlite")
    task = ray.remote(num_cpus=1, max_retries=0)(run_group)
    config_json = config.with_files_absolute().model_dump_json()
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if cpus < 1:
        raise PoolError(f"--ray {address or ''}: the cluster has no CPU to run tasks on")

    def left(group: list[Any]) -> list[Any]:
        done = finished(results, brains)
        return [s for s in group if any(s.spec.scene_id not in done[b] for b in brains)]

    def submit(group: list[Any], attempt: int, held: list[Any] | None = None) -> None:
        """``held``: the run folder's rows, when the caller has just read them."""
        ids = set(s.spec.scene_id for s in group)
        rows = held if held is not None else results.rows()
        seed = [r.model_dump_json() for r in rows if r.scene_id in ids]
        handle = task.remote(
            config_json,
            [s.model_dump_json() for s in group],
            seed,
            responses.rows_of(sorted(ids)),
            versions(),
        )
        inflight[handle] = (group, attempt)

    inflight: dict[Any, tuple[list[Any], int]] = {}
    todo = left(scenes)
    groups = groups_of(todo, cpus, group_size)
    print(
        f"  Ray: {len(todo)} scene(s) to run in {len(groups)} task(s) on {cpus} CPU(s)",
        file=sys.stderr,
    )
    failed: list[str] = []
    try:
        held = results.rows()  # read once for every first submission
        for group in groups:
            submit(group, 1, held)
        while inflight:
            ready, _ = ray.wait(list(inflight), num_returns=1)
            handle = ready[0]
            try:
                ref = next(handle)
            except StopIteration:
                del inflight[handle]
                continue
            try:
                bundle = ray.get(ref)
            except ray.exceptions.RayError as exc:
                group, attempt = inflight.pop(handle)
                cause = getattr(exc, "cause", None)
                if isinstance(cause, NodeMismatch):
                    raise PoolError(str(cause)) from None
                remaining = left(group)
                reason = str(cause or exc).strip()
                short = reason.splitlines()[0][:300] if reason else type(exc).__name__
                if not remaining:
                    continue
                if attempt >= MAX_ATTEMPTS:
                    failed += [s.spec.scene_id for s in remaining]
                    print(
                        f"reacthuman: error: a task failed {attempt} times ({reason[-2000:]})",
                        file=sys.stderr,
                    )
                    continue
                print(
                    f"  Ray: a task failed ({short}); its {len(remaining)} unfinished "
                    f"scene(s) run again (attempt {attempt + 1} of {MAX_ATTEMPTS})",
                    file=sys.stderr,
                )
                submit(remaining, attempt + 1)
                continue
            for row in merge(run, bundle, results, responses):
                on_row(row)
    except KeyboardInterrupt:
        for handle in inflight:
            ray.cancel(handle)
        raise
    finally:
        results.close()
        responses.close()
        ray.shutdown()
    if failed:
        print(
            f"reacthuman: error: {len(failed)} scene(s) not run ({', '.join(failed[:5])}"
            f"{', ...' if len(failed) > 5 else ''}); a rerun into the same --out resumes",
            file=sys.stderr,
        )
        return 1
    return 0
