"""A Ray task of ``reacthuman bench --ray``, on whatever node Ray gives it: a group of the
run's scenes played by a worker process there, each finished scene streamed back to the
driver as a ``SceneBundle`` (``ray_driver`` has the whole story).

The group is written as a scene set into a scratch folder on the node and run there by a
worker (``pool.worker``: the direct loop or the node graph, with its recycled Genesis
worker), its scratch results seeded with what the run folder already holds for the group, so
finished episodes are skipped and a model is never asked again. The worker reports each
score row on its pipe as it writes it; a scene is finished when every brain has its row, its
bags are closed (the graph) and the worker has moved past it (a later scene begun) or
exited: one worker plays its scenes one after another, so nothing of it is still written.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reacthuman.pool.config import PoolError, RunConfig, Shard, WorkerJob
from reacthuman.pool.process import Worker, rows_of, rows_of_exited, start_worker

WAIT = 1.0  # s a task waits on its worker's pipe before it looks at the bags again


class NodeMismatch(PoolError):
    """A node runs another ReactHuman than the driver: its results would not be comparable."""


@dataclass
class SceneBundle:
    """One finished scene of a task's group, as the run folder takes it."""

    scene_id: str
    files: dict[str, bytes] = field(default_factory=dict)  # run-relative POSIX path -> bytes
    rows: list[str] = field(default_factory=list)  # ScoreRow JSON
    decisions: list[tuple[Any, ...]] = field(default_factory=list)  # ResponseStore rows
    timings: list[str] = field(default_factory=list)  # timings.jsonl lines
    log: str = ""  # the simulator's warnings since the previous bundle


def versions() -> tuple[str, str]:
    """What a node must share with the driver: the package and the simulator's version."""
    from reacthuman import __version__
    from reacthuman.sim.cache import SIM_VERSION

    return __version__, SIM_VERSION


class GroupWatcher:
    """Which of a group's scenes the task's worker has finished, as bundles (module
    docstring): its rows come from the worker's pipe (``seen``), its files from its run."""

    def __init__(
        self, run: Path, specs: list[Any], brains: tuple[str, ...], bags: bool, seeded: list[Any]
    ) -> None:
        self.run, self.specs, self.brains, self.bags = run, specs, brains, bags
        self.seeded: dict[str, set[str]] = {brain: set() for brain in brains}
        for row in seeded:
            if row.brain in self.seeded:
                self.seeded[row.brain].add(row.scene_id)
        self.scored = {brain: set(ids) for brain, ids in self.seeded.items()}
        self.rows: list[Any] = []  # the rows the worker sent
        self.sent = {s.scene_id for s in specs if all(s.scene_id in self.seeded[b] for b in brains)}
        self.log_offset = 0

    def seen(self, rows: list[Any]) -> None:
        """Rows the worker has written."""
        for row in rows:
            if row.brain in self.scored:
                self.scored[row.brain].add(row.scene_id)
                self.rows.append(row)

    def _begun(self, scene_id: str) -> bool:
        from reacthuman.run_folder import episode_folder

        return any(episode_folder(self.run, b, scene_id).exists() for b in self.brains)

    def ready(self, exited: bool) -> Iterator[SceneBundle]:
        from reacthuman.run_folder import bagged, safe_name

        closed = bagged(self.run) if self.bags else {}
        for i, spec in enumerate(self.specs):
            sid = spec.scene_id
            if sid in self.sent or not all(sid in self.scored[b] for b in self.brains):
                continue
            new = [b for b in self.brains if sid not in self.seeded[b]]
            if self.bags and not all(sid in closed.get(safe_name(b), set()) for b in new):
                continue
            later = [s.scene_id for s in self.specs[i + 1 :] if s.scene_id not in self.sent]
            if not exited and not any(self._begun(s) for s in later):
                continue
            self.sent.add(sid)
            yield self.bundle(spec, new)

    def bundle(self, spec: Any, brains: list[str]) -> SceneBundle:
        """A finished scene's files, rows, decisions, timings and the warnings since the
        previous bundle."""
        from reacthuman.brain.store import ResponseStore
        from reacthuman.run_folder import LIBRARY_LOG_FILE, TIMINGS_FILE, bag_folder
        from reacthuman.run_folder import episode_folder as folder_of

        out = SceneBundle(scene_id=spec.scene_id)
        for brain in brains:
            tops = (folder_of(self.run, brain, spec.scene_id), bag_folder(self.run, brain, spec))
            for top in tops:
                for path in sorted(top.rglob("*")) if top.is_dir() else []:
                    if path.is_file():
                        out.files[path.relative_to(self.run).as_posix()] = path.read_bytes()
        out.rows = [
            r.model_dump_json()
            for r in self.rows
            if r.scene_id == spec.scene_id and r.brain in brains
        ]
        responses = ResponseStore(self.run / "responses.sqlite")
        try:
            out.decisions = responses.rows_of([spec.scene_id])
        finally:
            responses.close()
        timings = self.run / TIMINGS_FILE
        if timings.exists():
            for line in timings.read_text().splitlines():
                if line.strip() and json.loads(line).get("scene_id") == spec.scene_id:
                    out.timings.append(line)
        log = self.run / LIBRARY_LOG_FILE
        if log.exists():
            with log.open("rb") as handle:
                handle.seek(self.log_offset)
                data = handle.read()
            self.log_offset += len(data)
            out.log = data.decode(errors="replace")
        return out


def _die_with_parent() -> None:
    """In the task's worker process, before it runs: killed when the task's process dies (a
    lost node's raylet takes its Ray workers along, not their children)."""
    if sys.platform.startswith("linux"):
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def run_group(
    config_json: str,
    scenes_json: list[str],
    seed_rows: list[str],
    seed_decisions: list[tuple[Any, ...]],
    driver: tuple[str, str],
) -> Iterator[SceneBundle]:
    """A Ray task: the group's scenes run by a worker process on this node, each scene
    yielded as it finishes (module docstring). ``config_json``: the run's ``RunConfig``."""
    from reacthuman.brain.store import ResponseStore
    from reacthuman.genesis_runtime import LIBRARY_LOG
    from reacthuman.run_folder import LIBRARY_LOG_FILE
    from reacthuman.scenes.set_files import write_set
    from reacthuman.scenes.set_models import Scene
    from reacthuman.scenes.sets import group_manifest
    from reacthuman.scoring.results import ResultsStore, ScoreRow

    if versions() != driver:
        raise NodeMismatch(
            f"node {socket.gethostname()} runs reacthuman {versions()[0]} (simulator "
            f"{versions()[1]}), the driver {driver[0]} (simulator {driver[1]}): install the "
            "same version on every node of the cluster"
        )
    scratch = Path(tempfile.mkdtemp(prefix="reacthuman-ray-"))
    domain: int | None = None
    try:
        scenes = [Scene.model_validate_json(text) for text in scenes_json]
        write_set(scratch / "set", group_manifest(scenes), scenes)
        run = scratch / "run"
        run.mkdir()
        seeded = [ScoreRow.model_validate_json(text) for text in seed_rows]
        results = ResultsStore(run / "results.sqlite")
        for row in seeded:
            results.put(row)
        results.close()
        responses = ResponseStore(run / "responses.sqlite")
        responses.put_rows(seed_decisions)
        responses.close()
        config = RunConfig.model_validate_json(config_json).model_copy(
            update={"out": run, "scenes": str(scratch / "set"), "limit": None}
        )
        env = dict(os.environ)
        env[LIBRARY_LOG] = str(run / LIBRARY_LOG_FILE)
        if not config.direct:
            from reacthuman.ros.graph import free_domain

            domain = free_domain()  # held by this task, lent to its worker
            env["ROS_DOMAIN_ID"] = str(domain)
        bags = not config.direct and config.record
        watcher = GroupWatcher(run, [s.spec for s in scenes], config.brains, bags, seeded)
        job = WorkerJob(config=config, shard=Shard(index=0, count=1))
        log = (scratch / "worker.log").open("wb")  # the driver prints each merged row
        try:
            worker = start_worker(job, scratch, env, log, _die_with_parent)
            yield from watch(worker, watcher)
        finally:
            log.close()
        if worker.process.returncode:
            tail = (scratch / "worker.log").read_text(errors="replace").splitlines()[-15:]
            raise RuntimeError(
                f"the group's worker exited ({worker.process.returncode}) on "
                f"{socket.gethostname()}:\n" + "\n".join(tail)
            )
    finally:
        if domain is not None:
            from reacthuman.ros.graph import release_domain

            release_domain(domain)
        shutil.rmtree(scratch, ignore_errors=True)


def watch(worker: Worker, watcher: GroupWatcher) -> Iterator[SceneBundle]:
    """The worker's finished scenes as it finishes them; once the driver gives up on the
    task (the generator closed), its worker is stopped as Ctrl-C stops one."""
    try:
        while True:
            for _worker, rows in rows_of([worker], WAIT) + rows_of_exited([worker]):
                watcher.seen(rows)
            if worker.ended:  # the pipe closed: the worker has exited, or is on its way out
                worker.process.wait()
            yield from watcher.ready(worker.ended)
            if worker.ended:
                break
    finally:
        if worker.process.poll() is None:
            worker.process.send_signal(signal.SIGINT)
            try:
                worker.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.process.kill()
                worker.process.wait()
