"""What a bench run is, typed: built once by the command line from its options, handed to
the episodes of this process, to worker processes and to Ray tasks as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from reacthuman.scoring.results import ScoreRow
from reacthuman.sim.settings import RenderSettings


class PoolError(RuntimeError):
    """What keeps a pool from running (Ray not there, a node of another version): one line a
    user can act on; the command line prints it as its error."""


class RunConfig(BaseModel):
    """Every choice the episodes of a run depend on (``reacthuman bench``'s options once
    checked): the same in every worker, so the shards of a run score as one process would."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    out: Path  # the run folder (a Ray task's: its scratch run)
    scenes: str = "default"  # a scene-set folder, or the embedded default
    limit: int | None = Field(default=None, ge=1)  # only the first N scenes of the set
    brains: tuple[str, ...]  # baseline brains, then models at base_url
    base_url: str | None = None
    api_key_env: str | None = None
    settings: RenderSettings = RenderSettings()
    brain_timeout: float = 120.0
    controller: str = "g1"
    policy_path: str | None = None
    videos: bool = False
    legend: bool = False
    episodes_per_process: int | None = Field(default=None, ge=0)  # None: the parameter file's
    record: bool = True  # rosbag2 bags (the node graph only)
    spine_link: Literal["ros", "unitree"] = "ros"
    params: str | None = None  # the parameter file; None: config/bench.yaml
    direct: bool = False  # in process without ROS 2, or through the node graph

    def with_files_absolute(self) -> RunConfig:
        """The file options resolved here, for a process that runs in another folder (a Ray
        task's, on whatever node)."""
        resolve = {"policy_path": self.policy_path, "params": self.params}
        return self.model_copy(
            update={key: str(Path(value).resolve()) for key, value in resolve.items() if value}
        )


class Shard(BaseModel):
    """One worker's share of a run: every ``count``-th scene from the ``index``-th
    (0-based) of the run's scenes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    index: int = Field(ge=0)
    count: int = Field(ge=1)

    @model_validator(mode="after")
    def _index_in_range(self) -> Shard:
        if self.index >= self.count:
            raise ValueError(f"shard {self.label}: the index must be below the count")
        return self

    @property
    def label(self) -> str:
        return f"{self.index}/{self.count}"


class WorkerJob(BaseModel):
    """What ``python -m reacthuman.pool.worker JOB.json`` runs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    config: RunConfig
    shard: Shard


def send_row(pipe: IO[bytes], row: ScoreRow) -> None:
    """In the worker: one score row, just written to its run folder, to its starter (one line
    of JSON; ``row_of`` reads it back)."""
    pipe.write(json.dumps({"row": row.model_dump_json()}).encode() + b"\n")
    pipe.flush()


def row_of(line: bytes) -> ScoreRow:
    """A line ``send_row`` wrote, as the score row it carries."""
    return ScoreRow.model_validate_json(json.loads(line)["row"])
