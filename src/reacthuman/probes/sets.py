"""Probes of an observation set (``reacthuman observe`` output), and the files that hold
probes and their results (JSON lines, one object per line)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from reacthuman.documents import first_problem
from reacthuman.layout import (
    GROUND_TRUTH_FILE,
    OBSERVATION_FILE,
    SPEC_FILE,
    LayoutError,
    brain_folder,
    find_scenes,
)
from reacthuman.observation import read_observation_of
from reacthuman.probes.labels import Probe, probes_for
from reacthuman.probes.scoring import ProbeResult
from reacthuman.safe_files import DOCUMENT_LIMIT, read_inside
from reacthuman.scenes.spec import SceneSpec
from reacthuman.scenes.truth import GroundTruth
from reacthuman.scoring.results import ScoreRow

Row = TypeVar("Row", bound=BaseModel)


class ProbeSetError(ValueError):
    """An observation set or a probe file that probes cannot be made from or read."""


def probes_of_scene(scene: Path) -> list[Probe]:
    """The probes of one scene folder (spec, ground truth and the brain's observation)."""
    files = {
        "spec": scene / SPEC_FILE,
        "ground truth": scene / GROUND_TRUTH_FILE,
        "observation": brain_folder(scene) / OBSERVATION_FILE,
    }
    missing = [f"{name} ({path})" for name, path in files.items() if not path.is_file()]
    if missing:
        raise ProbeSetError(f"{scene}: no {', no '.join(missing)}")

    def parse(model: type[Row], name: str) -> Row:
        # No file that links out of the scene, is no regular file or is too large.
        try:
            return model.model_validate_json(read_inside(files[name], scene, DOCUMENT_LIMIT))
        except ValidationError as exc:
            raise ProbeSetError(f"{files[name]}: {first_problem(exc)}") from None

    try:
        spec, truth = parse(SceneSpec, "spec"), parse(GroundTruth, "ground truth")
        return probes_for(spec, truth, read_observation_of(brain_folder(scene)))
    except ProbeSetError:
        raise
    except OSError as exc:
        raise ProbeSetError(f"{exc.filename}: cannot read ({exc.strerror})") from None
    except ValueError as exc:
        raise ProbeSetError(f"{scene}: {exc}") from None


def scene_folders(root: Path) -> dict[str, Path]:
    """Every scene folder at or under ``root`` (an observation set), by scene id."""
    if not root.exists():
        raise ProbeSetError(f"{root}: no such folder")
    try:
        scenes = find_scenes(root)
    except LayoutError as exc:
        raise ProbeSetError(str(exc)) from None
    if not scenes:
        raise ProbeSetError(f"{root}: no observed scene (no observation/observation.json under it)")
    return {folder.name: folder for folder in scenes}


def probes_of_set(root: Path) -> list[Probe]:
    """The probes of every scene at or under ``root``, scene by scene in folder order."""
    return [probe for scene in scene_folders(root).values() for probe in probes_of_scene(scene)]


def write_jsonl(path: Path, rows: Iterable[BaseModel]) -> None:
    """``rows`` to ``path``, written whole or not at all (a temporary file renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_name(f".{path.name}.partial")
    staging.write_text("".join(row.model_dump_json() + "\n" for row in rows))
    staging.replace(path)


def _read_jsonl(path: Path, model: type[Row]) -> list[Row]:
    """Every line of ``path`` as ``model``; the first bad line named with its field."""
    if not path.is_file():
        raise ProbeSetError(f"{path}: no such file")
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append(model.model_validate_json(line))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "line"
            raise ProbeSetError(f"{path}:{number}: {where}: {first['msg']}") from None
    return rows


def read_probes(path: Path) -> list[Probe]:
    """A probe file as ``reacthuman probes generate`` writes it."""
    probes = _read_jsonl(path, Probe)
    if not probes:
        raise ProbeSetError(f"{path}: no probes in it")
    seen: set[str] = set()
    for probe in probes:
        if probe.probe_id in seen:
            raise ProbeSetError(f"{path}: probe {probe.probe_id} appears twice")
        seen.add(probe.probe_id)
    return probes


def read_results(path: Path) -> list[ProbeResult]:
    """Answers as ``reacthuman probes decide`` writes them."""
    return _read_jsonl(path, ProbeResult)


def read_decisions(path: Path) -> list[ScoreRow]:
    """Scored decisions: a ``scores.jsonl`` (``reacthuman score`` or ``bench``), or the run
    folder that holds one."""
    if path.is_dir():
        path = path / "scores.jsonl"
    rows = _read_jsonl(path, ScoreRow)
    if not rows:
        raise ProbeSetError(f"{path}: no scored decisions in it")
    return rows


def counts(probes: Sequence[Probe]) -> dict[str, int]:
    """How many probes of each kind and form (for a person's summary line)."""
    out: dict[str, int] = {}
    for probe in probes:
        key = f"{probe.kind}/{probe.form}"
        out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items()))
