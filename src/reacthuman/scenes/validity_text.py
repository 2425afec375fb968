"""The validity report in words: the text ``reacthuman scenes validity`` prints, and the
section a benchmark report gives it (``validity_markdown``).
"""

from __future__ import annotations

from reacthuman.scenes.design import MIN_SPEED_RATIO
from reacthuman.scenes.labels import Action
from reacthuman.scenes.moment import REACTION_MARGIN
from reacthuman.scenes.spec import SWEPT_BANDS, Family, SpeedBand
from reacthuman.scenes.twin import (
    CLOSEUP_WIDTH_PX,
    MIN_CLOSEUP_SHIFT,
    MIN_PIXEL_SHARE,
    MIN_TRAJECTORY_GAP,
)
from reacthuman.scenes.validity import (
    MAX_DISPOSITION_SAA,
    MIN_CLOSEUP_SPAN_PX,
    MIN_HEAD_SPAN_PX,
    MIN_MOTION_PX,
    MIN_YIELD,
    TARGET_SHARES,
    MomentRow,
    Validity,
)


def _f(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def format_validity(report: Validity) -> str:
    """The report as text tables a person reads in a terminal (and docs/BENCHMARKS quote)."""
    out = [
        f"{report.scenes} scenes; figures {report.source} "
        "(simulated: measured in Genesis; intended: the samplers' design)",
        "",
        "1. Decision moment: seconds from the freeze to arrival in the reach zone or landing",
        f"  {'family':<17}{'band':<10}{'n':>3}{'window':>12}{'margin min':>12}{'median':>8}"
        f"{'max':>7}{'kept':>8}",
    ]
    for row in report.moments:
        window = (
            f"{_f(row.window.min)}-{_f(row.window.max)}"
            if row.window.min != row.window.max
            else _f(row.window.min)
        )
        out.append(
            f"  {row.family.value:<17}{row.band.value:<10}{row.scenes:>3}{window:>12}"
            f"{_f(row.margin.min):>12}{_f(row.margin.median):>8}{_f(row.margin.max):>7}"
            f"{row.kept:>5}/{row.scenes:<2} (>= {row.required:g} s)"
        )
    strict = [
        r for r in report.moments if r.band in (SpeedBand.slow, SpeedBand.normal, SpeedBand.gravity)
    ]
    loose = [r for r in report.moments if r not in strict]
    kept_strict = sum(r.kept for r in strict)
    total_strict = sum(r.scenes for r in strict)
    kept_loose = sum(r.kept for r in loose)
    total_loose = sum(r.scenes for r in loose)
    lowest = min((r.margin.min for r in report.moments if r.margin.min is not None), default=None)
    out += [
        f"  slow, normal, gravity: {kept_strict}/{total_strict} keep 0.5 s; fast, very fast: "
        f"{kept_loose}/{total_loose} keep 0.3 s; shortest margin anywhere {_f(lowest)} s",
        "",
        "2. Speed bands: median speed at the hands (m/s) per band; per group, very fast / slow",
        "   (and of the arrival speed, as the hazard enters the reach zone)",
        f"  {'family':<17}{'slow':>7}{'normal':>8}{'fast':>7}{'v.fast':>8}{'groups':>8}"
        f"{'rising':>8}{'ratio min':>11}{'median':>8}{'arrival min':>13}",
    ]
    for sweep in report.sweeps:
        peaks = [sweep.peaks.get(b) for b in SWEPT_BANDS]
        arrival = sweep.arrival_ratio.min if sweep.arrival_ratio is not None else None
        out.append(
            f"  {sweep.family.value:<17}{_f(peaks[0]):>7}{_f(peaks[1]):>8}{_f(peaks[2]):>7}"
            f"{_f(peaks[3]):>8}{sweep.groups:>8}{sweep.rising:>8}{_f(sweep.ratio.min):>11}"
            f"{_f(sweep.ratio.median):>8}{_f(arrival):>13}"
        )
    out.append(f"  (a group must rise with every band and reach x{MIN_SPEED_RATIO:g} at the hands)")
    out += ["", "3. Labels (this set vs the paper's 306 scenes) and fixed dispositions"]
    out += _label_lines(report)
    out += ["", "4. Yield: scene groups kept of those the schedule tried, per family"]
    if not report.yields:
        out.append("  (not known: the set's manifest was not read)")
    for kept in report.yields:
        flag = "" if kept.share >= MIN_YIELD else f"   below {100 * MIN_YIELD:.0f} %"
        out.append(
            f"  {kept.family.value:<17}{kept.kept:>4}/{kept.groups:<4}{100 * kept.share:6.0f} %"
            + flag
        )
        out += [f"      skipped: {r}" for r in kept.reasons[:3]]
    if report.yields:
        worst = min(report.yields, key=lambda r: r.share)
        out.append(
            f"  lowest: {worst.family.value} {100 * worst.share:.0f} % (every family needs "
            f"{100 * MIN_YIELD:.0f} %)"
        )
    out += ["", *_adversarial_lines(report)]
    out += ["", *_in_view_lines(report)]
    return "\n".join(out)


def _in_view_lines(report: Validity) -> list[str]:
    out = [
        "6. Hazards in view, measured on the rendered frames (px of a 640-px-wide frame): span "
        f"at the freeze in the close-up (>= {MIN_CLOSEUP_SPAN_PX:g}) and the head camera "
        f"(>= {MIN_HEAD_SPAN_PX:g}), move over the window in the best view (>= "
        f"{MIN_MOTION_PX:g}; the hazard or what sets it going)",
        f"  {'family':<17}{'n':>4}{'close-up min':>14}{'median':>8}{'head min':>10}{'median':>8}"
        f"{'move min':>10}{'median':>8}{'met':>10}",
    ]
    if not report.in_view:
        return [*out, "  (not measured: generate the set with --simulate)"]
    for row in report.in_view:
        out.append(
            f"  {row.family.value:<17}{row.scenes:>4}{_f(row.closeup_span.min, 0):>14}"
            f"{_f(row.closeup_span.median, 0):>8}{_f(row.head_span.min, 0):>10}"
            f"{_f(row.head_span.median, 0):>8}{_f(row.motion.min, 0):>10}"
            f"{_f(row.motion.median, 0):>8}{row.met:>6}/{row.scenes:<3}"
        )
    met = sum(r.met for r in report.in_view)
    total = sum(r.scenes for r in report.in_view)
    out.append(f"  all: {met}/{total} scenes ({100 * met / max(total, 1):.1f} %) meet all three")
    failing = [f for r in report.in_view for f in r.failing]
    out += [f"      {f}" for f in failing[:12]]
    if len(failing) > 12:
        out.append(f"      ... and {len(failing) - 12} more (--json lists them all)")
    return out


def _label_lines(report: Validity) -> list[str]:
    total = max(report.scenes, 1)
    paper_total = sum(report.paper_labels.values())
    out = []
    for action in Action:
        n, p = report.labels.get(action, 0), report.paper_labels[action]
        low, high = TARGET_SHARES[action]
        share = 100 * n / total
        flag = "" if low <= share <= high else f"   outside {low:g}-{high:g} %"
        out.append(
            f"  {action.value:<15}{n:>5} ({share:5.1f} %)   paper {p:>4} "
            f"({100 * p / paper_total:5.1f} %){flag}"
        )
    for name, saa in (("always-catch", report.always_catch), ("always-dodge", report.always_dodge)):
        flag = "" if saa <= MAX_DISPOSITION_SAA else f"   above {MAX_DISPOSITION_SAA:g} %"
        out.append(f"  {name:<15}SAA {saa:5.1f} %{flag}")
    return out


def _adversarial_lines(report: Validity) -> list[str]:
    dodges = report.adversarial_labels.get(Action.TRIGGER_DODGE, 0)
    out = [
        f"5. Adversarial objects: {report.adversarial} scenes, {dodges} of them dodges "
        f"(at least a third must be); twin test against the genuine look-alike: hazard "
        f"points part by (>= {100 * MIN_TRAJECTORY_GAP:.0f} cm), and in the close-up by "
        f"(>= {CLOSEUP_WIDTH_PX * MIN_CLOSEUP_SHIFT:.0f} px of {CLOSEUP_WIDTH_PX}), share of "
        "close-up pixels that differ "
        f"(>= {100 * MIN_PIXEL_SHARE:.2f} %), whether it shows heavier or lighter than the "
        "twin (heavier where a dodge), and the gap to the twin at the neighbouring bands"
    ]
    for twin in report.twins:
        gap, share = 100 * twin.trajectory_gap, 100 * twin.pixel_share
        near = ", ".join(
            f"{band.value} {100 * g:.1f} cm" for band, g in twin.neighbour_gaps.items()
        )
        out.append(
            f"  {twin.scene_id:<24}{twin.object:<27} vs {twin.twin:<16}"
            f"{gap:6.1f} cm{CLOSEUP_WIDTH_PX * twin.closeup_shift:6.0f} px{share:7.2f} %  "
            + {True: "heavier  ", False: "lighter  ", None: ""}[twin.shows_heavier]
            + f"{'pass' if twin.passed else 'FAIL'}  {twin.label.value}"
            + (f"  (neighbours: {near})" if near else "")
        )
    if report.adversarial and not report.twins:
        out.append("  (no twin tests: generate the set with --simulate)")
    return out


def _range(low: float | None, high: float | None) -> str:
    if low is None or high is None:
        return "-"
    return _f(low) if _f(low) == _f(high) else f"{_f(low)}-{_f(high)}"


def _kept_sentence(strict: list[MomentRow], loose: list[MomentRow]) -> list[str]:
    """How many scenes keep their band's margin, for the band groups the set has."""
    out = []
    for rows, bands, need in (
        (strict, "slow, normal and gravity", REACTION_MARGIN[SpeedBand.slow]),
        (loose, "fast and very fast", REACTION_MARGIN[SpeedBand.fast]),
    ):
        if rows:
            out.append(
                f"{sum(r.kept for r in rows)}/{sum(r.scenes for r in rows)} {bands} scenes "
                f"keep {need:g} s."
            )
    return out


def validity_markdown(report: Validity) -> list[str]:
    """The report's "Validity of the scenes" section: the benchmark's own checks, per family,
    so that a reader sees the decision problem was the paper's before reading any score."""
    strict_bands = (SpeedBand.slow, SpeedBand.normal, SpeedBand.gravity)
    strict = [r for r in report.moments if r.band in strict_bands]
    loose = [r for r in report.moments if r.band not in strict_bands]
    lowest = min((r.margin.min for r in report.moments if r.margin.min is not None), default=None)
    lines = [
        f"Figures {report.source} (simulated: measured in Genesis when the set was generated "
        "with `--simulate`; intended: the samplers' design). Reaction margin: seconds from the "
        "freeze to the hazard entering the reach zone or landing.",
        *_kept_sentence(strict, loose),
        f"The shortest margin is {_f(lowest)} s.",
        "",
    ]
    sweeps = {row.family: row for row in report.sweeps}
    kept_groups = {row.family: row for row in report.yields}
    rows = []
    for family in Family:
        mine = [r for r in report.moments if r.family is family]
        if not mine:
            continue
        windows = [x for r in mine for x in (r.window.min, r.window.max) if x is not None]
        margins_min = [r.margin.min for r in mine if r.margin.min is not None]
        margins_max = [r.margin.max for r in mine if r.margin.max is not None]
        sweep = sweeps.get(family)
        speeds = (
            " / ".join(_f(sweep.peaks.get(b)) for b in SWEPT_BANDS) if sweep is not None else "-"
        )
        ratio = (
            f"{sweep.rising}/{sweep.groups}, x{_f(sweep.ratio.min)}"
            if sweep is not None and sweep.groups
            else "-"
        )
        family_groups = kept_groups.get(family)
        rows.append(
            [
                family.value,
                str(sum(r.scenes for r in mine)),
                "-" if family_groups is None else f"{family_groups.kept}/{family_groups.groups}",
                _range(min(windows, default=None), max(windows, default=None)),
                _range(min(margins_min, default=None), max(margins_max, default=None)),
                f"{sum(r.kept for r in mine)}/{sum(r.scenes for r in mine)}",
                speeds,
                ratio,
            ]
        )
    header = [
        "family",
        "scenes",
        "groups kept",
        "window s",
        "margin s",
        "keep their band's margin",
        "at the hands m/s slow / normal / fast / v.fast",
        "groups rising, min v.fast/slow",
    ]
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    total = max(report.scenes, 1)
    split = ", ".join(
        f"{a.value} {report.labels.get(a, 0)} ({100 * report.labels.get(a, 0) / total:.0f} %, "
        f"paper {report.paper_labels[a]})"
        for a in Action
    )
    lines += [
        "",
        f"Labels: {split}. A fixed disposition scores: always-catch {report.always_catch:.1f} % "
        f"SAA, always-dodge {report.always_dodge:.1f} % (each at most "
        f"{MAX_DISPOSITION_SAA:g} % on a valid set).",
    ]
    if report.yields:
        worst = min(report.yields, key=lambda r: r.share)
        kept = sum(r.kept for r in report.yields)
        tried = sum(r.groups for r in report.yields)
        lines.append(
            f"Scene groups kept: {kept} of the {tried} the schedule tried; the lowest family "
            f"{worst.family.value} {100 * worst.share:.0f} % (at least {100 * MIN_YIELD:.0f} % "
            "in every family)."
        )
    dodges = report.adversarial_labels.get(Action.TRIGGER_DODGE, 0)
    if report.twins:
        passed = sum(t.passed for t in report.twins)
        near = [g for t in report.twins for g in t.neighbour_gaps.values()]
        lines.append(
            f"Adversarial objects: {report.adversarial} scenes, {dodges} of them dodges; "
            f"{passed} of {len(report.twins)} twin-tested pass against their genuine "
            "look-alike (in the window the hazard paths part by "
            f"{100 * min(t.trajectory_gap for t in report.twins):.1f}-"
            f"{100 * max(t.trajectory_gap for t in report.twins):.1f} cm"
            + (
                f", and by {100 * min(near):.1f} cm at least from the twin at a neighbouring band"
                if near
                else ""
            )
            + f"; {100 * min(t.pixel_share for t in report.twins):.2f}-"
            f"{100 * max(t.pixel_share for t in report.twins):.2f} % of a close-up frame's "
            "pixels differ"
            + (
                f"; {sum(t.reads_right for t in cued)} of {len(cued)} with a mass cue show "
                "heavier than the twin where they are dodges, lighter where catches"
                if (cued := [t for t in report.twins if t.shows_heavier is not None])
                else ""
            )
            + ")."
        )
    elif report.adversarial:
        lines.append(
            f"Adversarial objects: {report.adversarial} scenes, {dodges} of them dodges, not "
            "twin-tested (a set generated without `--simulate`)."
        )
    return lines
