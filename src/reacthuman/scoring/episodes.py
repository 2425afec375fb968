"""The report's episode pages: per decision, a strip of what the brain saw and its execution.

A strip is the egocentric frames of the observed window side by side, then the overhead view
at the freeze, as one small PNG under ``report/strips/``; the execution video is the episode
folder's ``execution.mp4`` (``reacthuman bench --videos``), linked where it exists. Both are
referenced by relative paths, so the report folder is read in place beside ``episodes/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from reacthuman.layout import FRAMES_DIR, OBSERVATION_FILE, brain_folder
from reacthuman.observation import Observation, frame_name
from reacthuman.run_folder import episode_folder, safe_name
from reacthuman.scenes.spec import CameraName
from reacthuman.scoring.results import ScoreRow

THUMB_WIDTH = 192  # px of each frame in a strip
STRIPS_DIR = "strips"


def strip(folder: Path, out: Path) -> bool:
    """Write the strip of the brain folder's frames to ``out``; False without frames."""
    from PIL import Image

    observation_file = folder / OBSERVATION_FILE
    if not observation_file.is_file():
        return False
    observation = Observation.load(observation_file)
    names = [frame_name(CameraName.egocentric, t) for t in observation.frame_times]
    if observation.frame_times:
        names.append(frame_name(CameraName.overhead, observation.frame_times[-1]))
    images = []
    for name in names:
        path = folder / FRAMES_DIR / name
        if path.is_file():
            image = Image.open(path).convert("RGB")
            height = round(image.height * THUMB_WIDTH / image.width)
            images.append(np.asarray(image.resize((THUMB_WIDTH, height))))
    if not images:
        return False
    height = min(i.shape[0] for i in images)
    gap = np.full((height, 4, 3), 255, dtype=np.uint8)
    row = [part for image in images for part in (image[:height], gap)][:-1]
    out.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.concatenate(row, axis=1)).save(out, optimize=True)
    return True


def episode_lines(rows: Sequence[ScoreRow], run: Path, report: Path) -> list[str]:
    """Markdown for the episodes section: heading, strip and video link per decision, for the
    decisions whose episode folder is in ``run`` (a bench run's layout)."""
    lines: list[str] = []
    for row in sorted(rows, key=lambda r: (r.brain, r.family.value, r.scene_id)):
        episode = episode_folder(run, row.brain, row.scene_id)
        image = report / STRIPS_DIR / safe_name(row.brain) / f"{row.scene_id}.png"
        if not strip(brain_folder(episode), image):
            continue
        action = row.action.value if row.action is not None else "R1 (no plan)"
        outcome = row.outcome.value if row.outcome is not None else "not executed"
        lines += [
            "",
            f"### {row.brain} · {row.scene_id} · {action} (truth {row.true_action.value}) "
            f"· {outcome}",
            "",
            f"![{row.scene_id}]({image.relative_to(report).as_posix()})",
        ]
        video = episode / "execution.mp4"
        if video.is_file():
            relative = Path("..") / video.relative_to(run)
            lines.append(f"[execution video]({relative.as_posix()})")
    if not lines:
        return []
    return [
        "",
        "## Episodes",
        "",
        "What each brain saw (the egocentric frames of the window, then the overhead view at "
        "the freeze) and how its plan was executed.",
        *lines,
    ]
