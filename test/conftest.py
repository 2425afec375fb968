"""Shared fixtures: one generated default set per test session (it takes about 2 s), the direct
path's reference run (Genesis, once a session), a scripted loopback model endpoint, twelve
observed scenes. Helpers tests import are in helpers.py."""

from __future__ import annotations

import os

import numpy as np
import pytest
from helpers import ReferenceRun, reference_run
from loopback import Script, serve

from reacthuman.layout import brain_folder
from reacthuman.observation import CameraInfo, Frame, Observation, RobotPose
from reacthuman.scenes.set_models import Scene, SetManifest
from reacthuman.scenes.sets import generate_set
from reacthuman.scenes.truth import ground_truth

# The suite runs in two processes (scripts/run-tests.sh: pytest-xdist, ``-n 2 --dist
# loadfile``). Each module stays in one process, so its module-scoped fixtures (a simulator,
# a node graph, a Ray cluster) are built once; the reference run is made once for both (a
# file lock; ``helpers.reference_run``); and the costliest modules start first, so that
# neither process is left with a long one at the end. Costs: BENCHMARKS.md, "Test suite".
COSTLIEST_FIRST = (  # seconds of each module in a run of the whole suite, 2026-12-07
    "test_graph",  # 708 (with the reference run: it asks first)
    "test_episode_host",  # 482
    "test_g1_bridge",  # 469
    "test_ray",  # 611, mostly its Ray cluster's start and tasks
    "test_sim",  # 417
    "test_authoring",  # 234
    "test_families",  # 237
    "test_model_contract",  # 190
    "test_architecture",  # 115
    "test_billiards_genesis",  # 113
    "test_library_console",
    "test_safe_files",
    "test_runner",
    "test_g1",
    "test_out_folder",
    "test_sets",
)


def pytest_addoption(parser):
    parser.addoption(
        "--sweeps",
        action="store_true",
        help="also run the sweeps (tests marked sweep: thousands of seeds or replies, each "
        "beside a small always-on version); scripts/run-sweeps.sh runs them alone",
    )


def pytest_collection_modifyitems(config, items):
    """Skip the sweeps unless ``--sweeps``; order the modules by cost (see above)."""
    if not config.getoption("--sweeps"):
        skip = pytest.mark.skip(reason="a sweep: scripts/run-sweeps.sh (or pytest --sweeps)")
        for item in items:
            if "sweep" in item.keywords:
                item.add_marker(skip)

    def module(item) -> str:
        return item.nodeid.split("::")[0].rsplit("/", 1)[-1].removesuffix(".py")

    def rank(item) -> int:
        name = module(item)
        return COSTLIEST_FIRST.index(name) if name in COSTLIEST_FIRST else len(COSTLIEST_FIRST)

    items.sort(key=rank)  # stable: a module's own order is kept


@pytest.fixture(scope="session")
def default_set() -> tuple[SetManifest, list[Scene]]:
    return generate_set()


@pytest.fixture(scope="session")
def reference(tmp_path_factory) -> ReferenceRun:
    """The direct path's run of the first three scenes with three brains (helpers.ReferenceRun),
    shared by the modules that compare another path against it (graph, Ray, Unitree)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # .../popen-gwN: its parent is the processes'
        root = root.parent
    return reference_run(root)


@pytest.fixture()
def server():
    """A scripted OpenAI-compatible endpoint on 127.0.0.1 (see loopback.py)."""
    script = Script()
    httpd = serve(script)
    yield script
    httpd.shutdown()


@pytest.fixture(scope="session")
def observed(tmp_path_factory):
    """Twelve scenes laid out like `reacthuman observe` output (``reacthuman.layout``), with
    unique tiny frames and ground truth from each scene's intended motion (no simulator)."""
    import cv2

    root = tmp_path_factory.mktemp("observed")
    # As `reacthuman observe` writes it: the brain's folder, truth and spec beside it.
    _manifest, scenes = generate_set(per_family=1)
    for n, scene in enumerate(scenes[:12]):
        spec = scene.spec
        scene_folder = root / spec.family.value / spec.scene_id
        folder = brain_folder(scene_folder)
        (folder / "frames").mkdir(parents=True)
        frames = []
        for t in (0.0, 0.6):
            for cam in spec.cameras:
                name = f"frames/{cam.name.value}_{int(t * 1000):04d}ms.png"
                image = np.full((36, 64, 3), 10 * n, np.uint8)
                image[5:15, 5 + int(40 * t) : 15 + int(40 * t)] = 255  # something moves
                cv2.imwrite(str(folder / name), image)
                frames.append(Frame(view=cam.name, t=t, file=name))
        obs = Observation(
            scene_id=spec.scene_id,
            window=0.6,
            frame_times=[0.0, 0.6],
            frames=frames,
            cameras=[CameraInfo.of(c, 64, 36) for c in spec.cameras],
            robot=RobotPose(pos=spec.observer.pos, yaw=spec.observer.yaw),
        )
        (folder / "observation.json").write_text(obs.to_json())
        (scene_folder / "spec.json").write_text(spec.to_json())
        path = spec.intended.path
        samples = [
            (a.t, a.pos, tuple((b.pos[i] - a.pos[i]) / (b.t - a.t) for i in range(3)))
            for a, b in zip(path, path[1:], strict=False)
        ]
        truth = ground_truth(spec, samples, spec.intended.floor_time, 0.1)
        (scene_folder / "ground_truth.json").write_text(truth.to_json())
    return root
