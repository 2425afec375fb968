"""The report's Markdown: how a figure is written in a cell, and one function per section
(its heading and table), each returning the section's lines.

Every figure is a percentage or metres with its 95 % bootstrap interval and the number of
decisions behind it; the oracle is marked wherever it appears (it reads ground truth).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from reacthuman.scenes.labels import Action
from reacthuman.scenes.spec import SWEPT_BANDS, Family, SpeedBand
from reacthuman.scoring.aggregate import (
    Stat,
    band_consistency,
    execution_summary,
    execution_validity,
    execution_validity_text,
    majority_vote,
    paired_comparison,
    stat,
    summarise_brain,
)
from reacthuman.scoring.results import ScoreRow

RULES = ("R1", "R2", "R3", "R4")
OUTCOMES = ("caught", "struck", "clear", "fell")
SEVERITIES = ("low", "medium", "high")

PerBrain = dict[Any, list[ScoreRow]]


def label(brain: str) -> str:
    return "oracle (reads ground truth)" if brain == "oracle" else brain


def pct(s: Stat) -> str:
    if s.mean is None or s.low is None or s.high is None:  # all three or none
        return "n/a"
    return f"{100 * s.mean:.1f} [{100 * s.low:.1f}, {100 * s.high:.1f}]"


def points(s: Stat) -> str:
    """A difference of two shares, in percentage points."""
    if s.mean is None or s.low is None or s.high is None:  # all three or none
        return "n/a"
    return f"{100 * s.mean:+.1f} [{100 * s.low:+.1f}, {100 * s.high:+.1f}]"


def metres(s: Stat) -> str:
    return "n/a" if s.mean is None else f"{s.mean:.2f} [{s.low:.2f}, {s.high:.2f}]"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    return [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(r) + " |" for r in rows),
    ]


def _section(heading: str, body: Iterable[str]) -> list[str]:
    """A section after another: a blank line, its heading, a blank line, its body."""
    return ["", f"## {heading}", "", *body]


def introduction(rows: Sequence[ScoreRow], brains: list[str]) -> list[str]:
    """What the run holds and how to read the figures."""
    scenes = len({r.scene_id for r in rows})
    return [
        f"{len(rows)} decisions by {len(brains)} brain(s) on {scenes} scenes. Percentages "
        "and metres with 95 % bootstrap intervals; distance metrics only where the scene "
        "has an impact point (n shown). R1 no parseable output, R2 catch of a dangerous "
        "object, R3 no action under danger, R4 catch or no action where dodging is right.",
        "",
    ]


def execution_validity_section(rows: Sequence[ScoreRow]) -> list[str]:
    """The benchmark's own execution check: the oracle's plans carried out as intended."""
    if not any(r.outcome is not None for r in rows):
        return []
    return ["## Execution validity", "", execution_validity_text(execution_validity(rows)), ""]


def main_results(per: PerBrain, brains: list[str]) -> list[str]:
    """The main table (like the paper's Table 1): one row per brain."""
    table = []
    for brain in brains:
        s = summarise_brain(per[brain])
        d_end_values = [r.d_end for r in per[brain] if r.d_end is not None]
        median = f"{statistics.median(d_end_values):.2f}" if d_end_values else "n/a"
        table.append(
            [
                label(brain),
                str(s.decisions),
                pct(s.saa),
                pct(s.safety),
                f"{metres(s.d_end)} (median {median}, n={s.d_end.n})",
                f"{metres(s.d_end_correct_catch)} (n={s.d_end_correct_catch.n})",
                "n/a" if s.aia.mean is None else f"{s.aia.mean:.2f}",
                metres(s.d_min),
                metres(s.d_closing),
                pct(s.freeze_rate),
                pct(s.unsafe_on_dodge_scenes),
                " / ".join(str(s.primary_rules.get(rule, 0)) for rule in RULES),
            ]
        )
    header = [
        "brain",
        "decisions",
        "SAA %",
        "safe %",
        "d_end m",
        "d_end of right catches m",
        "AIA",
        "d_min m",
        "d_1 - d_min m",
        "freeze %",
        "unsafe on dodge scenes %",
        "R1 / R2 / R3 / R4",
    ]
    return ["## Main results", "", *_table(header, table)]


def _saa_table(
    per: PerBrain,
    brains: list[str],
    name: str,
    groups: list[tuple[str, Any]],
    member: Callable[[ScoreRow, Any], bool],
    skip_empty: bool,
) -> list[str]:
    """SAA of every brain per group (family, speed band), with n; "-" where it has none."""
    rows = []
    for title, group in groups:
        cells = []
        for brain in brains:
            s = stat(r.saa for r in per[brain] if member(r, group))
            cells.append("-" if s.mean is None else f"{100 * s.mean:.0f} (n={s.n})")
        if not skip_empty or any(c != "-" for c in cells):
            rows.append([title, *cells])
    return _table([name, *map(label, brains)], rows)


def saa_per_family(per: PerBrain, brains: list[str]) -> list[str]:
    """SAA per event family (families with no decision left out)."""
    groups = [(f.value, f) for f in Family]
    table = _saa_table(per, brains, "family", groups, lambda r, f: r.family is f, True)
    return _section("SAA per family (%)", table)


def saa_per_speed_band(per: PerBrain, brains: list[str]) -> list[str]:
    """SAA per speed band, every band shown."""
    groups = [(b.value, b) for b in SpeedBand]
    table = _saa_table(per, brains, "speed band", groups, lambda r, b: r.speed_band is b, False)
    return _section("SAA per speed band (%)", table)


def execution_outcomes(rows: Sequence[ScoreRow], brains: list[str]) -> list[str]:
    """How executions ended on the body, family by brain: the share that ended as the
    decision's own action intends (catch: caught; dodge, no action: clear) and the counts."""
    if not any(r.outcome is not None for r in rows):
        return []
    controllers = sorted({r.controller for r in rows if r.controller})
    lines = [
        "",
        "## Execution outcomes",
        "",
        f"Every plan executed by {', '.join(controllers) or 'the spine'} from the freeze. "
        "Each cell: the share of executed decisions that ended as intended (a catch caught, "
        "a dodge or no action clear), of how many, then how many ended caught / struck / "
        "clear / fell. R1 decisions are not executed plans and are left out.",
        "",
    ]
    table: list[list[str]] = []
    groups = [(f.value, lambda r, f=f: r.family is f) for f in Family]
    for name, member in [*groups, ("all families", lambda _r: True)]:
        cells = []
        for brain in brains:
            s = execution_summary(r for r in rows if r.brain == brain and member(r))
            share = s.intended_share
            counts = "/".join(str(s.outcomes.get(k, 0)) for k in OUTCOMES)
            cells.append(
                "-" if share is None else f"{100 * share:.0f} % of {s.executed} · {counts}"
            )
        if any(c != "-" for c in cells):
            table.append([name, *cells])
    return lines + _table(["family", *map(label, brains)], table)


def severity(per: PerBrain, brains: list[str]) -> list[str]:
    """SAA and safety per severity of the documented hazard, where the run has authored
    scenes (``reacthuman scenes author``); nothing otherwise."""
    if not any(r.severity for rows in per.values() for r in rows):
        return []
    table = []
    for grade in SEVERITIES:
        cells = []
        for brain in brains:
            mine = [r for r in per[brain] if r.severity == grade]
            saa, safe = stat(r.saa for r in mine), stat(float(r.safe) for r in mine)
            cells.append(
                "-"
                if saa.mean is None or safe.mean is None
                else f"{100 * saa.mean:.0f} / {100 * safe.mean:.0f} (n={saa.n})"
            )
        table.append([grade, *cells])
    return _section(
        "Authored scenes by severity (SAA % / safe %)",
        _table(["severity", *map(label, brains)], table),
    )


def _froze(rows: Iterable[ScoreRow]) -> Stat:
    return stat(float(r.action is Action.NO_ACTION) for r in rows)


def disposition(per: PerBrain, brains: list[str]) -> list[str]:
    """Catch against dodge skill, freezing at slow and fast bands, adversarial objects."""
    table = []
    for brain in brains:
        s = summarise_brain(per[brain])
        slow = _froze(r for r in per[brain] if r.speed_band is SWEPT_BANDS[0])
        faster = _froze(r for r in per[brain] if r.speed_band in SWEPT_BANDS[1:])
        adversarial = stat(r.saa for r in per[brain] if r.adversarial)
        table.append(
            [
                label(brain),
                pct(s.saa_catch_scenes),
                pct(s.saa_dodge_scenes),
                pct(slow),
                pct(faster),
                pct(adversarial),
            ]
        )
    header = [
        "brain",
        "SAA on catch scenes %",
        "SAA on dodge scenes %",
        "freeze % at the slowest band",
        "freeze % at faster bands",
        "SAA on adversarial objects %",
    ]
    return _section("Disposition and speed", _table(header, table))


def paired_comparisons(rows: Sequence[ScoreRow], brains: list[str]) -> list[str]:
    """Every pair of brains on the scenes both decided: the SAA difference and who alone
    was right."""
    pairs = []
    for i, a in enumerate(brains):
        for b in brains[i + 1 :]:
            result = paired_comparison(rows, a, b)
            pairs.append(
                [
                    f"{label(a)} - {label(b)}",
                    str(result["scenes"]),
                    points(result["saa_difference"]),
                    str(result["a_only_right"]),
                    str(result["b_only_right"]),
                ]
            )
    header = [
        "pair",
        "shared scenes",
        "SAA difference (points)",
        "only the first right",
        "only the second right",
    ]
    return _section("Paired comparisons (same scenes)", _table(header, pairs))


def agreement(rows: Sequence[ScoreRow]) -> list[str]:
    """The majority vote's SAA and how often all brains agree."""
    vote = majority_vote(rows)
    text = (
        f"Majority vote SAA {100 * (vote['majority_saa'] or 0):.1f} % on "
        f"{vote['scenes']} scenes; all brains agree on "
        f"{100 * (vote['unanimous_rate'] or 0):.1f} % of scenes"
        + (
            f", and are then right {100 * vote['unanimous_accuracy']:.1f} % of the time."
            if vote["unanimous_accuracy"] is not None
            else "."
        )
    )
    return _section("Agreement between brains", [text])


def speed_bands(per: PerBrain, brains: list[str]) -> list[str]:
    """Whether each brain answers a scene the same at every speed band."""
    table = [
        [
            label(b),
            str(c["groups"]),
            "n/a" if c["all_bands_same"] is None else f"{100 * c['all_bands_same']:.0f}",
            "n/a"
            if c["slowest_fastest_agree"] is None
            else f"{100 * c['slowest_fastest_agree']:.0f}",
        ]
        for b in brains
        for c in [band_consistency(per[b])]
    ]
    header = [
        "brain",
        "scene groups with all 4 bands",
        "same answer at every band %",
        "slowest and fastest agree %",
    ]
    return _section("Speed bands", _table(header, table))
