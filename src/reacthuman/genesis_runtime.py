"""Genesis, started once per process: a leaf every layer that touches the simulator imports
(the scene builder, the simulated body, the bridge), so none of them has
to import another layer's module to get it."""

from __future__ import annotations

import logging
import os
import re
from typing import Any

import numpy as np

GENESIS_SEED = 0  # never vary: it is in Genesis's compile-cache key
# A file: where Genesis's warnings (and Python's) go instead of the console, which then shows
# only progress and results (``reacthuman bench`` sets it to <run>/libraries.log); errors
# still reach the console.
LIBRARY_LOG = "REACTHUMAN_LIBRARY_LOG"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")

_GS: Any = None


def genesis() -> Any:
    """Import and initialise Genesis once per process (CPU unless a GPU is asked for)."""
    global _GS
    if _GS is None:
        os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
        _known_frozen_frames()
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
