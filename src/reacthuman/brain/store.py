"""The response cache: every decision made, keyed by what made it, in SQLite.

Key: (brain, endpoint, prompt version, observation hash, decoding parameters). A rerun or a
resumed run asks nothing it has asked before. The database runs in WAL mode and each
decision is one transaction, so a run killed at any instant (kill -9 included) keeps every
decision it had finished and never half of one. Decisions whose request failed at the API
(retries exhausted) are not stored, so the next run tries them again.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from reacthuman import sqlite_store
from reacthuman.brain.client import Decision
from reacthuman.observation import read_shown
from reacthuman.safe_files import DOCUMENT_LIMIT, FRAME_LIMIT

SCHEMA = """
CREATE TABLE IF NOT EXISTS decisions (
    key TEXT PRIMARY KEY,
    scene_id TEXT NOT NULL,
    brain TEXT NOT NULL,
    endpoint TEXT,
    prompt_version TEXT NOT NULL,
    observation_hash TEXT NOT NULL,
    decoding TEXT NOT NULL,
    decision TEXT NOT NULL
)
"""


def observation_hash(folder: Path) -> str:
    """Hash of what the brain is shown: observation.json and every frame's bytes, each read
    as a brain may be shown it (``observation.read_shown``: a frame that links out of the
    folder, is no regular file or is too large is an UnsafeFile, a ValueError)."""
    digest = hashlib.sha256()
    observation = read_shown(folder, "observation.json", DOCUMENT_LIMIT)
    digest.update(observation)
    for frame in json.loads(observation)["frames"]:
        digest.update(frame["file"].encode())
        digest.update(read_shown(folder, frame["file"], FRAME_LIMIT))
    return digest.hexdigest()


def decision_key(
    brain: str, endpoint: str | None, prompt_version: str, obs_hash: str, decoding: dict[str, Any]
) -> str:
    parts = [brain, endpoint or "", prompt_version, obs_hash, json.dumps(decoding, sort_keys=True)]
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


class ResponseStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._db = sqlite_store.connect(
            self.path, "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", SCHEMA
        )

    def check_writable(self) -> None:
        """StoreError now, before a run's work, rather than at its first decision."""
        with self._lock:
            sqlite_store.check_writable(self._db, self.path, "decisions")

    def get(self, key: str) -> Decision | None:
        """The decision stored under ``key``; None when there is none, or when the stored one
        no longer reads as a Decision (a row an older version wrote with a token count of
        1.5): it is asked again and its row replaced, instead of crashing every later run."""
        with self._lock, sqlite_store.errors(self.path, "cannot be read"):
            row = self._db.execute(
                "SELECT decision FROM decisions WHERE key = ?", (key,)
            ).fetchone()
        if not row:
            return None
        try:
            return Decision.model_validate_json(row[0])
        except ValidationError:
            return None

    def put(self, key: str, obs_hash: str, decoding: dict[str, Any], decision: Decision) -> None:
        doing = f"cannot record the decision of {decision.brain} on {decision.scene_id}"
        with self._lock, sqlite_store.errors(self.path, doing):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT OR REPLACE INTO decisions VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        key,
                        decision.scene_id,
                        decision.brain,
                        decision.endpoint,
                        decision.prompt_version,
                        obs_hash,
                        json.dumps(decoding, sort_keys=True),
                        decision.model_dump_json(),
                    ),
                )
            except sqlite3.Error:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def rows_of(self, scene_ids: list[str]) -> list[tuple[Any, ...]]:
        """Every stored decision on these scenes, as table rows (``put_rows`` takes them): a
        run's decisions carried to another store (a Ray task's scratch run and back)."""
        marks = ", ".join("?" * len(scene_ids))
        with self._lock, sqlite_store.errors(self.path, "cannot be read"):
            return self._db.execute(
                f"SELECT * FROM decisions WHERE scene_id IN ({marks}) ORDER BY key", scene_ids
            ).fetchall()

    def put_rows(self, rows: list[tuple[Any, ...]]) -> None:
        """Store rows ``rows_of`` gave, in one transaction."""
        with self._lock, sqlite_store.errors(self.path, "cannot record decisions"):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(
                    "INSERT OR REPLACE INTO decisions VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows
                )
            except sqlite3.Error:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def count(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM decisions").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
