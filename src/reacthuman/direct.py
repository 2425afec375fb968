"""The direct path: the benchmark's episodes in one loop, without ROS 2.

Every scene is played once to its freeze (in an ``episode_host`` worker process renewed every
``episodes_per_process`` scenes, so memory stays flat), every brain that has not yet scored it
decides on the same observation at once, and the plans are executed from that freeze side by
side, one environment of the batched scene each (``sim.execute.execute_all``): each outcome
is the one the plan has executed alone. What the node graph runs is compared
with this (same scenes and plans give identical score rows).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reacthuman.brain.run import Brain
from reacthuman.brain.runner import DEFAULT_BRAIN_TIMEOUT, BrainRunner
from reacthuman.episode_host import EPISODES_PER_PROCESS, episode_host
from reacthuman.out_folder import write_text
from reacthuman.run_folder import (
    TIMINGS_FILE,
    episode_folder,
    write_decision,
    write_observations,
)
from reacthuman.scenes.spec import SceneSpec
from reacthuman.scoring.results import ResultsStore, ScoreRow
from reacthuman.scoring.run import score_row
from reacthuman.sim.episode import MAX_ENVS
from reacthuman.sim.settings import RenderSettings


def finished(results: ResultsStore, brains: list[str]) -> dict[str, set[str]]:
    """The scenes each brain already has a score row for (a resumed run skips them)."""
    held: dict[str, set[str]] = {brain: set() for brain in brains}
    for row in results.rows():
        if row.brain in held:
            held[row.brain].add(row.scene_id)
    return held


def log_timing(run: Path, scene_id: str, brain: str, timing: dict[str, Any]) -> None:
    """One episode's phases as a line of ``timings.jsonl``; ``total`` is their sum (a scene's
    play and its brains' decisions count in its first episode)."""
    phases = ("play", "decide", "execute", "score")
    total = sum(float(timing.get(phase, 0.0)) for phase in phases)
    line = {"scene_id": scene_id, "brain": brain, **timing, "total": total}
    with (run / TIMINGS_FILE).open("a") as log:
        log.write(json.dumps(line) + "\n")


def run_direct(
    specs: list[SceneSpec],
    brains: list[Brain],
    run: Path,
    settings: RenderSettings,
    controller: str = "g1",
    policy_path: str | None = None,
    timeout: float = DEFAULT_BRAIN_TIMEOUT,
    on_row: Callable[[ScoreRow], None] | None = None,
    videos: bool = False,
    legend: bool = False,
    episodes_per_process: int = EPISODES_PER_PROCESS,
) -> list[ScoreRow]:
    """Every scene with every brain, in process order (scene by scene, brains in the given
    order); resumes where an earlier run stopped. ``controller``: the body's controller by
    name (``spine.controller.make_controller``); with ``videos``, each execution's close-up
    view goes to ``execution.mp4`` in its episode folder; with ``legend``, observations carry
    the legend (the ablation); ``episodes_per_process`` 0 plays in this process."""
    results = ResultsStore(run / "results.sqlite")
    deciding = BrainRunner(run / "responses.sqlite")
    host = episode_host(controller, policy_path, episodes_per_process)
    rows: list[ScoreRow] = []
    try:
        done = finished(results, [brain.name for brain in brains])
        for spec in specs:
            todo = [brain for brain in brains if spec.scene_id not in done[brain.name]]
            if not todo:
                continue
            started = time.perf_counter()
            staged = host.play(spec, settings, legend, envs=len(todo))
            timing: dict[str, Any] = {"play": time.perf_counter() - started, **staged.seconds}
            try:
                started = time.perf_counter()
                folders = [episode_folder(run, brain.name, spec.scene_id) for brain in todo]
                write_observations(folders, staged.observation, staged.frames, run)
                decisions = deciding.decide_all(
                    todo, staged.observation, folders, timeout, staged.truth
                )
                timing["decide"] = time.perf_counter() - started  # the scene's brains at once
                for folder, decision in zip(folders, decisions, strict=True):
                    write_decision(folder, decision, run)
                # The plans side by side, a batch of environments at a time; with videos
                # one after another (a scene renders its environment 0 only).
                batch = 1 if videos else MAX_ENVS
                for first in range(0, len(decisions), batch):
                    started = time.perf_counter()
                    chosen = decisions[first : first + batch]
                    if videos:
                        video = folders[first] / "execution.mp4"
                        outcomes = [host.execute(chosen[0], video=video)]
                    else:
                        outcomes = host.execute_all(chosen)
                    # A batch's execution counts in its first episode, as the play does.
                    timing["execute"] = time.perf_counter() - started
                    for offset, (decision, outcome) in enumerate(
                        zip(chosen, outcomes, strict=True)
                    ):
                        scoring = time.perf_counter()
                        folder = folders[first + offset]
                        write_text(
                            run, folder / "outcome.json", outcome.model_dump_json(indent=2) + "\n"
                        )
                        row = score_row(decision, staged.truth, spec, outcome)
                        results.put(row)
                        timing.update(ticks=outcome.ticks, score=time.perf_counter() - scoring)
                        log_timing(run, spec.scene_id, decision.brain, timing)
                        timing = {}
                        rows.append(row)
                        if on_row is not None:
                            on_row(row)
            finally:
                host.finish()
    finally:
        host.close()
        results.close()
        deciding.close()
    return rows
