"""Genesis, started once per process: a leaf every layer that touches the simulator imports
(the scene builder, the spine's kinematic copy of the G1, the bridge), so none of them has
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
        import genesis as gs

        backend = gs.gpu if os.environ.get("REACTHUMAN_BACKEND") == "gpu" else gs.cpu
        gs.init(backend=backend, seed=GENESIS_SEED, precision="32", logging_level="warning")
        if os.environ.get(LIBRARY_LOG):
            _messages_to_file(os.environ[LIBRARY_LOG])
        _GS = gs
    return _GS


def as_numpy(x: Any) -> np.ndarray:
    """A Genesis tensor (or anything array-like) as a NumPy array."""
    return x.cpu().numpy() if hasattr(x, "cpu") else np.asarray(x)


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
