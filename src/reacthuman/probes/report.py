"""Probe scores in tables: per answerer, kind and form, with 95 % bootstrap intervals."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from reacthuman.probes.labels import Form, Kind, Probe
from reacthuman.probes.scoring import ProbeResult
from reacthuman.scenes.labels import Action
from reacthuman.scoring.aggregate import Stat, stat
from reacthuman.scoring.report_tables import pct
from reacthuman.scoring.results import ScoreRow


def _cell(s: Stat) -> str:
    if s.mean is None or s.low is None or s.high is None:
        return "n/a"
    return f"{s.mean:.2f} [{s.low:.2f}, {s.high:.2f}]"


def _table(
    results: Sequence[ProbeResult],
    title: str,
    key: Callable[[ProbeResult], str],
    columns: Sequence[str],
) -> list[str]:
    brains = list(dict.fromkeys(r.brain for r in results))
    lines = [
        f"| answerer | {title} | " + " | ".join(columns) + " | all |",
        "|---|---|" + "---:|" * (len(columns) + 1),
    ]
    for brain in brains:
        mine = [r for r in results if r.brain == brain]
        for group in dict.fromkeys(key(r) for r in mine):
            rows = [r for r in mine if key(r) == group]
            cells = [
                _cell(stat([r.score for r in rows if r.form == form]))
                if any(r.form == form for r in rows)
                else ""
                for form in columns
            ]
            lines.append(
                f"| {brain} | {group} | "
                + " | ".join(cells)
                + f" | {_cell(stat([r.score for r in rows]))} |"
            )
    return lines


def report_markdown(results: Sequence[ProbeResult]) -> str:
    """The probe report: scores by kind (MRA for numeric answers, accuracy for choices), by
    family and by speed band, each with its interval over probes."""
    forms = [f.value for f in Form]
    order = {k.value: i for i, k in enumerate(Kind)}
    ranked = sorted(results, key=lambda r: (order[r.kind.value], r.form.value))
    sections = [
        "# Perception probes",
        "",
        "Numeric answers score their mean relative accuracy (MRA over the thresholds 0.50 to "
        "0.95), choices their accuracy; an unusable or missing answer scores 0. Means with "
        "95 % bootstrap intervals over probes.",
        "",
        "## By kind",
        "",
        *_table(ranked, "kind", lambda r: r.kind.value, forms),
        "",
        "## By family",
        "",
        *_table(sorted(results, key=lambda r: r.family), "family", lambda r: r.family, forms),
        "",
        "## By speed band",
        "",
        *_table(
            sorted(results, key=lambda r: r.speed_band), "speed band", lambda r: r.speed_band, forms
        ),
        "",
    ]
    return "\n".join(sections)


PERCEIVED = 0.5  # a numeric probe counts as perceived at MRA >= 0.5: within 30 % of the label
SPEED_BUCKETS = ((0.0, 0.5), (0.5, 2.0), (2.0, 4.0), (4.0, math.inf))  # m/s


def _share(values: Sequence[float]) -> str:
    s = stat(values)
    return pct(s) if s.n else "n/a"


def _bucket(speed: float | None) -> str:
    if speed is None:
        return "no answer"
    for low, high in SPEED_BUCKETS:
        if low <= speed < high:
            return f"{low:g}-{high:g} m/s" if high != math.inf else f">= {low:g} m/s"
    return "no answer"


def _saa_by_perception(
    kind: Kind, numeric: dict[tuple[str, Kind], ProbeResult], saa: dict[str, float]
) -> list[str]:
    """Two cells: SAA over the scenes whose numeric ``kind`` probe was perceived, and over
    those where it was misread (``saa``: by scene; scenes without the probe in neither)."""
    asked = [s for s in saa if (s, kind) in numeric]
    right = [saa[s] for s in asked if numeric[(s, kind)].score >= PERCEIVED]
    wrong = [saa[s] for s in asked if numeric[(s, kind)].score < PERCEIVED]
    return [f"{_share(right)} (n={len(right)})", f"{_share(wrong)} (n={len(wrong)})"]


def decisions_markdown(
    results: Sequence[ProbeResult], probes: Sequence[Probe], rows: Sequence[ScoreRow]
) -> str:
    """Probe accuracy beside decision accuracy for every answerer with both: its SAA on the
    scenes where it perceived the hazard's speed (and its time to reach) against those where
    it did not, and its freeze rate by the speed it perceived, beside the freeze rate by the
    true speed. Empty when no answerer has both."""
    labels = {p.probe_id: p.label for p in probes}
    decided = {(r.brain, r.scene_id): r for r in rows}
    brains = [b for b in dict.fromkeys(r.brain for r in results) if any(k[0] == b for k in decided)]
    if not brains:
        return ""
    lines = [
        "## Perception beside decisions",
        "",
        f"A probe counts as perceived at MRA >= {PERCEIVED} (within 30 % of the label). SAA "
        "and freeze rate (the share of decisions that were no action) in %, with 95 % "
        "bootstrap intervals over scenes; the probe score over the answerer's probes.",
        "",
        "| answerer | scenes | probe score | SAA | SAA, speed perceived | SAA, speed misread | "
        "SAA, time to reach perceived | SAA, time to reach misread |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    freezes = [
        "",
        "### Freeze rate by perceived speed",
        "",
        "The speed each answerer gave for the hazard (its numeric speed probe) against the true "
        "speed, and how often it decided to do nothing in each band.",
        "",
        "| answerer | speed | scenes (perceived) | freeze rate (perceived) | scenes (true) | "
        "freeze rate (true) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for brain in brains:
        mine = [r for r in results if r.brain == brain and (brain, r.scene_id) in decided]
        scenes = list(dict.fromkeys(r.scene_id for r in mine))
        numeric = {(r.scene_id, r.kind): r for r in mine if r.form is Form.numeric}
        saa = {s: decided[(brain, s)].saa for s in scenes}
        by_perception = [
            cell
            for kind in (Kind.speed, Kind.time_to_reach)
            for cell in _saa_by_perception(kind, numeric, saa)
        ]
        lines.append(
            f"| {brain} | {len(scenes)} | {_cell(stat([r.score for r in mine]))} | "
            f"{_share([saa[s] for s in scenes])} | " + " | ".join(by_perception) + " |"
        )
        froze = {s: float(decided[(brain, s)].action is Action.NO_ACTION) for s in scenes}
        perceived: dict[str, list[float]] = {}
        true: dict[str, list[float]] = {}
        for s in scenes:
            answer = numeric.get((s, Kind.speed))
            label = labels.get(f"{s}:{Kind.speed}:{Form.numeric}")
            given = answer.answer if answer is not None else None
            perceived.setdefault(
                _bucket(float(given) if isinstance(given, int | float) else None), []
            ).append(froze[s])
            true.setdefault(
                _bucket(float(label) if isinstance(label, int | float) else None), []
            ).append(froze[s])
        for bucket in [_bucket(low) for low, _high in SPEED_BUCKETS] + ["no answer"]:
            seen, real = perceived.get(bucket, []), true.get(bucket, [])
            if seen or real:
                freezes.append(
                    f"| {brain} | {bucket} | {len(seen)} | {_share(seen)} | {len(real)} | "
                    f"{_share(real)} |"
                )
    return "\n".join(lines + freezes) + "\n"
