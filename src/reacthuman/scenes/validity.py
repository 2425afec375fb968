"""The validity report of a scene set: is each scene the decision problem the paper poses?

``reacthuman scenes validity SET`` prints (and ``--json`` writes) five checks, from each
scene's metadata (measured when the set was generated with ``--simulate``, designed
otherwise) and the set's manifest:

1. **Decision moment** (``scenes.moment``): per family and speed band, the window and the
   reaction margin from the freeze to arrival or landing (min / median / max), and how many
   scenes keep their band's margin.
2. **Speed bands**: per swept family, the speed at the hands and the arrival speed per band
   (median) and, per scene group, whether the speed at the hands rises with the band and by
   how much from slow to very fast.
3. **Labels**: the catch / dodge / no-action split against the paper's 141 / 156 / 9, and what
   a fixed disposition scores on the set (always-catch, always-dodge).
4. **Yield**: per family, how many scene groups the schedule tried and how many it kept (a
   group is skipped when no design keeps its decision moment or its simulation contradicts
   its spec): a set is the paper's decision problem by design only if few are.
5. **Adversarial objects**: the twin test of each (``scenes.twin``): how far its window is
   from its genuine look-alike's at its own band and the neighbouring ones.
6. **Hazards in view** (simulated sets): per family, how large the hazard shows at the freeze
   in the close-up and the head camera, and how far it (or what sets it going) moves over the
   window in its best view, measured on the rendered frames (``sim.visibility``); how many
   scenes meet all three thresholds.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from reacthuman.scenes.generate import MIN_SPEED_RATIO
from reacthuman.scenes.labels import Action
from reacthuman.scenes.moment import REACTION_MARGIN
from reacthuman.scenes.sets import Scene, SkippedScene
from reacthuman.scenes.spec import SWEPT_BANDS, CameraName, Family, SpeedBand
from reacthuman.scenes.truth import HazardView
from reacthuman.scenes.twin import (
    CLOSEUP_WIDTH_PX,
    MIN_CLOSEUP_SHIFT,
    MIN_PIXEL_SHARE,
    MIN_TRAJECTORY_GAP,
)

VALIDITY_FILE = "validity.json"  # in a run folder: the checks of the scenes it ran on
PAPER_LABELS = {Action.EXECUTE_CATCH: 141, Action.TRIGGER_DODGE: 156, Action.NO_ACTION: 9}
# What any block of seeds must hold (issue 51): the label mix near the paper's, no fixed
# disposition above 56 % SAA, nine scene groups in ten kept in every family, and a third of
# the look-alikes dodges.
TARGET_SHARES = {
    Action.EXECUTE_CATCH: (39.0, 55.0),
    Action.TRIGGER_DODGE: (40.0, 56.0),
    Action.NO_ACTION: (1.0, 6.0),
}
MAX_DISPOSITION_SAA = 56.0
MIN_YIELD = 0.9
MIN_ADVERSARIAL_DODGE = 1.0 / 3.0
# What a person needs to see the hazard (issue 52), in pixels of a 640-px-wide frame: its span
# at the freeze in the close-up and in the head camera, and its move over the window in at
# least one view.
MIN_CLOSEUP_SPAN_PX = 16.0
MIN_HEAD_SPAN_PX = 8.0
MIN_MOTION_PX = 10.0
REFERENCE_WIDTH = 640


class Spread(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    n: int
    min: float | None
    median: float | None
    max: float | None

    @classmethod
    def of(cls, values: list[float]) -> Spread:
        if not values:
            return cls(n=0, min=None, median=None, max=None)
        return cls(
            n=len(values),
            min=round(min(values), 3),
            median=round(statistics.median(values), 3),
            max=round(max(values), 3),
        )


class MomentRow(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    family: Family
    band: SpeedBand
    scenes: int
    window: Spread
    margin: Spread  # s, over scenes where something is decided within the horizon
    kept: int  # scenes whose margin is at least the band's
    required: float


class SweepRow(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    family: Family
    speeds: dict[SpeedBand, float | None]  # median arrival speed per band, m/s
    peaks: dict[SpeedBand, float | None] = {}  # median speed at the hands per band, m/s
    groups: int  # complete groups (all four bands)
    rising: int  # groups whose speed at the hands rises with every band
    ratio: Spread  # very fast / slow speed at the hands per group
    arrival_ratio: Spread | None = None  # very fast / slow arrival speed per group


class YieldRow(BaseModel):
    """How many of a family's scene groups the schedule tried and kept."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    family: Family
    groups: int  # tried: kept and skipped
    kept: int
    reasons: list[str] = []  # why groups were skipped, each once, the most frequent first

    @property
    def share(self) -> float:
        return self.kept / self.groups if self.groups else 1.0


class TwinRow(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    scene_id: str
    object: str
    twin: str
    trajectory_gap: float
    pixel_share: float
    closeup_shift: float = 0.0
    neighbour_gaps: dict[SpeedBand, float] = {}
    # whether its window shows it heavier than the twin (None: no mass cue), and whether that
    # is the way its label reads (heavier where dangerous)
    shows_heavier: bool | None = None
    reads_right: bool = True
    passed: bool
    label: Action


class InViewRow(BaseModel):
    """A family's hazards as the rendered frames show them (pixels of a 640-px-wide frame)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    family: Family
    scenes: int  # with measured views
    closeup_span: Spread
    head_span: Spread
    motion: Spread  # the best view's move of the hazard or what sets it going
    met: int  # scenes meeting all three thresholds
    failing: list[str] = []  # the scenes that do not, with what they miss


def in_view_check(views: Sequence[HazardView]) -> tuple[float, float, float, list[str]]:
    """(close-up span, head span, best motion) in 640-px terms, and what falls short."""
    by_view = {v.view: v for v in views}

    def scaled(view: HazardView, px: float) -> float:
        return px * REFERENCE_WIDTH / view.width

    closeup, head = by_view[CameraName.closeup.value], by_view[CameraName.egocentric.value]
    closeup_span, head_span = scaled(closeup, closeup.span_px), scaled(head, head.span_px)
    motion = max(scaled(v, v.cue_motion_px) for v in views)
    short = []
    if closeup_span < MIN_CLOSEUP_SPAN_PX:
        short.append(f"close-up {closeup_span:.0f} px")
    if head_span < MIN_HEAD_SPAN_PX:
        short.append(f"head {head_span:.0f} px")
    if motion < MIN_MOTION_PX:
        short.append(f"moves {motion:.0f} px")
    return closeup_span, head_span, motion, short


def in_view_rows(scenes: list[Scene]) -> list[InViewRow]:
    rows = []
    for family in Family:
        measured = [s for s in scenes if s.spec.family is family and s.metadata.views]
        if not measured:
            continue
        checks = [(s, in_view_check(s.metadata.views or [])) for s in measured]
        rows.append(
            InViewRow(
                family=family,
                scenes=len(measured),
                closeup_span=Spread.of([c[0] for _s, c in checks]),
                head_span=Spread.of([c[1] for _s, c in checks]),
                motion=Spread.of([c[2] for _s, c in checks]),
                met=sum(not c[3] for _s, c in checks),
                failing=[f"{s.spec.scene_id}: {', '.join(c[3])}" for s, c in checks if c[3]],
            )
        )
    return rows


class Validity(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    source: str  # "simulated", "intended" or "mixed"
    scenes: int
    moments: list[MomentRow]
    sweeps: list[SweepRow]
    labels: dict[Action, int]
    paper_labels: dict[Action, int]
    adversarial: int
    twins: list[TwinRow]
    # % SAA of a fixed disposition: the share of scenes whose label it is
    always_catch: float = 0.0
    always_dodge: float = 0.0
    adversarial_labels: dict[Action, int] = {}
    yields: list[YieldRow] = []  # empty where the set's manifest was not given
    in_view: list[InViewRow] = []  # empty where no scene was simulated


def validity(scenes: list[Scene], skipped: Sequence[SkippedScene] | None = None) -> Validity:
    """The report for ``scenes``; ``skipped``: the set manifest's skipped seeds, for the
    per-family yield (None: not known, no yield)."""
    sources = {s.metadata.label_source for s in scenes}
    cells: dict[tuple[Family, SpeedBand], list[Scene]] = defaultdict(list)
    for scene in scenes:
        cells[(scene.spec.family, scene.spec.speed_band)].append(scene)
    moments = []
    for family in Family:
        for band in [*SWEPT_BANDS, SpeedBand.gravity]:
            cell = cells.get((family, band))
            if not cell:
                continue
            margins = [
                s.metadata.moment.reaction_margin
                for s in cell
                if s.metadata.moment.reaction_margin is not None
            ]
            need = REACTION_MARGIN[band]
            moments.append(
                MomentRow(
                    family=family,
                    band=band,
                    scenes=len(cell),
                    window=Spread.of([s.metadata.moment.window for s in cell]),
                    margin=Spread.of(margins),
                    kept=sum(m >= need - 1e-9 for m in margins) + len(cell) - len(margins),
                    required=need,
                )
            )
    sweeps = []
    for family in Family:
        mine = [s for s in scenes if s.spec.family is family and s.spec.speed_band in SWEPT_BANDS]
        if not mine:
            continue
        groups: dict[int, dict[SpeedBand, Scene]] = defaultdict(dict)
        for s in mine:
            groups[s.spec.group][s.spec.speed_band] = s
        complete = [g for g in groups.values() if len(g) == len(SWEPT_BANDS)]
        ratios, arrival_ratios, rising = [], [], 0
        for g in complete:
            peaks = [g[b].metadata.moment.peak_speed for b in SWEPT_BANDS]
            arrivals = [g[b].metadata.moment.arrival_speed for b in SWEPT_BANDS]
            if arrivals[0] and arrivals[-1]:
                arrival_ratios.append(arrivals[-1] / arrivals[0])
            if any(v is None or v <= 0 for v in peaks):
                continue
            rising += all(b > a for a, b in zip(peaks, peaks[1:], strict=False))  # type: ignore[operator]
            ratios.append(peaks[-1] / peaks[0])  # type: ignore[operator]
        sweeps.append(
            SweepRow(
                family=family,
                speeds=_band_medians(mine, "arrival_speed"),
                peaks=_band_medians(mine, "peak_speed"),
                groups=len(complete),
                rising=rising,
                ratio=Spread.of(ratios),
                arrival_ratio=Spread.of(arrival_ratios),
            )
        )
    labels = {a: sum(s.metadata.label is a for s in scenes) for a in Action}
    twins = [
        TwinRow(
            scene_id=s.spec.scene_id,
            object=s.metadata.object,
            twin=s.metadata.twin.twin,
            trajectory_gap=s.metadata.twin.trajectory_gap,
            pixel_share=s.metadata.twin.pixel_share,
            closeup_shift=s.metadata.twin.closeup_shift,
            neighbour_gaps=s.metadata.twin.neighbour_gaps,
            shows_heavier=s.metadata.twin.shows_heavier,
            reads_right=s.metadata.twin.reads_right,
            passed=s.metadata.twin.passed,
            label=s.metadata.label,
        )
        for s in scenes
        if s.metadata.twin is not None
    ]
    total = max(len(scenes), 1)
    return Validity(
        source=sources.pop() if len(sources) == 1 else "mixed",
        scenes=len(scenes),
        moments=moments,
        sweeps=sweeps,
        labels=labels,
        paper_labels=PAPER_LABELS,
        adversarial=sum(s.spec.adversarial for s in scenes),
        twins=twins,
        always_catch=round(100.0 * labels[Action.EXECUTE_CATCH] / total, 1),
        always_dodge=round(100.0 * labels[Action.TRIGGER_DODGE] / total, 1),
        adversarial_labels={
            a: sum(s.metadata.label is a for s in scenes if s.spec.adversarial) for a in Action
        },
        yields=[] if skipped is None else yields(scenes, skipped),
        in_view=in_view_rows(scenes),
    )


def yields(scenes: list[Scene], skipped: Sequence[SkippedScene]) -> list[YieldRow]:
    """Per family, the scene groups a set kept against those its schedule tried (kept plus
    skipped; a skipped entry is one group: its four bands, or one gravity-paced seed)."""
    rows = []
    for family in Family:
        kept = {s.spec.group for s in scenes if s.spec.family is family}
        lost = [k for k in skipped if k.family is family]
        if not kept and not lost:
            continue
        counts: dict[str, int] = defaultdict(int)
        for k in lost:
            counts[_short_reason(k.reason)] += 1
        reasons = sorted(counts, key=lambda r: -counts[r])
        rows.append(
            YieldRow(
                family=family,
                groups=len(kept) + len(lost),
                kept=len(kept),
                reasons=[f"{counts[r]} x {r}" for r in reasons],
            )
        )
    return rows


def _short_reason(reason: str) -> str:
    """A skip reason without the scene ids and figures that make each one unique."""
    import re

    text = re.sub(r"[a-z_]+-\d{6,}: ", "", reason.split("; ")[0])
    text = re.sub(r"group \d+: ", "", text)
    return re.sub(r"-?\d+\.\d+", "#", text)[:140]


def _band_medians(scenes: list[Scene], field: str) -> dict[SpeedBand, float | None]:
    """The median of a decision-moment figure per swept band."""
    out = {}
    for band in SWEPT_BANDS:
        values = [getattr(s.metadata.moment, field) for s in scenes if s.spec.speed_band is band]
        out[band] = _median([v for v in values if v is not None])
    return out


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None


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
