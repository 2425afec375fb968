"""Output folders: a verb writes only into a folder that is new, empty or its own, and never
through a symbolic link out of it.

A verb that makes an ``--out`` folder leaves ``.reacthuman.json`` in it, naming itself
(``{"tool": "reacthuman", "verb": "bench", "version": ...}``); a rerun of the verb (or of one
that writes the same kind of folder) finds it and resumes or replaces its own work. A file
merely *named* like one the tool writes (``set.json``, ``results.sqlite``) is no proof: a
folder an older version made, without the marker, is taken only when everything in it is an
entry that verb writes (``legacy``), and marked then. Anything else is refused, before any
work, with one line naming the folder.

Writers under such a folder go through ``inside`` (or ``make_folder``, ``write_text``,
``write_bytes``): no part of the path below the folder may be a symbolic link, so a link
planted in a run (``episodes/heuristic -> ~``) never carries a write outside it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Collection
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

MARKER_FILE = ".reacthuman.json"
TOOL = "reacthuman"


class OutFolderError(ValueError):
    """An output folder (or a path in it) the tool will not write into; one line that says
    what to do."""


class Marker(BaseModel):
    """What the marker file holds: which verb of which tool made the folder."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    tool: str
    verb: str
    version: str


def marker_text(verb: str) -> str:
    """The marker's bytes for ``verb``: the same for the same verb and version (a scene set
    generated twice stays byte-identical)."""
    from reacthuman import __version__

    return json.dumps({"tool": TOOL, "verb": verb, "version": __version__}, indent=2) + "\n"


def read_marker(folder: Path) -> Marker | None:
    """The folder's marker, or None where it has none (or one this tool did not write)."""
    path = folder / MARKER_FILE
    if path.is_symlink() or not path.is_file():
        return None
    try:
        marker = Marker.model_validate_json(path.read_bytes())
    except (OSError, ValidationError):
        return None
    return marker if marker.tool == TOOL else None


# A legacy check: None when every entry of the (unmarked) folder is one the verb writes,
# else the first entry that is not, said in a few words.
Legacy = Callable[[Path], str | None]


def claim(
    out: Path, verb: str, kind: str, accepts: Collection[str] = (), legacy: Legacy | None = None
) -> None:
    """Check ``out`` before any work: it is missing, empty, marked by ``verb`` (or a verb in
    ``accepts``), or a legacy folder ``legacy`` adopts, and holds no symbolic link. ``kind``
    names the folder in the message ("bench run", "scene set"). Raises OutFolderError."""
    if out.exists() and not out.is_dir():
        raise OutFolderError(f"--out {out}: exists and is not a folder")
    if not out.exists():
        if out.is_symlink():
            raise OutFolderError(
                f"--out {out}: a broken symbolic link; remove it or choose another"
            )
        return
    try:
        entries = sorted(p.name for p in out.iterdir())
    except OSError as exc:
        raise OutFolderError(f"--out {out}: cannot be read ({exc.strerror})") from None
    if not entries:
        return
    marker = read_marker(out)
    if marker is not None and marker.verb not in {verb, *accepts}:
        raise OutFolderError(
            f"--out {out}: made by `reacthuman {marker.verb}`, not a {kind}; refusing to "
            "write into it: choose a new folder"
        )
    if marker is None:
        why = "no marker" if legacy is None else legacy(out)
        if why is not None:
            raise OutFolderError(
                f"--out {out}: not empty and not a {kind} ({why}); refusing to write into "
                "it: choose a new or empty folder"
            )
    link = first_link(out)
    if link is not None:
        raise OutFolderError(
            f"--out {out}: {link} is a symbolic link; refusing to write through it: remove "
            "the link or choose a new folder"
        )


def mark(out: Path, verb: str) -> Path:
    """Make ``out`` (and its parents) and leave the marker in it unless one is there: the
    first verb to make a folder stays its maker. Call after ``claim``."""
    out.mkdir(parents=True, exist_ok=True)
    if read_marker(out) is None:
        write_text(out, out / MARKER_FILE, marker_text(verb))
    return out


def first_link(root: Path) -> Path | None:
    """The first symbolic link found below ``root`` (links are not followed), or None."""
    for folder, folders, files in os.walk(root):
        for name in sorted(folders + files):
            path = Path(folder) / name
            if path.is_symlink():
                return path
    return None


def only_entries(
    folder: Path, files: Collection[str] = (), folders: Collection[str] = ()
) -> str | None:
    """For a legacy check: None when every entry of ``folder`` is one of ``files`` (plain
    files) or ``folders`` (folders), else the first that is not, in a few words."""
    for path in sorted(folder.iterdir()):
        if path.is_symlink():
            return f"{path.name} is a symbolic link"
        if path.name in files and path.is_file():
            continue
        if path.name in folders and path.is_dir():
            continue
        return f"it holds {path.name}"
    return None


def only_files_below(
    folder: Path, names: Collection[str], suffixes: Collection[str] = ()
) -> str | None:
    """For a legacy check: None when every file at any depth below ``folder`` is named one
    of ``names`` or ends with one of ``suffixes`` (and nothing is a link), else the first
    that is not."""
    for parent, folders, files in os.walk(folder):
        for name in sorted(folders + files):
            path = Path(parent) / name
            if path.is_symlink():
                return f"{path.relative_to(folder)} is a symbolic link"
            if name in files and not (name in names or name.endswith(tuple(suffixes))):
                return f"it holds {path.relative_to(folder)}"
    return None


def inside(root: Path, path: Path) -> Path:
    """``path``, checked for writing under ``root``: it lies below ``root`` and no part of it
    from ``root`` down (the last included) is a symbolic link. ``root`` itself may be one:
    the user named it. Raises OutFolderError naming the path."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        raise OutFolderError(f"{path}: outside {root}; refusing to write there") from None
    current = root
    for part in parts:
        if part in ("..", ""):
            raise OutFolderError(f"{path}: leaves {root}; refusing to write there")
        current = current / part
        if current.is_symlink():
            raise OutFolderError(
                f"{current}: a symbolic link inside {root}; refusing to write through it: "
                "remove the link"
            )
    return path


def clear_of_links(root: Path, path: Path) -> Path:
    """``path`` made under ``root`` (``inside``) and holding no symbolic link at any depth:
    a folder the tool fills (a report) may then be written with plain calls."""
    make_folder(root, path)
    link = first_link(path)
    if link is not None:
        raise OutFolderError(
            f"{link}: a symbolic link inside {root}; refusing to write through it: remove the link"
        )
    return path


def make_folder(root: Path, path: Path) -> Path:
    """``path`` and its parents made under ``root``, none of them through a symbolic link."""
    inside(root, path)
    path.mkdir(parents=True, exist_ok=True)
    return inside(root, path)


def write_text(root: Path, path: Path, text: str) -> Path:
    """``path`` (under ``root``) written, its folder made; never through a symbolic link."""
    make_folder(root, path.parent)
    inside(root, path).write_text(text)
    return path


def write_bytes(root: Path, path: Path, data: bytes) -> Path:
    """``write_text`` for bytes."""
    make_folder(root, path.parent)
    inside(root, path).write_bytes(data)
    return path
