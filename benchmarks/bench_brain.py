"""Brain throughput: 306 decisions against a loopback OpenAI-compatible server that answers
after a simulated latency, at concurrency 1 and 16, then again from the response store.

    .venv/bin/python benchmarks/bench_brain.py [--latency 1.0] [--scenes 306]

Targets (issue "Brain"): concurrency 16 at least 12x faster than 1; the cached rerun makes
zero requests and takes under 5 s. Results go in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test"))
from loopback import GOOD, Script, serve

from reacthuman.brain.client import ModelClient
from reacthuman.brain.run import ModelBrain, decide_all
from reacthuman.brain.store import ResponseStore
from reacthuman.layout import brain_folder, find_scenes
from reacthuman.observation import CameraInfo, Frame, Observation, RobotPose
from reacthuman.scenes.sets import generate_set


def make_observations(root: Path, count: int) -> list[Path]:
    import cv2

    _manifest, scenes = generate_set()
    for n, scene in enumerate(scenes[:count]):
        spec = scene.spec
        folder = brain_folder(root / spec.family.value / spec.scene_id)
        (folder / "frames").mkdir(parents=True)
        frames = []
        for t in (0.0, 0.15, 0.3, 0.45, 0.6):
            for cam in spec.cameras:
                name = f"frames/{cam.name.value}_{int(t * 1000):04d}ms.png"
                cv2.imwrite(str(folder / name), np.full((90, 160, 3), n % 256, np.uint8))
                frames.append(Frame(view=cam.name, t=t, file=name))
        (folder / "observation.json").write_text(
            Observation(
                scene_id=spec.scene_id,
                window=0.6,
                frame_times=[0.0, 0.15, 0.3, 0.45, 0.6],
                frames=frames,
                cameras=[CameraInfo.of(c, 160, 90) for c in spec.cameras],
                robot=RobotPose(pos=spec.observer.pos, yaw=spec.observer.yaw),
            ).to_json()
        )
    return find_scenes(root)


def run(folders: list[Path], url: str, store: ResponseStore, concurrency: int) -> float:
    brain = ModelBrain(ModelClient("bench/model", url, api_key="bench", timeout=30.0))
    started = time.perf_counter()
    asyncio.run(decide_all(folders, brain, store, concurrency))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--scenes", type=int, default=306)
    args = parser.parse_args()
    script = Script()
    script.default = ("reply", json.dumps(GOOD))
    script.delay = args.latency
    httpd = serve(script)
    url = script.url
    with tempfile.TemporaryDirectory() as tmp:
        folders = make_observations(Path(tmp) / "obs", args.scenes)
        results = {}
        for concurrency in (16, 1):
            store = ResponseStore(Path(tmp) / f"store-{concurrency}.sqlite")
            before = len(script.requests)
            results[concurrency] = (
                run(folders, url, store, concurrency),
                len(script.requests) - before,
            )
            if concurrency == 16:
                before = len(script.requests)
                cached = run(folders, url, store, 16)
                results["cached"] = (cached, len(script.requests) - before)
            store.close()
    httpd.shutdown()
    one, sixteen = results[1][0], results[16][0]
    print(f"{len(folders)} decisions, {args.latency:g} s simulated latency per request")
    print(f"  concurrency 1:  {one:7.1f} s ({results[1][1]} requests)")
    print(f"  concurrency 16: {sixteen:7.1f} s ({results[16][1]} requests): {one / sixteen:.1f}x")
    print(f"  cached rerun:   {results['cached'][0]:7.2f} s ({results['cached'][1]} requests)")


if __name__ == "__main__":
    main()
