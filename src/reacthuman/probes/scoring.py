"""Judging probe answers, as HumanPhys and VSI-Bench do, and the reference answerers.

A numeric answer scores its mean relative accuracy (MRA): the share of the thresholds
0.50, 0.55, ..., 0.95 at which its relative error is below ``1 - threshold``; so an answer
within 5 % of the label scores 1.0, one 10 % off 0.8, one just under 50 % off 0.1,
one 50 % off or more 0. "Never"
is right only where the label is never (and then only "never" is). A choice answer scores 1
for the right letter, else 0. A missing or unusable answer scores 0 and stays in the
denominator, as HumanPhys's overall score keeps it.

Reference answerers: ``oracle`` (the label: 1.0 everywhere, the check that labels and
judgments agree), ``prior`` (one constant answer per kind and form, the set's median label or
its most common letter: what a model scores without looking) and ``monocular`` (pixels
without physics: ``probes.monocular``).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from reacthuman.probes.labels import NEVER, Form, Kind, Probe

THRESHOLDS = tuple(round(0.50 + 0.05 * i, 2) for i in range(10))
BASELINES = ("oracle", "prior", "monocular")

Answer = float | str | None  # a number, "never", a letter; None: no usable answer


class ProbeResult(BaseModel):
    """One answerer's answer to one probe, and its score."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    probe_id: str
    scene_id: str
    brain: str
    kind: Kind
    form: Form
    family: str
    speed_band: str
    answer: float | str | None
    score: float
    unusable: str | None = None  # why the reply could not be used, where it could not


def mra(answer: float, label: float) -> float:
    """Mean relative accuracy of ``answer`` against a non-zero ``label``."""
    if label == 0:
        raise ValueError("MRA needs a non-zero label")
    error = abs(answer - label) / abs(label)
    return sum(error < 1 - theta for theta in THRESHOLDS) / len(THRESHOLDS)


def judge(probe: Probe, answer: Answer) -> float:
    """The score of ``answer`` to ``probe`` (0 for no answer)."""
    if answer is None:
        return 0.0
    if probe.form is Form.choice:
        return float(isinstance(answer, str) and answer.strip().upper() == probe.label)
    if probe.label is None:  # never
        return float(answer == NEVER)
    if isinstance(answer, str) or isinstance(probe.label, str):
        return 0.0
    return mra(float(answer), float(probe.label))


def result(probe: Probe, brain: str, answer: Answer, unusable: str | None = None) -> ProbeResult:
    return ProbeResult(
        probe_id=probe.probe_id,
        scene_id=probe.scene_id,
        brain=brain,
        kind=probe.kind,
        form=probe.form,
        family=probe.family,
        speed_band=probe.speed_band,
        answer=answer,
        score=judge(probe, answer),
        unusable=unusable,
    )


def prior_answers(probes: Sequence[Probe]) -> dict[tuple[Kind, Form], Answer]:
    """The constant guess per kind and form: the median numeric label ("never" where most
    labels are never), or the most common right letter (ties: the earliest letter)."""
    groups: dict[tuple[Kind, Form], list[Probe]] = {}
    for probe in probes:
        groups.setdefault((probe.kind, probe.form), []).append(probe)
    answers: dict[tuple[Kind, Form], Answer] = {}
    for key, members in groups.items():
        labels = [p.label for p in members]
        if key[1] is Form.choice:
            counts = Counter(labels)
            answers[key] = min(counts, key=lambda letter: (-counts[letter], str(letter)))
            continue
        numbers = [float(v) for v in labels if isinstance(v, int | float)]
        if len(numbers) * 2 < len(labels):
            answers[key] = NEVER
        else:
            answers[key] = statistics.median(numbers)
    return answers


def run_baselines(
    brains: Sequence[str], probes: Sequence[Probe], monocular: Sequence[Answer] | None = None
) -> list[ProbeResult]:
    """Every probe answered by each reference answerer in ``brains``; ``monocular``: the
    monocular heuristic's answers, probe by probe (``probes.monocular``, which reads the
    frames), where it is one of them."""
    unknown = sorted(set(brains) - set(BASELINES))
    if unknown:
        raise ValueError(
            f"unknown probe baseline(s) {', '.join(unknown)}; choose from {', '.join(BASELINES)}"
        )
    if "monocular" in brains and (monocular is None or len(monocular) != len(probes)):
        raise ValueError("the monocular baseline reads the frames: give the observation set")
    prior = prior_answers(probes)
    out = []
    for brain in brains:
        for n, probe in enumerate(probes):
            answer: Answer
            if brain == "oracle":
                answer = NEVER if probe.label is None else probe.label
            elif brain == "prior":
                answer = prior[(probe.kind, probe.form)]
            else:
                assert monocular is not None
                answer = monocular[n]
            out.append(result(probe, brain, answer))
    return out


def rescore(probes: Sequence[Probe], answered: Sequence[ProbeResult]) -> list[ProbeResult]:
    """A model's stored answers judged again against ``probes`` (the probe file is the
    authority: an answer to a probe it does not hold is refused, a probe without an answer
    is scored 0 as unanswered)."""
    by_id = {p.probe_id: p for p in probes}
    strays = sorted({r.probe_id for r in answered} - set(by_id))
    if strays:
        raise ValueError(
            f"{len(strays)} answer(s) to probes not in the probe file: {', '.join(strays[:5])}"
        )
    brains = {r.brain for r in answered}
    out = []
    for brain in sorted(brains):
        mine = {r.probe_id: r for r in answered if r.brain == brain}
        for probe in probes:
            found = mine.get(probe.probe_id)
            if found is None:
                out.append(result(probe, brain, None, "not answered"))
            else:
                out.append(result(probe, brain, found.answer, found.unusable))
    return out
