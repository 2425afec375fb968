"""``reacthuman bench --ray [ADDRESS]``: a run's scenes in groups, each group a Ray task on
some node of a cluster, assembled into the run folder exactly as a local run writes it.

A task writes its group as a scene set into a scratch folder on its node and runs it there as
a worker of a local run does (``reacthuman bench --shard 0/1`` in a process of its own: the
direct loop or the node graph, with its recycled Genesis worker), its scratch results seeded
with what the run folder already holds for the group, so finished episodes are skipped and a
model is never asked again. As each scene finishes, the task streams it back as a
``SceneBundle`` (episode folders, bags, score rows, decisions, timings, the simulator's
warnings). The driver writes a bundle's files first and its score rows last: a row in
``results.sqlite`` always has its files. A lost node loses only what its tasks had not
finished; that is run again on another node (``MAX_ATTEMPTS`` per group), and a rerun into
the same --out resumes as a local one does.

Every node needs the same ReactHuman (checked: version and simulator version) and, for
``--scenes``, nothing: a group's scenes travel with its task.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from reacthuman.cli.common import CliError

MAX_ATTEMPTS = 3  # a group whose task fails (its node lost) runs again, at most this often
DEFAULT_GROUP_SIZE = 16  # scenes a task plays (each task starts a worker process: ~10 s)
POLL = 1.0  # s between a task's looks at its scratch run
STRIPPED = {  # options of the driver's command line a task replaces: value taken or not
    "--ray": "optional",
    "--ray-group-size": "value",
    "--workers": "value",
    "--out": "value",
    "--scenes": "value",
    "--limit": "value",
    "--shard": "value",
}


class NodeMismatch(RuntimeError):
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


def without_options(argv: list[str], options: dict[str, str]) -> list[str]:
    """The command line without these options and their values (``options``: flag ->
    "value" when it takes one, "optional" when it may)."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        flag = arg.split("=", 1)[0]
        if flag in options and arg.startswith("--"):
            takes = options[flag]
            has_next = i + 1 < len(argv) and not argv[i + 1].startswith("-")
            if "=" not in arg and (takes == "value" or (takes == "optional" and has_next)):
                i += 1
        else:
            out.append(arg)
        i += 1
    return out


def absolute_paths(argv: list[str]) -> list[str]:
    """File options made absolute: a task's process runs in Ray's working folder."""
    out = list(argv)
    for i, arg in enumerate(out[:-1]):
        if arg in ("--params", "--policy-path"):
            out[i + 1] = str(Path(out[i + 1]).resolve())
    for i, arg in enumerate(out):
        for flag in ("--params=", "--policy-path="):
            if arg.startswith(flag):
                out[i] = flag + str(Path(arg[len(flag) :]).resolve())
    return out


def groups_of(scenes: list[Any], cpus: int, size: int) -> list[list[Any]]:
    """Scenes dealt into groups, every n-th scene to a group (as --workers deals them): at
    least one group per CPU of the cluster, at most ``size`` scenes a group."""
    count = min(len(scenes), max(cpus, math.ceil(len(scenes) / size)))
    return [scenes[i::count] for i in range(count)] if count else []


# ----- the task, on a node -----


class GroupWatcher:
    """Which of a group's scenes a task's scratch run has finished, as bundles. A scene is
    finished when every brain has its score row, its bags are closed (graph path) and the
    worker has moved past it (a later scene begun) or exited: one worker plays its scenes
    one after another, so nothing of the scene is still being written."""

    def __init__(self, run: Path, specs: list[Any], brains: list[str], bags: bool) -> None:
        self.run, self.specs, self.brains, self.bags = run, specs, brains, bags
        self.seeded = self._scored()
        self.sent = {s.scene_id for s in specs if all(s.scene_id in self.seeded[b] for b in brains)}
        self.log_offset = 0

    def _scored(self) -> dict[str, set[str]]:
        """The scenes each brain has a row for (the worker's own rows: read, not validated)."""
        import sqlite3

        scored: dict[str, set[str]] = {brain: set() for brain in self.brains}
        path = self.run / "results.sqlite"
        if path.exists():
            with contextlib.closing(sqlite3.connect(path, timeout=30)) as db:
                for scene_id, brain in db.execute("SELECT scene_id, brain FROM scores"):
                    if brain in scored:
                        scored[brain].add(scene_id)
        return scored

    def _begun(self, scene_id: str) -> bool:
        from reacthuman.run_folder import episode_folder

        return any(episode_folder(self.run, b, scene_id).exists() for b in self.brains)

    def ready(self, exited: bool) -> Iterator[SceneBundle]:
        from reacthuman.run_folder import bagged, safe_name

        scored = self._scored()
        closed = bagged(self.run) if self.bags else {}
        for i, spec in enumerate(self.specs):
            sid = spec.scene_id
            if sid in self.sent or not all(sid in scored[b] for b in self.brains):
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
        from reacthuman.brain.store import ResponseStore
        from reacthuman.run_folder import LIBRARY_LOG_FILE, TIMINGS_FILE, bag_folder
        from reacthuman.run_folder import episode_folder as folder_of
        from reacthuman.scoring.results import ResultsStore

        out = SceneBundle(scene_id=spec.scene_id)
        for brain in brains:
            tops = (folder_of(self.run, brain, spec.scene_id), bag_folder(self.run, brain, spec))
            for top in tops:
                for path in sorted(top.rglob("*")) if top.is_dir() else []:
                    if path.is_file():
                        out.files[path.relative_to(self.run).as_posix()] = path.read_bytes()
        results = ResultsStore(self.run / "results.sqlite")
        try:
            out.rows = [
                r.model_dump_json()
                for r in results.rows()
                if r.scene_id == spec.scene_id and r.brain in brains
            ]
        finally:
            results.close()
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
    argv: list[str],
    scenes_json: list[str],
    seed_rows: list[str],
    seed_decisions: list[tuple[Any, ...]],
    brains: list[str],
    graph: bool,
    bags: bool,
    driver: tuple[str, str],
) -> Iterator[SceneBundle]:
    """A Ray task: the group's scenes run by a worker process on this node, each scene
    yielded as it finishes (module docstring)."""
    import socket

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
        results = ResultsStore(run / "results.sqlite")
        for text in seed_rows:
            results.put(ScoreRow.model_validate_json(text))
        results.close()
        responses = ResponseStore(run / "responses.sqlite")
        responses.put_rows(seed_decisions)
        responses.close()
        env = dict(os.environ)
        env[LIBRARY_LOG] = str(run / LIBRARY_LOG_FILE)
        if graph:
            from reacthuman.ros.graph import free_domain

            domain = free_domain()  # held by this task, lent to its worker
            env["ROS_DOMAIN_ID"] = str(domain)
        command = [sys.executable, "-m", "reacthuman", *argv]
        command += ["--scenes", str(scratch / "set"), "--out", str(run), "--shard", "0/1"]
        watcher = GroupWatcher(run, [s.spec for s in scenes], brains, bags)
        log = (scratch / "worker.log").open("wb")  # the driver prints each merged row
        worker = subprocess.Popen(
            command, env=env, stdout=log, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent
        )
        try:
            while True:
                exited = worker.poll() is not None
                yield from watcher.ready(exited)
                if exited:
                    break
                time.sleep(POLL)
        finally:
            if worker.poll() is None:  # the driver gave up on this task: stop its worker
                worker.send_signal(signal.SIGINT)
                try:
                    worker.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    worker.kill()
            log.close()
        if worker.returncode:
            tail = (scratch / "worker.log").read_text(errors="replace").splitlines()[-15:]
            raise RuntimeError(
                f"the group's worker exited ({worker.returncode}) on {socket.gethostname()}:\n"
                + "\n".join(tail)
            )
    finally:
        if domain is not None:
            from reacthuman.ros.graph import release_domain

            release_domain(domain)
        shutil.rmtree(scratch, ignore_errors=True)


# ----- the driver -----


def merge(run: Path, bundle: SceneBundle, results: Any, responses: Any) -> list[Any]:
    """A finished scene into the run folder: files, decisions, timings and warnings first,
    score rows last. Returns the rows."""
    from reacthuman.run_folder import LIBRARY_LOG_FILE, TIMINGS_FILE
    from reacthuman.scoring.results import ScoreRow

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
        raise CliError("--ray needs Ray: pip install 'ray==2.60.0'") from None
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if address and ":" in address and "://" not in address:  # Ray waits minutes on no one
        import socket

        host, _, port = address.rpartition(":")
        try:
            socket.create_connection((host, int(port)), timeout=10).close()
        except (OSError, ValueError) as exc:
            raise CliError(
                f"--ray {address}: cannot connect to Ray: nothing answers there ({exc}); start "
                "the cluster's head first (`ray start --head`), or drop ADDRESS for a Ray on "
                "this machine"
            ) from None
    try:
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=True)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise CliError(f"--ray {address or ''}: cannot connect to Ray: {exc}") from None
    return ray


def run_ray(
    args: argparse.Namespace,
    scenes: list[Any],
    brains: list[str],
    on_row: Callable[[Any], None],
) -> int:
    """The run's scenes as Ray tasks (module docstring); 0 when every scene was scored, 1
    when some group failed ``MAX_ATTEMPTS`` times (a rerun into the same --out resumes)."""
    from reacthuman.brain.store import ResponseStore
    from reacthuman.direct import finished
    from reacthuman.scoring.results import ResultsStore

    ray = connect(args.ray or None)
    run = Path(args.out)
    results = ResultsStore(run / "results.sqlite")
    responses = ResponseStore(run / "responses.sqlite")
    task = ray.remote(num_cpus=1, max_retries=0)(run_group)
    argv = absolute_paths(without_options(args.argv, STRIPPED))
    graph, bags = not args.direct, not args.direct and not args.no_bags
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if cpus < 1:
        raise CliError(f"--ray {args.ray or ''}: the cluster has no CPU to run tasks on")

    def left(group: list[Any]) -> list[Any]:
        done = finished(results, brains)
        return [s for s in group if any(s.spec.scene_id not in done[b] for b in brains)]

    def submit(group: list[Any], attempt: int, held: list[Any] | None = None) -> None:
        """``held``: the run folder's rows, when the caller has just read them."""
        ids = set(s.spec.scene_id for s in group)
        rows = held if held is not None else results.rows()
        seed = [r.model_dump_json() for r in rows if r.scene_id in ids]
        handle = task.remote(
            argv,
            [s.model_dump_json() for s in group],
            seed,
            responses.rows_of(sorted(ids)),
            brains,
            graph,
            bags,
            versions(),
        )
        inflight[handle] = (group, attempt)

    inflight: dict[Any, tuple[list[Any], int]] = {}
    todo = left(scenes)
    groups = groups_of(todo, cpus, args.ray_group_size)
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
                    raise CliError(str(cause)) from None
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
