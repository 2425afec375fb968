"""Opening the run's SQLite files (scores, responses) with errors a person can act on.

A file that is not SQLite, a damaged database, one the user cannot write or one another
process holds is a ``StoreError`` naming the file, what failed and what to do, never a
traceback from deep inside a run.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class StoreError(ValueError):
    """A run's SQLite file cannot be opened, read or written; the message says what to do."""


def advice(exc: sqlite3.Error) -> str:
    text = str(exc).lower()
    if "readonly" in text or "unable to open" in text or "permission" in text:
        return "make the file and its folder writable, or give the run another --out"
    if "locked" in text or "busy" in text:
        return "another process holds it; wait for it to finish or give the run another --out"
    return (
        "it is not a database this project wrote (or it is damaged): move it aside to start "
        "afresh, or restore it from a copy"
    )


BUSY_TIMEOUT = 30.0  # s a connection waits for another process's lock (sqlite's default: 5)


@contextmanager
def errors(path: Path, doing: str) -> Iterator[None]:
    """sqlite3 errors inside, as a StoreError: '<path>: <doing> (<why>); <what to do>'."""
    try:
        yield
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: {doing} ({exc}); {advice(exc)}") from None


def connect(path: Path, *pragmas: str) -> sqlite3.Connection:
    """A connection in autocommit mode that threads may share, with ``pragmas`` applied: the
    first statement is what finds a file that is not a database."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Several processes of a run open its stores at once (a bench's worker graphs):
        # setting the journal mode waits for the others' locks, up to BUSY_TIMEOUT.
        db = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
        )
    except (OSError, sqlite3.Error) as exc:
        raise StoreError(f"{path}: cannot be opened ({exc})") from None
    with errors(path, "cannot be opened"):
        apply_pragmas(db, pragmas)
    return db


def apply_pragmas(db: sqlite3.Connection, pragmas: tuple[str, ...]) -> None:
    """Run ``pragmas`` (idempotent statements), again while another process holds the file,
    up to BUSY_TIMEOUT: SQLite answers 'database is locked' at once, without waiting, when
    processes open a new file together and each must turn it to WAL (measured: 1 in 40 tries
    of 4 processes at once; a bench's worker graphs open the run's stores alike)."""
    deadline = time.monotonic() + BUSY_TIMEOUT
    pause = 0.01
    while True:
        try:
            for pragma in pragmas:
                db.execute(pragma)
            return
        except sqlite3.OperationalError as exc:
            busy = "locked" in str(exc).lower() or "busy" in str(exc).lower()
            if not busy or time.monotonic() + pause > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.5)


def check_writable(db: sqlite3.Connection, path: Path, table: str) -> None:
    """Raise StoreError unless a row could be written to ``table`` now (nothing is kept)."""
    with errors(path, "cannot be written"):
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(f"DELETE FROM {table} WHERE 0")
        finally:
            db.execute("ROLLBACK")


def has_table(path: Path, table: str) -> bool:
    """Whether ``path`` is a SQLite file holding ``table``, read without writing anything
    (an empty or foreign file is not turned into a database by asking)."""
    if path.is_symlink() or not path.is_file() or path.stat().st_size == 0:
        return False
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        found = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
    except sqlite3.Error:
        return False
    finally:
        db.close()
    return found is not None
