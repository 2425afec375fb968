"""Where the package's data files live, for editable, pip and colcon installs alike."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ASSETS_ENV = "REACTHUMAN_ASSETS"


def assets_dir() -> Path:
    """The ``assets/`` folder: $REACTHUMAN_ASSETS, the source tree, or share/reacthuman/assets."""
    candidates: list[Path] = []
    if os.environ.get(ASSETS_ENV):
        candidates.append(Path(os.environ[ASSETS_ENV]))
    candidates.append(Path(__file__).resolve().parents[2] / "assets")  # src layout checkout
    candidates.append(Path(sys.prefix) / "share" / "reacthuman" / "assets")
    for prefix in os.environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep):
        if prefix:
            candidates.append(Path(prefix) / "share" / "reacthuman" / "assets")
    for path in candidates:
        if (path / "catalogue.json").is_file():
            return path
    searched = ", ".join(str(p) for p in candidates)
    raise FileNotFoundError(
        f"ReactHuman assets not found (looked in: {searched}); set {ASSETS_ENV}"
    )


def config_file(name: str) -> Path:
    """A file of the package's ``config/`` folder (source tree, or share/reacthuman/config)."""
    candidates = [Path(__file__).resolve().parents[2] / "config" / name]
    candidates.append(Path(sys.prefix) / "share" / "reacthuman" / "config" / name)
    for prefix in os.environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep):
        if prefix:
            candidates.append(Path(prefix) / "share" / "reacthuman" / "config" / name)
    for path in candidates:
        if path.is_file():
            return path
    searched = ", ".join(str(p) for p in candidates)
    raise FileNotFoundError(f"config file {name!r} not found (looked in: {searched})")
