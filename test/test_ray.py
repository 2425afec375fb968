"""``reacthuman bench --ray``: a real Ray cluster on loopback (a head and worker nodes, each
its own raylet, as `ray start` makes them on machines), the run's scene groups as its tasks.
What a user relies on: the run folder is the one a local run writes (score rows, episode
files, decisions), and a node lost mid-run loses no finished episode."""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import REFERENCE_BRAINS, REFERENCE_OPTIONS, REFERENCE_SCENES, run_cli, score_rows

from reacthuman.pool.ray_driver import groups_of

BRAINS = ("oracle", "no-action")
SCENES = REFERENCE_SCENES
COMMON = [*(arg for brain in BRAINS for arg in ("--brain", brain)), *REFERENCE_OPTIONS]
RAY = str(Path(sys.executable).with_name("ray"))
# A cluster of its own: no usage report, no token (loopback only), a small object store.
RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}
NODE = ["--node-ip-address=127.0.0.1", "--object-store-memory=200000000"]


def test_scenes_are_dealt_into_at_least_a_group_per_cpu_and_at_most_size_a_group():
    scenes = list(range(10))
    assert groups_of(scenes, 2, 16) == [[0, 2, 4, 6, 8], [1, 3, 5, 7, 9]]
    assert [len(g) for g in groups_of(scenes, 1, 3)] == [3, 3, 2, 2]
    assert groups_of(scenes[:2], 8, 16) == [[0], [1]]
    assert groups_of([], 2, 16) == []


def test_ray_that_is_not_there_is_a_clear_error(tmp_path):
    port = _free_port()
    result = run_cli(
        "bench", "--direct", *COMMON, "--ray", f"127.0.0.1:{port}", "--out", str(tmp_path)
    )
    assert result.returncode != 0
    assert f"--ray 127.0.0.1:{port}: cannot connect to Ray" in result.stderr
    assert "Traceback" not in result.stderr


def test_ray_and_workers_together_are_refused(tmp_path):
    result = run_cli("bench", "--ray", "--workers", "2", "--out", str(tmp_path))
    assert result.returncode == 2 or result.returncode == 1
    assert "--ray and --workers: choose one" in result.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env() -> dict[str, str]:
    return {**os.environ, **RAY_ENV}


def _worker_node(address: str, cpus: int) -> subprocess.Popen:
    """A worker node that lives as long as this process: killing its group is losing it."""
    return subprocess.Popen(
        [RAY, "start", f"--address={address}", *NODE, f"--num-cpus={cpus}", "--block"],
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _cpus(address: str) -> int:
    probe = (
        f"import ray; ray.init(address={address!r}, logging_level='ERROR'); "
        "print(int(ray.cluster_resources().get('CPU', 0)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], env=_env(), capture_output=True, text=True, timeout=120
    )
    return int(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 else -1


class Cluster:
    """A head without CPUs and worker nodes on loopback (what `ray start` makes on machines):
    every task runs on a worker node, and a test may lose them and add others."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.workers: list[subprocess.Popen] = []
        self.cpus = 0  # of the live worker nodes

    def start(self, worker_cpus: list[int]) -> None:
        subprocess.run(
            [RAY, "start", "--head", f"--port={self.port}", *NODE, "--num-cpus=0"]
            + ["--include-dashboard=false", "--disable-usage-stats"],
            env=_env(),
            check=True,
            capture_output=True,
            timeout=120,
        )
        for cpus in worker_cpus:
            self.add(cpus)

    def add(self, cpus: int) -> None:
        """A worker node, once it has joined (nodes started at once on one machine can time
        out registering with each other)."""
        self.workers.append(_worker_node(self.address, cpus))
        self.cpus += cpus
        self.wait_for_cpus(self.cpus)

    def lose_every_worker(self) -> None:
        """Every worker node killed, its raylet and its tasks with it."""
        for worker in self.workers:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
        self.workers, self.cpus = [], 0

    def wait_for_cpus(self, count: int) -> None:
        """Until the live nodes have ``count`` CPUs (joined, or the lost ones gone)."""
        deadline = time.monotonic() + 120
        while _cpus(self.address) != count:
            assert time.monotonic() < deadline, f"the cluster did not reach {count} CPU(s)"
            time.sleep(1)

    def stop(self) -> None:
        self.lose_every_worker()
        subprocess.run([RAY, "stop", "--force"], env=_env(), capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Cluster]:
    """One cluster for the module (each start is tens of seconds): two worker nodes of one
    CPU each; a test that loses them leaves two others."""
    cluster = Cluster()
    try:
        cluster.start([1, 1])
        yield cluster
    finally:
        cluster.stop()


def rows(run: Path) -> dict[tuple[str, str], str]:
    """``(brain, scene_id) -> row`` of this module's brains (the reference holds one more)."""
    return score_rows(run / "results.sqlite", BRAINS)


def decisions(run: Path) -> list[tuple]:
    with sqlite3.connect(run / "responses.sqlite") as db:
        marks = ", ".join("?" * len(BRAINS))
        query = f"SELECT * FROM decisions WHERE brain IN ({marks}) ORDER BY key"
        return db.execute(query, BRAINS).fetchall()


def episode_files(run: Path) -> dict[str, str]:
    return {
        path.relative_to(run).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for brain in BRAINS
        for path in sorted((run / "episodes" / brain).rglob("*"))
        if path.is_file()
    }


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reacthuman", "bench", *args],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.fixture(scope="module")
def local(reference) -> Path:
    """The same scenes in one local worker (the session's reference run, which has this
    module's brains and one more): what a Ray run must write."""
    assert set(BRAINS) <= set(REFERENCE_BRAINS)
    return reference.out


@pytest.mark.slow
@pytest.mark.genesis
def test_a_two_node_cluster_writes_what_a_local_run_writes(local, ray_cluster, tmp_path):
    """Direct and through the node graph (bags recorded), one scene a task so that both
    nodes work: score rows, episode files and decisions are the local run's, byte for byte."""
    ray_cluster.wait_for_cpus(2)
    address = ray_cluster.address
    direct = bench("--direct", *COMMON, "--ray", address, "--ray-group-size", "1",
                   "--out", str(tmp_path / "direct"))  # fmt: skip
    graph = bench(*COMMON, "--ray", address, "--ray-group-size", "1",
                  "--out", str(tmp_path / "graph"))  # fmt: skip
    assert direct.returncode == 0, direct.stderr[-3000:]
    assert f"Ray: {SCENES} scene(s) to run in {SCENES} task(s) on 2 CPU(s)" in direct.stderr
    assert rows(tmp_path / "direct") == rows(local)
    assert episode_files(tmp_path / "direct") == episode_files(local)
    assert decisions(tmp_path / "direct") == decisions(local)
    timings = (tmp_path / "direct" / "timings.jsonl").read_text().splitlines()
    assert len(timings) == SCENES * len(BRAINS)
    assert (tmp_path / "direct" / "report" / "report.md").exists()
    assert "[Genesis]" in (tmp_path / "direct" / "libraries.log").read_text()

    assert graph.returncode == 0, graph.stderr[-3000:]
    assert rows(tmp_path / "graph") == rows(local)  # the graph scores as the direct path
    for brain, scene in rows(local):
        outcome = local / "episodes" / brain / scene / "outcome.json"
        mine = tmp_path / "graph" / outcome.relative_to(local)
        assert mine.read_text() == outcome.read_text(), outcome.parent.name
    bags = list((tmp_path / "graph" / "bags").glob("*/*/*/metadata.yaml"))
    assert len(bags) == SCENES * len(BRAINS)
    assert not list((tmp_path / "graph" / "bags").glob("**/*.partial"))


@pytest.mark.slow
@pytest.mark.genesis
def test_a_node_lost_mid_run_loses_no_finished_episode_and_the_run_completes(
    local, ray_cluster, tmp_path
):
    """Every task on the worker nodes (the head has no CPU); once the first scene is in the
    run folder they are killed with their tasks mid-scene, and two other nodes join: the lost
    scenes run there, what was finished stays as it was, and a rerun has nothing left."""
    out = tmp_path / "run"
    command = ["--direct", *COMMON, "--ray-group-size", "1", "--out", str(out)]
    ray_cluster.wait_for_cpus(2)
    address = ray_cluster.address
    log = (tmp_path / "driver.log").open("w")  # a pipe left unread could block it
    driver = subprocess.Popen(
        [sys.executable, "-m", "reacthuman", "bench", *command, "--ray", address],
        env=_env(),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 600
        before: dict = {}
        while len(before) < len(BRAINS):
            assert driver.poll() is None, (tmp_path / "driver.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "no scene finished"
            time.sleep(0.5)
            with contextlib.suppress(sqlite3.Error):
                before = rows(out) if (out / "results.sqlite").exists() else {}
        files_before = episode_files(out)
        ray_cluster.lose_every_worker()  # the nodes, their raylets and their tasks
        ray_cluster.add(1)
        ray_cluster.add(1)
        driver.wait(timeout=900)
    finally:
        if driver.poll() is None:
            driver.kill()
        log.close()
    rerun = bench(*command, "--ray", address)
    stderr = (tmp_path / "driver.log").read_text()
    assert driver.returncode == 0, stderr[-3000:]
    assert "Ray: a task failed" in stderr and "run again (attempt 2 of 3)" in stderr
    after = rows(out)
    assert after == rows(local)
    assert all(after[key] == row for key, row in before.items())
    assert all(episode_files(out)[name] == digest for name, digest in files_before.items())
    assert episode_files(out) == episode_files(local)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    assert "Ray: 0 scene(s) to run in 0 task(s)" in rerun.stderr
    assert rows(out) == after
