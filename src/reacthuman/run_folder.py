"""A run folder: where a benchmark run's files go, and the writers of what a user reads there.

Both paths (the direct loop in ``reacthuman.runner`` and the ROS 2 nodes) write the same
layout::

    results.sqlite, scores.csv, scores.jsonl     one row per (scene, brain)
    episodes/<brain>/<scene_id>/observation/     what the brain saw: observation.json, frames/
    episodes/<brain>/<scene_id>/                 beside it: plan.json, reply.txt, outcome.json
    bags/<brain>/<family>/<scene_id>/            rosbag2 MCAP of the episode (graph path)
    report/                                      report.md, report.html and plots
    libraries.log                                what Genesis and Quadrants print (not the console)
    timings.jsonl                                wall seconds per episode and phase
    .reacthuman.json                             the marker: which verb made the folder

A bench, ``score`` or ``report`` writes only into a run folder a verb of this tool made
(``reacthuman.out_folder``); ``legacy_run`` says when an unmarked one is an older version's.
Every write below the run goes through ``out_folder``'s checks: never through a symbolic link.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np

from reacthuman.brain.client import Decision
from reacthuman.layout import FRAMES_DIR, OBSERVATION_FILE, brain_folder
from reacthuman.observation import Observation, frame_name, png_bytes
from reacthuman.out_folder import inside, make_folder, only_entries, write_bytes, write_text
from reacthuman.scenes.spec import CameraName, SceneSpec
from reacthuman.sqlite_store import has_table

LIBRARY_LOG_FILE = "libraries.log"
TIMINGS_FILE = "timings.jsonl"  # wall seconds per episode and phase
Frames = dict[tuple[CameraName, float], np.ndarray]  # (view, time) -> an RGB frame

RUN_VERBS = ("bench", "score")  # the verbs that make a run folder (results.sqlite and beside)
REPORT_FILES = ("report.md", "report.html")  # `reacthuman report` without --out: in the run
REPORT_FOLDERS = ("plots", "strips")
STORES = {"results.sqlite": "scores", "responses.sqlite": "decisions"}  # file -> its table
RUN_FILES = frozenset(
    {
        *(f"{store}{suffix}" for store in STORES for suffix in ("", "-wal", "-shm", "-journal")),
        "scores.csv",
        "scores.jsonl",
        "validity.json",
        "live_decisions.jsonl",
        LIBRARY_LOG_FILE,
        TIMINGS_FILE,
        *REPORT_FILES,
    }
)
RUN_FOLDERS = frozenset({"episodes", "bags", "report", *REPORT_FOLDERS})


def legacy_run(folder: Path) -> str | None:
    """A run folder an older version wrote (no marker) is taken as one only when every entry
    in it is one a run holds and its results.sqlite (or responses.sqlite) holds the run's
    table: a file merely named results.sqlite beside a user's scores.csv is not a run.
    None when taken, else why not."""
    why = only_entries(folder, RUN_FILES, RUN_FOLDERS)
    if why is not None:
        return why
    if {p.name for p in folder.iterdir()} <= {LIBRARY_LOG_FILE}:
        return None  # a bench that stopped before its stores opened
    if not any(has_table(folder / name, table) for name, table in STORES.items()):
        return "no results.sqlite of a run in it"
    return None


def legacy_report(folder: Path) -> str | None:
    """A report folder (``report --out``) an older version wrote: report.md and its
    companions, nothing else; or a run folder (``legacy_run``)."""
    if (
        only_entries(folder, REPORT_FILES, REPORT_FOLDERS) is None
        and (folder / "report.md").is_file()
    ):
        return None
    return legacy_run(folder)


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


def write_observation(
    scene: Path, observation: Observation, frames: Frames, run: Path | None = None
) -> Path:
    """The brain's view of a scene as files in its brain folder, ``<scene>/observation``:
    ``observation.json`` and the PNG frames, nothing else (a rerun's leftovers are removed).
    ``run``: the run folder ``scene`` lies in (default ``scene``): nothing below it on the
    way is a symbolic link. Returns the brain folder."""
    return write_observations([scene], observation, frames, run)[0]


def write_observations(
    scenes: list[Path], observation: Observation, frames: Frames, run: Path | None = None
) -> list[Path]:
    """``write_observation`` for several episodes of one scene (a brain each), the frames
    encoded once for all of them: PNG encoding is most of the cost."""
    encoded = {frame_name(view, t): png_bytes(image) for (view, t), image in frames.items()}
    text = observation.to_json()
    folders = []
    for scene in scenes:
        root = scene if run is None else run
        folder = inside(root, brain_folder(scene))  # a link is refused, never removed through
        shutil.rmtree(folder, ignore_errors=True)
        make_folder(root, folder / FRAMES_DIR)
        for name, data in encoded.items():
            write_bytes(root, folder / FRAMES_DIR / name, data)
        write_text(root, folder / OBSERVATION_FILE, text)
        folders.append(folder)
    return folders


def write_decision(folder: Path, decision: Decision, run: Path | None = None) -> None:
    """``plan.json`` and ``reply.txt`` of an episode folder in the run folder ``run``
    (default ``folder``), never through a symbolic link below it."""
    run = folder if run is None else run
    write_text(
        run,
        folder / "plan.json",
        json.dumps(decision.model_dump(mode="json", exclude={"replies"}), indent=2) + "\n",
    )
    write_text(run, folder / "reply.txt", "\n\n----- next reply -----\n\n".join(decision.replies))
