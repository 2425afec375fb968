"""Helpers the tests share (fixtures are in conftest.py): running the ``reacthuman`` command and
ROS 2 nodes in fresh processes, each node on a DDS domain of its own."""

from __future__ import annotations

import csv
import fcntl
import json
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from reacthuman.scenes.labels import Action, SafetyLabel
from reacthuman.scenes.spec import Family, SpeedBand
from reacthuman.scenes.truth import GroundTruth, Obstacle, TrajectoryPoint
from reacthuman.scoring.results import ScoreRow

REPO = Path(__file__).resolve().parents[1]


def graph_env() -> dict[str, str]:
    """A node process's environment: a DDS domain of its own, discovery on loopback only."""
    from reacthuman.ros.graph import DOMAIN_IDS, choose_domain

    ids = list(range(DOMAIN_IDS[0], DOMAIN_IDS[1] + 1))
    random.shuffle(ids)
    env = dict(os.environ)
    env.update(
        ROS_DOMAIN_ID=str(choose_domain(ids)),  # held by this process, lent to its children
        ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST",
        AMENT_PREFIX_PATH=sys.prefix,
        PYTHONUNBUFFERED="1",
    )
    return env


def node_command(node: str, **params: object) -> list[str]:
    """``python -m reacthuman.ros.<node> --ros-args -p key:=value ...``"""
    args = [arg for key, value in params.items() for arg in ("-p", f"{key}:={value}")]
    return [sys.executable, "-m", f"reacthuman.ros.{node}", "--ros-args", *args]


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``reacthuman`` in a fresh process, as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "reacthuman", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


# The session's reference run (conftest.reference_run): the first three scenes, three brains.
REFERENCE_SCENES = 3
REFERENCE_BRAINS = ("oracle", "always-catch", "no-action")
REFERENCE_OPTIONS = ("--limit", str(REFERENCE_SCENES), "--resolution", "320x180")


@dataclass(frozen=True)
class ReferenceRun:
    """``reacthuman bench --direct`` on the first three scenes with the three brains, bags
    recorded: what the node graph, Ray and Unitree's interface must reproduce byte for byte.
    One run for the session, read by brain, instead of one a module."""

    out: Path
    process: subprocess.CompletedProcess[str]

    def rows(self, brains: Iterable[str]) -> dict[tuple[str, str], str]:
        """``(brain, scene_id) -> score row`` as stored, for ``brains`` only."""
        return score_rows(self.out / "results.sqlite", brains)

    def outcomes(self, brains: Iterable[str]) -> list[Path]:
        """Every episode's outcome.json of ``brains``."""
        return sorted(p for b in brains for p in (self.out / "episodes" / b).glob("*/outcome.json"))

    def csv_rows(self, brains: Iterable[str]) -> list[dict[str, str]]:
        """scores.csv's lines of ``brains``, in the file's order."""
        return csv_rows(self.out / "scores.csv", brains)


def score_rows(path: Path, brains: Iterable[str]) -> dict[tuple[str, str], str]:
    """``(brain, scene_id) -> score row`` of a results.sqlite, for ``brains`` only."""
    wanted = set(brains)
    with sqlite3.connect(path) as db:
        found = db.execute("SELECT brain, scene_id, row FROM scores").fetchall()
    return {(brain, scene): row for brain, scene, row in found if brain in wanted}


def csv_rows(path: Path, brains: Iterable[str]) -> list[dict[str, str]]:
    """A scores.csv's lines of ``brains``, in the file's order."""
    wanted = set(brains)
    with path.open(newline="") as handle:
        return [line for line in csv.DictReader(handle) if line["brain"] in wanted]


def reference_run(root: Path) -> ReferenceRun:
    """The reference bench in ``root/reference``, run by whichever test process asks first
    (conftest's session fixture; the test processes share ``root``) and read by the others."""
    folder = root / "reference"
    folder.mkdir(exist_ok=True)
    out, console = folder / "run", folder / "console.json"
    with (folder / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not console.exists():
            brains = [arg for brain in REFERENCE_BRAINS for arg in ("--brain", brain)]
            command = [sys.executable, "-m", "reacthuman", "bench", "--direct", *brains]
            command += ["--workers", "1", *REFERENCE_OPTIONS, "--out", str(out)]
            done = subprocess.run(command, capture_output=True, text=True, timeout=1200)
            fields = {"returncode": done.returncode, "stdout": done.stdout, "stderr": done.stderr}
            console.write_text(json.dumps(fields))
    fields = json.loads(console.read_text())
    assert fields["returncode"] == 0, fields["stderr"][-3000:]
    return ReferenceRun(out, subprocess.CompletedProcess(["reference"], **fields))


# Score rows for aggregate and report tests: the three actions, and a row by its fields.
C, D, N = Action.EXECUTE_CATCH, Action.TRIGGER_DODGE, Action.NO_ACTION


def row(
    scene: int,
    brain: str,
    action,
    truth,
    *,
    band=SpeedBand.slow,
    group=0,
    d_end=None,
    family=Family.rolling_ball,
    rules=(),
    adversarial=False,
) -> ScoreRow:
    return ScoreRow(
        scene_id=f"{family.value}-{scene:06d}",
        brain=brain,
        family=family,
        speed_band=band,
        group=group,
        adversarial=adversarial,
        object="tennis_ball",
        imitates=None,
        action=action,
        true_action=truth,
        saa=float(action is truth),
        safe=not rules,
        rules=list(rules),
        primary_rule=rules[0] if rules else None,
        d_end=d_end,
        aia=None if action is None else 1.0,
        d_min=d_end,
        d_closing=0.0 if d_end else None,
    )


def hand_truth(
    scene_id: str,
    points: list[tuple[float, tuple[float, float, float]]],
    action: Action = Action.TRIGGER_DODGE,
    *,
    window: float = 0.6,
    reaches: bool = True,
    impact_point: tuple[float, float, float] | None = None,
    arrival_time: float | None = None,
    floor_time: float | None = None,
    size: tuple[float, float, float] | None = None,
    room: tuple[float, float, float] | None = None,
    obstacles: tuple[Obstacle, ...] = (),
) -> GroundTruth:
    """Ground truth written by hand: the hazard's centre at ``points`` (t, position), the
    rest as given (exact paths for tests that need a closed form)."""
    return GroundTruth(
        scene_id=scene_id,
        action=action,
        safety=SafetyLabel(dangerous=action is Action.TRIGGER_DODGE, reasons=[]),
        reaches_observer=reaches,
        impact_point=impact_point,
        impact_time=None,
        time_to_floor=floor_time,
        arrival_time=arrival_time,
        arrival_speed=None,
        arrival_kinetic_energy=None,
        peak_speed=None,
        peak_kinetic_energy=None,
        reaction_margin=None,
        starts_in_reach=False,
        lowest_center=0.0,
        final_center=0.0,
        trajectory=[
            TrajectoryPoint(t=t, pos=p, center=p, quat=(1.0, 0.0, 0.0, 0.0)) for t, p in points
        ],
        window=window,
        physics_dt=1 / 240,
        hazard_size=size,
        room_size=room,
        obstacles=list(obstacles),
    )
