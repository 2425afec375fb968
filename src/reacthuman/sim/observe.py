"""Observe scenes: simulate each once, write frames, observation.json and ground_truth.json.

The Python API the CLI and (later) the simulator node use. Each scene is simulated at most
once per spec and render settings: results live in the observation cache and are copied
out from there. A scene that fails (cannot be built, or its simulation contradicts its spec)
is reported with its reason and the others go on; an interrupted run loses at most the scene
in progress and resumes from the cache.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from reacthuman.layout import (
    FRAMES_DIR,
    GROUND_TRUTH_FILE,
    OBSERVATION_FILE,
    SPEC_FILE,
    brain_folder,
)
from reacthuman.observation import (
    OBSERVATION_SCHEMA,
    CameraInfo,
    Frame,
    Observation,
    RobotPose,
    frame_name,
    legend_of,
    png_bytes,
)
from reacthuman.out_folder import inside, make_folder
from reacthuman.scenes.spec import SceneSpec
from reacthuman.scenes.truth import GroundTruth
from reacthuman.sim.cache import ObservationCache
from reacthuman.sim.settings import RenderSettings
from reacthuman.sim.validate import rejection_reasons
from reacthuman.spine.controller import DEFAULT_CONTROLLER


@dataclass
class SceneResult:
    scene_id: str
    status: str  # "ok", "rejected" or "failed"
    folder: Path | None = None
    reasons: tuple[str, ...] = ()
    cached: bool = False
    seconds: float = 0.0
    truth: GroundTruth | None = None


def preflight(spec: SceneSpec) -> list[str]:
    """Reasons a spec cannot be built, found before Genesis is involved."""
    from reacthuman.scenes.geometry import box_corners
    from reacthuman.sim.visuals import MODELS

    problems = []
    sx, sy, sz = spec.room.size
    tolerance = 0.005

    def outside(points) -> bool:
        return any(
            abs(p[0]) > sx / 2 + tolerance
            or abs(p[1]) > sy / 2 + tolerance
            or p[2] < -tolerance
            or p[2] > sz + tolerance
            for p in points
        )

    for obj in spec.objects:
        if obj.visual_model not in MODELS:
            problems.append(
                f"object {obj.id!r}: unknown visual model {obj.visual_model!r} (a scene made "
                "with an older catalogue? generate it again: `reacthuman scenes generate`)"
            )
        if outside(box_corners(obj.pose.pos, obj.shape.size, obj.pose.quat)):
            problems.append(f"object {obj.id!r} is (partly) outside the room, inside a wall")
    for piece in spec.furniture:
        if outside(box_corners(piece.pose.pos, piece.size, piece.pose.quat)):
            problems.append(f"furniture {piece.id!r} is (partly) outside the room, inside a wall")
    return problems


def observation_for(spec: SceneSpec, settings: RenderSettings, legend: bool = False) -> Observation:
    """What the brain may see: frames, times, cameras and where it stands; with ``legend``
    (the ablation, never the default) also the objects by how they look (``legend_of``)."""
    window = settings.window_of(spec)
    times = settings.frame_times(window)
    frames = [
        Frame(view=cam.name, t=t, file=f"frames/{frame_name(cam.name, t)}")
        for t in times
        for cam in spec.cameras
    ]
    return Observation(
        scene_id=spec.scene_id,
        window=window,
        frame_times=times,
        frames=frames,
        cameras=[CameraInfo.of(cam, settings.width, settings.height) for cam in spec.cameras],
        robot=RobotPose(pos=spec.observer.pos, yaw=spec.observer.yaw),
        legend=legend_of(spec) if legend else None,
    )


def write_png(path: Path, image: np.ndarray) -> None:
    path.write_bytes(png_bytes(image))


class Observer:
    """Simulates scenes through the cache; one per process (it owns the Genesis simulator).

    The G1 stands at the observer under ``controller`` (the benchmark's default), exactly as
    in ``reacthuman bench`` and the node graph, so the same scene gives the same frames and
    ground truth whichever path made them."""

    def __init__(
        self,
        settings: RenderSettings,
        cache: ObservationCache | None = None,
        controller: str = DEFAULT_CONTROLLER,
        policy_path: str | None = None,
    ) -> None:
        self.settings = settings
        self.cache = cache if cache is not None else ObservationCache()
        self.controller_name = controller
        self.policy_path = policy_path
        self._controller = None
        self._simulator = None
        self.last_timings: dict[str, float] = {}

    @property
    def controller(self):
        if self._controller is None:
            from reacthuman.spine.controller import make_controller

            self._controller = make_controller(self.controller_name, self.policy_path)
        return self._controller

    def cached(self, spec: SceneSpec) -> Path | None:
        return self.cache.get(spec, self.settings, self.controller_name)

    @property
    def simulator(self):
        if self._simulator is None:
            from reacthuman.sim.simulator import Simulator

            self._simulator = Simulator()
        return self._simulator

    def _simulate_into(self, spec: SceneSpec, folder: Path) -> None:
        from reacthuman.sim.episode import standing

        started = time.perf_counter()
        simulator = self.simulator
        episode = simulator.build(spec, self.settings, standing(self.controller, spec))
        built = time.perf_counter()
        try:
            truth = episode.run()
            ran = time.perf_counter()
            (folder / "frames").mkdir()
            for (view, t), image in episode.frames.items():
                write_png(folder / "frames" / frame_name(view, t), image)
            (folder / "observation.json").write_text(observation_for(spec, self.settings).to_json())
            (folder / "ground_truth.json").write_text(truth.to_json())  # last: marks completion
            self.last_timings = {
                "build": built - started,
                "physics": episode.seconds["physics"],
                "render": episode.seconds["render"],
                "other": (ran - built) - episode.seconds["physics"] - episode.seconds["render"],
                "write": time.perf_counter() - ran,
            }
        finally:
            self.simulator.destroy(episode)

    def observe(self, spec: SceneSpec) -> SceneResult:
        """The scene's cache entry, simulating it if needed."""
        start = time.perf_counter()
        entry = self.cached(spec)
        cached = entry is not None
        if entry is None:
            problems = preflight(spec)
            if problems:
                return SceneResult(spec.scene_id, "failed", reasons=tuple(problems))
            try:
                entry = self.cache.put(
                    spec,
                    self.settings,
                    lambda f: self._simulate_into(spec, f),
                    self.controller_name,
                )
            except Exception as exc:  # one scene's failure must not stop a set
                detail = f"{type(exc).__name__}: {exc}"
                return SceneResult(
                    spec.scene_id, "failed", reasons=(detail,), seconds=time.perf_counter() - start
                )
        truth = GroundTruth.load(entry / "ground_truth.json")
        # Judged now, not cached: the cache holds what the simulation did, and validators
        # may change without the simulation changing.
        reasons = tuple(rejection_reasons(spec, truth))
        return SceneResult(
            spec.scene_id,
            "rejected" if reasons else "ok",
            folder=entry,
            reasons=reasons,
            cached=cached,
            seconds=time.perf_counter() - start,
            truth=truth,
        )


def export(result: SceneResult, out: Path, spec: SceneSpec, legend: bool = False) -> Path:
    """Write a scene from the cache to ``out/<family>/<id>`` in the layout of
    ``reacthuman.layout``: the brain's folder ``observation/`` (observation.json and the
    frames, nothing else), with ground_truth.json and spec.json beside it.

    The cache keeps the frames-only observation whatever ``legend`` is; the legend ablation
    is applied here, to the exported copy (it is text from the spec, no simulation), so no
    setting can be served another setting's observation and the cache key stays the
    simulation's (spec, render settings). Entries cached before the legend became optional
    still hold a legend with role ids: it is replaced here too.
    """
    assert result.folder is not None
    target = inside(out, out / spec.family.value / spec.scene_id)  # no link written through
    staging = inside(out, target.with_name(f".{target.name}.partial"))
    shutil.rmtree(staging, ignore_errors=True)
    seen = make_folder(out, brain_folder(staging))
    shutil.copytree(result.folder / FRAMES_DIR, seen / FRAMES_DIR)
    cached = Observation.load(result.folder / OBSERVATION_FILE)
    shown = cached.model_copy(
        update={"schema_version": OBSERVATION_SCHEMA, "legend": legend_of(spec) if legend else None}
    )
    (seen / OBSERVATION_FILE).write_text(shown.to_json())
    shutil.copyfile(result.folder / GROUND_TRUTH_FILE, staging / GROUND_TRUTH_FILE)
    (staging / SPEC_FILE).write_text(spec.to_json())
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    return target


RECYCLE_AFTER = 40  # scenes per worker process: Genesis keeps ~8 MB per built scene


_WORKER: Observer | None = None


def _start_worker(
    settings_json: str, cache_root: str, controller: str, policy_path: str | None
) -> None:
    global _WORKER
    from reacthuman.parent_watch import exit_with_parent

    exit_with_parent()
    _WORKER = Observer(
        RenderSettings.model_validate_json(settings_json),
        ObservationCache(cache_root),
        controller,
        policy_path,
    )


def _observe_in_worker(spec_json: str) -> SceneResult:
    assert _WORKER is not None
    return _WORKER.observe(SceneSpec.from_json(spec_json))


def _observe_in_pool(
    specs: list[SceneSpec],
    indices: list[int],
    observer: Observer,
    jobs: int,
    finish: Callable[[int, SceneResult], None],
) -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    pool = ProcessPoolExecutor(
        max_workers=min(jobs, len(indices)),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(
            observer.settings.model_dump_json(),
            str(observer.cache.root),
            observer.controller_name,
            observer.policy_path,
        ),
    )
    try:
        futures = {pool.submit(_observe_in_worker, specs[i].to_json()): i for i in indices}
        for future in as_completed(futures):
            finish(futures[future], future.result())
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def observe_all(
    specs: Iterable[SceneSpec],
    observer: Observer,
    out: Path | None,
    on_result: Callable[[SceneResult], None] | None = None,
    jobs: int = 1,
    legend: bool = False,
) -> list[SceneResult]:
    """Observe every spec; with ``jobs`` > 1 in that many worker processes. With ``out``,
    each scene that is ok is exported there (``export``; ``legend``: the ablation).

    Workers are replaced every RECYCLE_AFTER scenes so memory stays bounded; scenes already in
    the cache never reach a worker. Results come back in the order of ``specs``.
    """
    specs = list(specs)
    results: dict[int, SceneResult] = {}

    def finish(index: int, result: SceneResult) -> None:
        if out is not None and result.status == "ok":
            export(result, out, specs[index], legend)
        results[index] = result
        if on_result is not None:
            on_result(result)

    pending = []
    for index, spec in enumerate(specs):
        if jobs > 1 and observer.cached(spec) is None:
            pending.append(index)
        else:
            finish(index, observer.observe(spec))
    # Fresh worker processes for every RECYCLE_AFTER scenes each (Python 3.11's
    # max_tasks_per_child can hang when it replaces a worker, so pools are simply renewed).
    batch = RECYCLE_AFTER * max(jobs, 1)
    for start in range(0, len(pending), batch):
        _observe_in_pool(specs, pending[start : start + batch], observer, jobs, finish)
    return [results[i] for i in range(len(specs))]
