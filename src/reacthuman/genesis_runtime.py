"""Genesis, started once per process: a leaf every layer that touches the simulator imports
(the scene builder, the simulated body, the bridge), so none of them has
to import another layer's module to get it. Where a run keeps a library log, what Genesis and
Quadrants print (Python's loggers and Quadrants's C++ one alike) goes there, not the console."""

from __future__ import annotations

import atexit
import contextlib
import faulthandler
import logging
import os
import re
import sys
import threading
from typing import Any, BinaryIO

import numpy as np

GENESIS_SEED = 0  # never vary: it is in Genesis's compile-cache key
# A file: where Genesis's and Quadrants's lines (and Python's warnings) go instead of the
# console, which then shows only progress and results (``reacthuman bench`` sets it to
# <run>/libraries.log); errors still reach the console.
LIBRARY_LOG = "REACTHUMAN_LIBRARY_LOG"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# A line one of the libraries wrote to a descriptor itself: Genesis's and Quadrants's own
# ("[Genesis] [22:06:35] [WARNING] ...", "[Quadrants] version 1.3.3, ...") and the native
# logger of Quadrants, which writes from C++ straight to fd 2, a level letter and a date first
# ("[W 12/07/26 02:32:35.868 3119] [frontend_ir.cpp:begin_frontend_struct_for_on_external_
# tensor@1551] qd.loop_config(serialize=True) does not have effect on the struct for. ...").
LIBRARY_LINE = re.compile(
    rb"^(?:\x1b\[[0-9;]*m)*(?:\[(?:Genesis|Quadrants)\]|\[[TDIWEC] \d\d/\d\d/\d\d \d)"
)

_GS: Any = None


def genesis() -> Any:
    """Import and initialise Genesis once per process (CPU unless a GPU is asked for)."""
    global _GS
    if _GS is None:
        os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
        _known_frozen_frames()
        if os.environ.get(LIBRARY_LOG):
            library_lines_to_file(os.environ[LIBRARY_LOG])
        import genesis as gs

        backend = gs.gpu if os.environ.get("REACTHUMAN_BACKEND") == "gpu" else gs.cpu
        gs.init(backend=backend, seed=GENESIS_SEED, precision="32", logging_level="warning")
        if os.environ.get(LIBRARY_LOG):
            _messages_to_file(os.environ[LIBRARY_LOG])
        _GS = gs
    return _GS


def _known_frozen_frames() -> None:
    """Tell ``inspect`` which module the import machinery's frozen frames belong to.

    Quadrants asks ``inspect.getframeinfo`` about the frame a few levels above every kernel
    and function it decorates; at module level that frame is the import machinery's, whose
    file (``<frozen importlib._bootstrap>``) exists nowhere, so ``inspect.getmodule`` scans
    every loaded module again each time (2,619 scans of ~2,000-3,500 modules while Genesis
    imports). Named in inspect's cache, the answer is the same (no source: not inside a
    class) and importing and initialising Genesis takes 6.5 s instead of 9.2
    (``benchmarks/bench_startup.py``)."""
    import importlib._bootstrap
    import importlib._bootstrap_external
    import inspect

    for module in (importlib._bootstrap, importlib._bootstrap_external):
        inspect.modulesbyfile.setdefault(f"<frozen {module.__name__}>", module.__name__)


def as_numpy(x: Any) -> np.ndarray:
    """A Genesis tensor (or anything array-like) as a NumPy array."""
    return x.cpu().numpy() if hasattr(x, "cpu") else np.asarray(x)


class LinkPoses:
    """World positions and orientations of chosen links in every environment, read after
    every physics step.

    The solver's getters (``get_links_pos`` / ``get_links_quat``) launch no kernel on the CPU
    backend but wrap each read in index checks, masks and tensor copies: an execution's
    judge, reading every physics step, spent a tenth of the step's own time there. Where the
    getters would return the solver's memory as it is (zero-copy tensors, no link whose pose
    is offset from its origin), this reads that memory directly: the same values, bit for bit
    (``test/test_g1.py``); elsewhere it calls them."""

    def __init__(self, solver: Any, links: list[int]) -> None:
        self.solver = solver
        self.links = list(links)
        self._index = np.asarray(self.links, dtype=np.int64)
        self._memory: tuple[np.ndarray, np.ndarray] | None = None
        gs = genesis()
        if (
            gs.use_zerocopy
            and bool(np.all(solver._links_offset_pos_is_identity))
            and bool(np.all(solver._links_offset_quat_is_identity))
        ):
            from genesis.utils.misc import qd_to_torch

            pos = qd_to_torch(solver.dyn_state.links.pos, transpose=True, copy=False)
            quat = qd_to_torch(solver.dyn_state.links.quat, transpose=True, copy=False)
            self._memory = (pos.numpy(), quat.numpy())

    def read(self) -> tuple[np.ndarray, np.ndarray]:
        """Positions (envs, n, 3) and quaternions (envs, n, 4, w first), links in the order
        of ``links``; a scene of no environments reads as one."""
        if self._memory is None:
            pos = as_numpy(self.solver.get_links_pos(self.links, relative=True))
            quat = as_numpy(self.solver.get_links_quat(self.links, relative=True))
            if pos.ndim == 2:
                return pos[None], quat[None]
            return pos, quat
        pos, quat = self._memory
        return pos[:, self._index], quat[:, self._index]


def env_count(solver: Any) -> int:
    """How many environments a scene's solver steps (an unbatched scene is one)."""
    return max(1, int(solver.n_envs))


class _Plain(logging.Formatter):
    """Genesis's own format without its terminal colours, for a file."""

    def __init__(self, inner: logging.Formatter | None) -> None:
        super().__init__()
        self.inner = inner or logging.Formatter()

    def format(self, record: logging.LogRecord) -> str:
        return _ANSI.sub("", self.inner.format(record))


def _messages_to_file(path: str) -> None:
    """Genesis's messages (and Python warnings) appended to ``path``; errors also on stderr."""
    logger = logging.getLogger("genesis")
    console = logger.handlers[0].formatter if logger.handlers else None
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
    to_file = logging.FileHandler(path, encoding="utf-8")
    to_file.setFormatter(_Plain(console))
    logger.addHandler(to_file)
    errors = logging.StreamHandler()
    errors.setLevel(logging.ERROR)
    errors.setFormatter(console or logging.Formatter())
    logger.addHandler(errors)
    logging.captureWarnings(True)
    logging.getLogger("py.warnings").addHandler(to_file)
    logging.getLogger("py.warnings").propagate = False


class _LineRouter:
    """What is written to descriptor ``fd`` (by Python, C++ or a child process), line by
    line: a library's line to the log file, any other on to where the descriptor led."""

    def __init__(self, fd: int, log: BinaryIO, lock: threading.Lock) -> None:
        self.fd, self.log, self.lock = fd, log, lock
        self.onward = os.dup(fd)
        read, write = os.pipe()
        os.dup2(write, fd)
        os.close(write)
        self.read = read
        self.thread = threading.Thread(target=self._pump, name=f"library-lines-{fd}", daemon=True)
        self.thread.start()

    def _pump(self) -> None:
        pending = b""
        while chunk := os.read(self.read, 1 << 16):
            *lines, pending = (pending + chunk).split(b"\n")
            for line in lines:
                self._route(line + b"\n")
            # A part line that cannot start a library's (a progress bar's "\r...") goes on now.
            if pending and not pending.startswith((b"[", b"\x1b")):
                self._route(pending)
                pending = b""
        if pending:
            self._route(pending)
        os.close(self.read)

    def _route(self, line: bytes) -> None:
        # A console or file gone (closed, full) loses the line, never the pump: a pump that
        # stopped would leave the pipe to fill and every writer to block.
        with contextlib.suppress(OSError):
            if LIBRARY_LINE.match(line):
                with self.lock:
                    self.log.write(_ANSI.sub("", line.decode(errors="replace")).encode())
                    self.log.flush()
                return
            view = memoryview(line)
            while view:
                view = view[os.write(self.onward, view) :]

    def close(self) -> None:
        """The descriptor back as it was, once what was written to it has been routed."""
        os.dup2(self.onward, self.fd)  # this process's last write end of the pipe closes
        self.thread.join(timeout=2.0)


_ROUTERS: list[_LineRouter] = []


def library_lines_to_file(path: str) -> None:
    """Lines the libraries write to this process's stdout and stderr (fds 1 and 2) go to
    ``path`` from now on; every other line still reaches the console.

    Genesis's Python logger is moved to the file by ``_messages_to_file``, but Quadrants's
    native logger writes its warnings (while a kernel compiles) from C++ straight to fd 2,
    past every Python stream, and ``[Quadrants]`` lines are printed: so each descriptor is
    routed by line through a pipe. Our own progress, results and errors, a ROS node's log and
    a child process's output pass through unchanged. Not where Python's streams are not the
    process's descriptors (a test's captured output): there is nothing to route then."""
    if _ROUTERS:
        return
    try:
        if sys.stdout.fileno() != 1 or sys.stderr.fileno() != 2:
            return
    except (AttributeError, ValueError, OSError):  # io.UnsupportedOperation is an OSError
        return
    sys.stdout.flush()
    sys.stderr.flush()
    log = open(path, "ab")  # noqa: SIM115 - open until the process exits
    lock = threading.Lock()
    _ROUTERS.extend(_LineRouter(fd, log, lock) for fd in (1, 2))
    if faulthandler.is_enabled():  # a dying process's tracebacks: no pump left to route them
        faulthandler.enable(_ROUTERS[1].onward, all_threads=True)
    atexit.register(_stop_routing)


def _stop_routing() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.flush()
    while _ROUTERS:
        _ROUTERS.pop().close()
