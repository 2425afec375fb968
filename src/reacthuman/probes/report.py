"""Probe scores in tables: per answerer, kind and form, with 95 % bootstrap intervals."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reacthuman.probes.labels import Form, Kind
from reacthuman.probes.scoring import ProbeResult
from reacthuman.scoring.aggregate import Stat, stat


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
