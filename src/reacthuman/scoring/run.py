"""Score a run: every decision under one or more decision folders against ground truth.

Decision folders are what ``reacthuman decide`` writes (``<family>/<scene_id>/plan.json``);
the observation folder is what ``reacthuman observe`` writes: per scene ``ground_truth.json``
and ``spec.json``, read here, beside the brain's folder ``observation/`` (``reacthuman.layout``).
Files that are missing or corrupt are reported by name and the rest is scored.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from reacthuman.brain.classify import ClassifierConfig
from reacthuman.brain.client import Decision
from reacthuman.documents import first_problem
from reacthuman.layout import GROUND_TRUTH_FILE, SPEC_FILE
from reacthuman.safe_files import DOCUMENT_LIMIT, UnsafeFile, read_inside
from reacthuman.scenes.spec import SceneSpec
from reacthuman.scenes.truth import GroundTruth
from reacthuman.scoring.metrics import score_decision
from reacthuman.scoring.results import ScoreRow
from reacthuman.spine.outcome import ExecutionOutcome


class _Unreadable(ValueError):
    pass


def _load(model, path: Path, root: Path):
    """The file as ``model``, read inside ``root`` (``safe_files``); _Unreadable naming the
    file and its first problem."""
    try:
        data = read_inside(path, root, DOCUMENT_LIMIT)
    except UnsafeFile as exc:
        raise _Unreadable(str(exc)) from None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Unreadable(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        return model.model_validate_json(data)
    except ValidationError as exc:
        raise _Unreadable(f"{path}: unreadable ({exc.title}: {first_problem(exc)})") from None


def score_row(
    decision: Decision,
    truth: GroundTruth,
    spec: SceneSpec,
    outcome: ExecutionOutcome | None = None,
    config: ClassifierConfig | None = None,
) -> ScoreRow:
    """A decision's five metrics with what the analyses group it by (and, after an
    execution, how it ended)."""
    score = score_decision(decision, truth, spec.observer.pos, spec.observer.yaw, config)
    hazard = spec.hazard
    return ScoreRow(
        **score.model_dump(),
        family=spec.family,
        speed_band=spec.speed_band,
        group=spec.group,
        adversarial=spec.adversarial,
        object=hazard.catalogue_name,
        imitates=hazard.imitates,
        r1_reason=decision.r1_reason,
        outcome=None if outcome is None else outcome.result,
        controller=None if outcome is None else outcome.controller,
        severity=None if spec.generator.pin is None else spec.generator.pin.severity,
    )


def score_folders(
    observations: Path, decisions: list[Path], config: ClassifierConfig | None = None
) -> tuple[list[ScoreRow], list[str]]:
    rows: list[ScoreRow] = []
    problems: list[str] = []
    for root in decisions:
        plans = sorted(root.glob("*/*/plan.json"))
        if not plans:
            problems.append(f"{root}: no decisions (plan.json) found")
        for plan_file in plans:
            scene = observations / plan_file.parent.relative_to(root)
            try:
                decision = _load(Decision, plan_file, root)
                truth = _load(GroundTruth, scene / GROUND_TRUTH_FILE, observations)
                spec = _load(SceneSpec, scene / SPEC_FILE, observations)
            except OSError as exc:
                problems.append(f"{exc.filename}: cannot read ({exc.strerror})")
                continue
            except _Unreadable as exc:
                problems.append(str(exc))
                continue
            rows.append(score_row(decision, truth, spec, config=config))
    return rows, problems
