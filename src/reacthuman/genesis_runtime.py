"""Genesis, started once per process: a leaf every layer that touches the simulator imports
(the scene builder, the spine's kinematic copy of the G1, the bridge), so none of them has
to import another layer's module to get it."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

GENESIS_SEED = 0  # never vary: it is in Genesis's compile-cache key

_GS: Any = None


def genesis() -> Any:
    """Import and initialise Genesis once per process (CPU unless a GPU is asked for)."""
    global _GS
    if _GS is None:
        os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
        import genesis as gs

        backend = gs.gpu if os.environ.get("REACTHUMAN_BACKEND") == "gpu" else gs.cpu
        gs.init(backend=backend, seed=GENESIS_SEED, precision="32", logging_level="warning")
        _GS = gs
    return _GS


def as_numpy(x: Any) -> np.ndarray:
    """A Genesis tensor (or anything array-like) as a NumPy array."""
    return x.cpu().numpy() if hasattr(x, "cpu") else np.asarray(x)
