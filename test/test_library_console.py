"""The libraries' console output goes to the run's libraries.log, tested on the real console
text of real processes: the console shows our progress, results and errors, and no line of
Genesis or Quadrants.

What they print, as the main job's console showed it before (Genesis's logger, then the
native logger of Quadrants, which writes from C++ straight to fd 2 while a kernel compiles
on a cold cache, and the ``[Quadrants]`` lines Python prints)::

    [Genesis] [02:32:31] [WARNING] Mesh is not watertight. Falling back to convex hull ...
    [W 12/07/26 02:32:35.868 3119] [frontend_ir.cpp:begin_frontend_struct_for_on_external_
    tensor@1551] qd.loop_config(serialize=True) does not have effect on the struct for. ...
    [D 12/07/26 22:25:26.124 24465] [_perf_dispatch.py:decorator@140] perf_dispatch
    'func_solve_body': registered 'func_solve_body_monolith'
    [Quadrants] version 1.3.3, llvm 22.1.0, commit 00423caa, linux, python 3.11.7

With a warm compile cache Quadrants compiles nothing and warns of nothing, so the runs here
set ``QD_LOG_LEVEL=debug``: its native logger then writes on every start, as it does on a
cold cache (the ``[D ...]`` line above).
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest
from helpers import graph_env

from reacthuman.genesis_runtime import LIBRARY_LINE, LIBRARY_LOG

# Where a line comes from Genesis or Quadrants: their own prefixes, or the native logger's
# level letter and date ("[W 12/07/26 02:32:35.868 3119] ...").
LIBRARY = re.compile(r"\[Genesis\]|\[Quadrants\]|^\[[TDIWEC] \d\d/\d\d/\d\d \d", re.MULTILINE)


def library_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if LIBRARY.search(line)]


def test_the_pattern_knows_each_librarys_line_and_not_ours():
    for line in (
        b"\x1b[38;5;226m[Genesis] [22:06:35] [WARNING] Link 'hazard' has dubious mass\x1b[0m\n",
        b"[W 12/07/26 02:32:35.868 3119] [frontend_ir.cpp:begin_frontend_struct@1551] ...\n",
        b"[Quadrants] version 1.3.3, llvm 22.1.0, commit 00423caa, linux, python 3.11.7\n",
    ):
        assert LIBRARY_LINE.match(line) and library_lines(line.decode())
    for line in (b"[3/17] oracle  object_drop-000001  EXECUTE_CATCH\n", b"  SAA 71 %\n"):
        assert not LIBRARY_LINE.match(line) and not library_lines(line.decode())


def test_library_lines_go_to_the_file_and_every_other_line_to_the_console(tmp_path):
    """A process that routes its descriptors: Quadrants's native warning (C++ writing to
    fd 2), a coloured Genesis line and a child process's library line reach the file; our
    lines on stdout and stderr, a progress bar's part line and a child's own line the console."""
    log = tmp_path / "libraries.log"
    script = textwrap.dedent(
        """
        import subprocess, sys
        from reacthuman.genesis_runtime import library_lines_to_file
        library_lines_to_file(sys.argv[1])
        print("our result line")
        print("[1/2] oracle progress", file=sys.stderr)
        from quadrants._lib import core
        core.warn("a warning from C++")
        print("\\x1b[38;5;226m[Genesis] [22:06:35] [WARNING] coloured\\x1b[0m")
        sys.stderr.write("\\rsimulating 50%")
        sys.stderr.flush()
        child = "import sys; print('child line'); print('[Quadrants] child', file=sys.stderr)"
        subprocess.run([sys.executable, "-c", child], check=True)
        print("last line")
        """
    )
    run = subprocess.run([sys.executable, "-c", script, str(log)], capture_output=True, timeout=120)
    stdout, stderr = run.stdout.decode(), run.stderr.decode()  # "\r" as written
    assert run.returncode == 0, stderr
    assert stdout.splitlines() == ["our result line", "child line", "last line"]
    assert stderr == "[1/2] oracle progress\n\rsimulating 50%"
    written = log.read_text()
    assert "] a warning from C++" in written and "[Quadrants] version" in written
    assert "[Genesis] [22:06:35] [WARNING] coloured\n" in written and "\x1b[" not in written
    assert "[Quadrants] child\n" in written and not library_lines(stdout + stderr)


@pytest.mark.slow
@pytest.mark.genesis
@pytest.mark.parametrize("path", ["graph"])
def test_a_bench_console_shows_no_line_of_genesis_or_quadrants(path, tmp_path):
    """``reacthuman bench`` on one scene through the node graph (Genesis in an episode worker
    process): its console has our lines and none of the libraries'; libraries.log has theirs.
    The direct path's console: test_graph's reference run (the same worker and redirect)."""
    out = tmp_path / "run"
    command = [sys.executable, "-m", "reacthuman", "bench", "--out", str(out), "--limit", "1"]
    command += ["--brain", "always-dodge", "--resolution", "320x180"]
    command += ["--direct"] if path == "--direct" else []
    env = {**graph_env(), "QD_LOG_LEVEL": "debug"}
    env.pop(LIBRARY_LOG, None)
    run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    console = run.stdout + run.stderr
    assert "always-dodge" in console and "SAA" in run.stdout  # progress and results
    assert not library_lines(console), library_lines(console)[:5]
    written = (out / "libraries.log").read_text()
    assert re.search(r"^\[D \d\d/\d\d/\d\d ", written, re.MULTILINE)  # Quadrants's native lines
    assert "[Genesis]" in written and "\x1b[" not in written
