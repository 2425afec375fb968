"""Reading a file that data names (a scene's spec, an observation's frames) so that the data
cannot lead the reader anywhere else: never out of its folder through a link (a frame linked
to a private file would be sent to a model endpoint), never a FIFO or device (a FIFO blocks
the reader for good, /dev/zero never ends), never more than a limit (memory).

Every file read from a scene set, a scene folder or a brain folder goes through
``read_inside``; a refusal is an ``UnsafeFile`` (a ValueError) whose message names the file
and why, so that scene is its own error and nothing of the file is used.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MB = 1024 * 1024
# A frame PNG: 1280x720 RGB is 2.8 MB even uncompressed; 32 MB leaves room for 4K frames.
FRAME_LIMIT = 32 * MB
# A JSON document of a scene (spec, metadata, observation, ground truth: tens of kB).
DOCUMENT_LIMIT = 8 * MB

_KINDS = {
    stat.S_IFDIR: "a folder",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


class UnsafeFile(ValueError):
    """A file refused before its bytes are used; the message names it and why."""


def size_text(size: int) -> str:
    """``2.1 GB``, ``32 MB``, ``12 kB``: a size as a person reads it (binary units)."""
    for unit, scale in (("GB", MB * 1024), ("MB", MB), ("kB", 1024)):
        if size >= scale:
            value = size / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{size} bytes"


def check_inside(path: Path, root: Path) -> Path:
    """``path`` resolved; UnsafeFile when it resolves outside ``root`` (a link, or a link
    among its folders, that leads out)."""
    real = Path(os.path.realpath(path))
    base = Path(os.path.realpath(root))
    if real == base or base in real.parents:
        return real
    if os.path.islink(path):
        raise UnsafeFile(f"{path}: a link out of {root} (to {os.readlink(path)})")
    raise UnsafeFile(f"{path}: leads out of {root} (to {real})")


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` (a file a person named: a link is followed), a regular file of
    at most ``limit`` bytes; UnsafeFile otherwise, OSError as usual when it is missing or
    unreadable."""
    return _read(path, limit, path, follow=True)


def read_inside(path: Path, root: Path, limit: int) -> bytes:
    """The bytes of ``path``, which must stay inside ``root`` once links are resolved, be a
    regular file and hold at most ``limit`` bytes; UnsafeFile naming it and why otherwise.
    A link that stays inside ``root`` is followed; the file is opened at its resolved path
    without following a last link, so it cannot be swapped for one in between."""
    return _read(check_inside(path, root), limit, path, follow=False)


def _read(path: Path, limit: int, name: Path, follow: bool) -> bytes:
    """A FIFO or device is refused without blocking: checked before it is opened, opened
    non-blocking, and checked again; errors name the file as ``name``."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        kind = _KINDS.get(stat.S_IFMT(os.stat(path).st_mode))
        if kind is not None:
            raise UnsafeFile(f"{name}: not a regular file ({kind})")
        fd = os.open(path, flags)
    except UnsafeFile:
        raise
    except OSError as exc:  # named as the caller named it, not at its resolved path
        raise OSError(exc.errno, exc.strerror, str(name)) from None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # swapped since the check
            raise UnsafeFile(f"{name}: not a regular file")
        if info.st_size > limit:
            raise UnsafeFile(
                f"{name}: is {size_text(info.st_size)}, over the {size_text(limit)} limit"
            )
        data = file.read(limit + 1)  # a file that grows while it is read stops at the limit
    if len(data) > limit:
        raise UnsafeFile(f"{name}: is over the {size_text(limit)} limit")
    return data
