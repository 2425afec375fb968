"""A run folder: where a benchmark run's files go, and the writers of what a user reads there.

Both paths (the direct loop in ``reacthuman.runner`` and the ROS 2 nodes) write the same
layout::

    results.sqlite, scores.csv, scores.jsonl     one row per (scene, brain)
    episodes/<brain>/<scene_id>/observation/     what the brain saw: observation.json, frames/
    episodes/<brain>/<scene_id>/                 beside it: plan.json, reply.txt, outcome.json
    bags/<brain>/<family>/<scene_id>/            rosbag2 MCAP of the episode (graph path)
    report/                                      report.md, report.html and plots
    libraries.log                                the simulator's warnings (not the console)
    timings.jsonl                                wall seconds per episode and phase
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np

from reacthuman.brain.client import Decision
from reacthuman.layout import FRAMES_DIR, OBSERVATION_FILE, brain_folder
from reacthuman.observation import Observation, frame_name
from reacthuman.scenes.spec import CameraName, SceneSpec

LIBRARY_LOG_FILE = "libraries.log"
TIMINGS_FILE = "timings.jsonl"  # wall seconds per episode and phase
Frames = dict[tuple[CameraName, float], np.ndarray]  # (view, time) -> an RGB frame


def safe_name(text: str) -> str:
    """A brain or model name as one path component (``openai/gpt-4o`` -> ``openai_gpt-4o``)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "brain"


def episode_folder(run: Path, brain: str, scene_id: str) -> Path:
    return run / "episodes" / safe_name(brain) / scene_id


def bag_folder(run: Path, brain: str, spec: SceneSpec) -> Path:
    """Where the episode's bag goes (a rosbag2 folder: metadata.yaml and an .mcap file)."""
    return run / "bags" / safe_name(brain) / spec.family.value / spec.scene_id


def bagged(run: Path) -> dict[str, set[str]]:
    """The episodes whose bag is in ``run``: scene ids by brain folder (a bag still being
    written lies a level deeper, in a ``.partial`` folder, and is not one)."""
    found: dict[str, set[str]] = {}
    for metadata in (run / "bags").glob("*/*/*/metadata.yaml"):
        brain, _family, scene_id = metadata.parent.relative_to(run / "bags").parts
        found.setdefault(brain, set()).add(scene_id)
    return found


def write_observation(scene: Path, observation: Observation, frames: Frames) -> Path:
    """The brain's view of a scene as files in its brain folder, ``<scene>/observation``:
    ``observation.json`` and the PNG frames, nothing else (a rerun's leftovers are removed).
    Returns the brain folder."""
    return write_observations([scene], observation, frames)[0]


def write_observations(scenes: list[Path], observation: Observation, frames: Frames) -> list[Path]:
    """``write_observation`` for several episodes of one scene (a brain each), the frames
    encoded once for all of them: PNG encoding is most of the cost."""
    from reacthuman.sim.observe import png_bytes

    encoded = {frame_name(view, t): png_bytes(image) for (view, t), image in frames.items()}
    text = observation.to_json()
    folders = []
    for scene in scenes:
        folder = brain_folder(scene)
        shutil.rmtree(folder, ignore_errors=True)
        (folder / FRAMES_DIR).mkdir(parents=True)
        for name, data in encoded.items():
            (folder / FRAMES_DIR / name).write_bytes(data)
        (folder / OBSERVATION_FILE).write_text(text)
        folders.append(folder)
    return folders


def write_decision(folder: Path, decision: Decision) -> None:
    (folder / "plan.json").write_text(
        json.dumps(decision.model_dump(mode="json", exclude={"replies"}), indent=2) + "\n"
    )
    (folder / "reply.txt").write_text("\n\n----- next reply -----\n\n".join(decision.replies))
