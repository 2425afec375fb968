"""Shared fixtures: one generated default set per test session (it takes about 2 s), a scripted
loopback model endpoint, twelve observed scenes. Helpers tests import are in helpers.py."""

from __future__ import annotations

import numpy as np
import pytest
from loopback import Script, serve

from reacthuman.layout import brain_folder
from reacthuman.observation import CameraInfo, Frame, Observation, RobotPose
from reacthuman.scenes.set_models import Scene, SetManifest
from reacthuman.scenes.sets import generate_set
from reacthuman.scenes.truth import ground_truth


@pytest.fixture(scope="session")
def default_set() -> tuple[SetManifest, list[Scene]]:
    return generate_set()


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
