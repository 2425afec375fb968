"""The results store of a run: one row per (scene, brain) decision, in SQLite, exported as CSV
and JSONL. Writing a row again replaces it, so reruns and resumes never duplicate one."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

from reacthuman.scenes.spec import Family, SpeedBand
from reacthuman.scoring.metrics import DecisionScore
from reacthuman.spine.outcome import Result


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
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS scores (scene_id TEXT NOT NULL, brain TEXT NOT NULL, "
            "row TEXT NOT NULL, PRIMARY KEY (scene_id, brain))"
        )

    def put(self, row: ScoreRow) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO scores VALUES (?, ?, ?)",
            (row.scene_id, row.brain, row.model_dump_json()),
        )

    def rows(self) -> list[ScoreRow]:
        found = self._db.execute("SELECT row FROM scores ORDER BY brain, scene_id").fetchall()
        return [ScoreRow.model_validate_json(r[0]) for r in found]

    def export(self, folder: str | Path) -> tuple[Path, Path]:
        """``scores.csv`` and ``scores.jsonl``, one line per decision, in a stable order."""
        folder = Path(folder)
        rows = self.rows()
        csv_path, jsonl_path = folder / "scores.csv", folder / "scores.jsonl"
        with csv_path.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=COLUMNS)
            writer.writeheader()
            for row in rows:
                data = row.model_dump(mode="json")
                data["rules"] = " ".join(data["rules"])
                writer.writerow({k: "" if v is None else v for k, v in data.items()})
        jsonl_path.write_text("".join(json.dumps(r.model_dump(mode="json")) + "\n" for r in rows))
        return csv_path, jsonl_path

    def close(self) -> None:
        self._db.close()
