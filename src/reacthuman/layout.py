"""Where a scene's files live: the brain's folder, and what sits beside it (never in it).

Every scene folder, whether ``reacthuman observe`` exported it or a bench run played it::

    <scene>/observation/observation.json   what the brain may see ...
    <scene>/observation/frames/*.png        ... and nothing else: this is the brain's folder
    <scene>/ground_truth.json               observe exports: the scorer's (never the brain's)
    <scene>/spec.json                       observe exports: the scene
    <scene>/plan.json, reply.txt            bench runs: the decision (``reacthuman decide``
    <scene>/outcome.json, execution.mp4     writes plan.json and reply.txt to its own --out)

A brain is handed ``<scene>/observation`` only (the brain never receives ground
truth); the oracle, the one privileged reference, is handed ground truth as an argument.
An older ``reacthuman observe`` wrote observation.json, frames/, ground_truth.json and
spec.json into one folder; such a folder is refused with what to do, never decided.
"""

from __future__ import annotations

from pathlib import Path

OBSERVATION_DIR = "observation"  # the brain's folder inside a scene folder
OBSERVATION_FILE = "observation.json"
FRAMES_DIR = "frames"
GROUND_TRUTH_FILE = "ground_truth.json"
SPEC_FILE = "spec.json"
BESIDE_ONLY = (GROUND_TRUTH_FILE, SPEC_FILE)  # files that never sit in a brain's folder


class LayoutError(ValueError):
    """A folder is not laid out as a scene folder; the message says what to do."""


def brain_folder(scene: Path) -> Path:
    """The folder a brain is shown: ``<scene>/observation``."""
    return scene / OBSERVATION_DIR


def _old_layout(folder: Path) -> LayoutError:
    beside = ", ".join(name for name in BESIDE_ONLY if (folder / name).exists())
    return LayoutError(
        f"{folder}: observation.json lies beside {beside} (the layout of an older "
        "`reacthuman observe`, which showed brains the ground truth); re-run `reacthuman "
        "observe SCENES --out DIR` (the observation cache makes it quick) and decide DIR"
    )


def find_scenes(root: Path) -> list[Path]:
    """Scene folders (holding ``observation/observation.json``) at or under ``root``.

    ``root`` may be one scene folder, its brain folder, or a tree of scene folders (hidden
    folders, such as an interrupted export's staging, are passed over). Raises LayoutError on
    a folder in the old layout, where ground truth sat beside observation.json.
    """
    if (brain_folder(root) / OBSERVATION_FILE).is_file():
        return [root]
    if (root / OBSERVATION_FILE).is_file():
        if root.name != OBSERVATION_DIR or any((root / name).exists() for name in BESIDE_ONLY):
            raise _old_layout(root)
        return [root.parent]
    scenes = []
    for found in sorted(root.glob(f"**/{OBSERVATION_FILE}")):
        if any(part.startswith(".") for part in found.relative_to(root).parts):
            continue
        folder = found.parent
        if folder.name != OBSERVATION_DIR or any((folder / n).exists() for n in BESIDE_ONLY):
            raise _old_layout(folder)
        scenes.append(folder.parent)
    # A brain folder that is a link is not walked into, but it is a scene: reading it names
    # the link (``observation.read_shown``), rather than the scene vanishing without a word.
    for linked in root.glob(f"**/{OBSERVATION_DIR}"):
        hidden = any(part.startswith(".") for part in linked.relative_to(root).parts)
        if linked.is_symlink() and not hidden and linked.parent not in scenes:
            scenes.append(linked.parent)
    return sorted(scenes)


def linked_folders(root: Path) -> list[Path]:
    """Folders under ``root`` that are links to folders (a brain folder's aside): a tree of
    scene folders is not walked through links, and these are named so that no scene is
    passed over without a word."""
    return sorted(
        p
        for p in root.glob("**/*")
        if p.is_symlink()
        and p.is_dir()
        and p.name != OBSERVATION_DIR
        and not any(part.startswith(".") for part in p.relative_to(root).parts)
    )
