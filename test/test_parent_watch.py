"""A pool worker ends with its parent (``parent_watch``), however busy it is."""

from __future__ import annotations

import subprocess
import sys
import time

import psutil

# A parent with a spawn pool whose one worker is busy for an hour, as ``sim.observe`` starts
# them (the watch in the initializer); it prints the worker's pid, then waits to be killed.
PARENT = """
import multiprocessing, os, sys, time
from concurrent.futures import ProcessPoolExecutor
from reacthuman.parent_watch import exit_with_parent

def busy(_):
    print(os.getpid(), flush=True)
    end = time.monotonic() + 3600
    while time.monotonic() < end:
        pass

if __name__ == "__main__":
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=exit_with_parent)
    pool.submit(busy, 0)
    time.sleep(3600)
"""


def test_a_busy_pool_worker_whose_parent_is_killed_exits_on_its_own(tmp_path):
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        worker = psutil.Process(int(parent.stdout.readline()))  # busy in its task
        assert worker.ppid() == parent.pid
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 60  # a safety net: the watch looks every 0.5 s
    while worker.is_running() and worker.status() != psutil.STATUS_ZOMBIE:
        assert time.monotonic() < deadline, f"worker {worker.pid} outlived its killed parent"
        time.sleep(0.1)
