"""On-disk observation cache: each scene is simulated once per spec and render settings.

An entry is a folder holding the frames, ``observation.json`` and ``ground_truth.json``,
keyed by a hash of the spec's canonical JSON, the render settings, the simulator version and
the installed versions of this package, Genesis and Quadrants (its compiler): an upgrade of
any of them may change what a spec simulates to, so it never reuses an older entry.
Its observation.json is the frames-only one: what is shown beside the frames (the legend
ablation) is applied when a scene is exported (``sim.observe.export``), not cached.
Entries are built in a temporary sibling folder and renamed into place, so an interrupted
write never leaves a half entry that a later run would trust.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from reacthuman.scenes.spec import SceneSpec
from reacthuman.sim.settings import RenderSettings

SIM_VERSION = "13"  # bump whenever the simulator's output for the same inputs changes
STACK = ("reacthuman", "genesis-world", "quadrants")  # distributions whose versions key entries
CACHE_ENV = "REACTHUMAN_CACHE"
COMPLETE = "ground_truth.json"  # written last inside the staging folder


def default_cache_dir() -> Path:
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "reacthuman" / "observations"


@functools.cache
def stack_versions() -> str:
    """``name==version`` of each of STACK as installed (``name==none`` where it is not), read
    once per process."""

    def installed(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "none"

    return " ".join(f"{name}=={installed(name)}" for name in STACK)


def cache_key(spec: SceneSpec, settings: RenderSettings, robot: str = "") -> str:
    """``robot``: the controller standing in the frames (its policy moves the G1 a little)."""
    digest = hashlib.sha256()
    parts = (SIM_VERSION, stack_versions(), spec.to_json(), settings.model_dump_json(), robot)
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\x00")
    return digest.hexdigest()[:32]


class ObservationCache:
    def __init__(self, root: str | Path | None = None) -> None:
        self.root = Path(root) if root is not None else default_cache_dir()

    def path(self, spec: SceneSpec, settings: RenderSettings, robot: str = "") -> Path:
        key = cache_key(spec, settings, robot)
        return self.root / spec.family.value / f"{spec.scene_id}-{key}"

    def get(self, spec: SceneSpec, settings: RenderSettings, robot: str = "") -> Path | None:
        entry = self.path(spec, settings, robot)
        return entry if (entry / COMPLETE).is_file() else None

    def put(
        self,
        spec: SceneSpec,
        settings: RenderSettings,
        build: Callable[[Path], None],
        robot: str = "",
    ) -> Path:
        """Run ``build(staging_folder)`` and publish the folder as the entry, atomically."""
        entry = self.path(spec, settings, robot)
        entry.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{entry.name}.", dir=entry.parent))
        try:
            build(staging)
            if not (staging / COMPLETE).is_file():
                raise RuntimeError(f"observation build for {spec.scene_id} wrote no {COMPLETE}")
            os.chmod(staging, 0o755)
            try:
                os.replace(staging, entry)
            except OSError:
                if (entry / COMPLETE).is_file():  # another process published it first
                    shutil.rmtree(staging, ignore_errors=True)
                else:
                    raise
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        return entry
