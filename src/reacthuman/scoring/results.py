"""The results store of a run: one row per (scene, brain) decision, in SQLite, exported as CSV
and JSONL. Writing a row again replaces it, so reruns and resumes never duplicate one.

A file that is not SQLite, a damaged database or one the user cannot write is a
``sqlite_store.StoreError`` naming the file and what to do, never a traceback; a stored row
that no longer reads as a score (written by another version, edited by hand) counts as not
scored, so a resumed run scores that decision again and replaces it.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from reacthuman import sqlite_store
from reacthuman.out_folder import inside
from reacthuman.scenes.spec import Family, SpeedBand
from reacthuman.scoring.metrics import DecisionScore
from reacthuman.spine.outcome import Result
from reacthuman.sqlite_store import StoreError


class ScoreRow(DecisionScore):
    """A scored decision with what the analyses group it by."""

    family: Family
    speed_band: SpeedBand
    group: int
    adversarial: bool
    object: str
    imitates: str | None
    r1_reason: str | None = None
    outcome: Result | None = None  # how the execution ended, where the plan was executed
    controller: str | None = None
    severity: str | None = None  # an authored scene's graded outcome (low, medium, high)

    def summary(self) -> str:
        """One progress line: brain, scene, what it did, what was right, how it ended."""
        action = self.action.value if self.action is not None else "R1"
        outcome = self.outcome.value if self.outcome is not None else "-"
        return (
            f"{self.brain:<14} {self.scene_id:<24} {action:<14} "
            f"truth {self.true_action.value:<14} {outcome}"
        )


COLUMNS = list(ScoreRow.model_fields)


class ResultsStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.unreadable = 0  # stored rows the last rows() could not read as scores
        self._db = sqlite_store.connect(
            self.path,
            "PRAGMA journal_mode=WAL",
            "CREATE TABLE IF NOT EXISTS scores (scene_id TEXT NOT NULL, brain TEXT NOT NULL, "
            "row TEXT NOT NULL, PRIMARY KEY (scene_id, brain))",
        )

    def check_writable(self) -> None:
        """StoreError now, before a run's work, rather than at its first score."""
        sqlite_store.check_writable(self._db, self.path, "scores")

    def put(self, row: ScoreRow) -> None:
        with sqlite_store.errors(
            self.path, f"cannot record the score of {row.brain} on {row.scene_id}"
        ):
            self._db.execute(
                "INSERT OR REPLACE INTO scores VALUES (?, ?, ?)",
                (row.scene_id, row.brain, row.model_dump_json()),
            )

    def rows(self) -> list[ScoreRow]:
        """Every row that reads as a score (``unreadable`` counts the others)."""
        with sqlite_store.errors(self.path, "cannot be read"):
            found = self._db.execute("SELECT row FROM scores ORDER BY brain, scene_id").fetchall()
        rows: list[ScoreRow] = []
        self.unreadable = 0
        for (text,) in found:
            try:
                rows.append(ScoreRow.model_validate_json(text))
            except (ValueError, TypeError):
                self.unreadable += 1
        return rows

    def export(self, folder: str | Path) -> tuple[Path, Path]:
        """``scores.csv`` and ``scores.jsonl``, one line per decision, in a stable order."""
        folder = Path(folder)
        rows = self.rows()
        csv_path, jsonl_path = folder / "scores.csv", folder / "scores.jsonl"
        inside(folder, csv_path), inside(folder, jsonl_path)  # never through a link
        try:
            with csv_path.open("w", newline="") as handle:
                writer = csv.DictWriter(handle, fieldnames=COLUMNS)
                writer.writeheader()
                for row in rows:
                    data = row.model_dump(mode="json")
                    data["rules"] = " ".join(data["rules"])
                    writer.writerow({k: "" if v is None else v for k, v in data.items()})
            jsonl_path.write_text(
                "".join(json.dumps(r.model_dump(mode="json")) + "\n" for r in rows)
            )
        except OSError as exc:
            raise StoreError(
                f"{folder}: cannot write the scores ({exc}); the rows stay in {self.path}: "
                "make the folder writable and export again (reacthuman score/report)"
            ) from None
        return csv_path, jsonl_path

    def close(self) -> None:
        self._db.close()
