"""The validity report of a scene set: is each scene the decision problem the paper poses?

``reacthuman scenes validity SET`` prints (and ``--json`` writes) four checks, from each
scene's metadata: measured when the set was generated with ``--simulate``, designed otherwise.

1. **Decision moment** (``scenes.moment``): per family and speed band, the window and the
   reaction margin from the freeze to arrival or landing (min / median / max), and how many
   scenes keep their band's margin.
2. **Speed bands**: per swept family, the arrival speed per band (median) and, per scene
   group, whether it rises with the band and by how much from slow to very fast.
3. **Labels**: the catch / dodge / no-action split against the paper's 141 / 156 / 9.
4. **Adversarial objects**: the twin test of each (``scenes.twin``): how far its window is from
   its genuine look-alike's.
"""

from __future__ import annotations

import statistics
from collections import defaultdict

from pydantic import BaseModel, ConfigDict

from reacthuman.scenes.generate import MIN_SPEED_RATIO
from reacthuman.scenes.labels import Action
from reacthuman.scenes.moment import REACTION_MARGIN
from reacthuman.scenes.sets import Scene
from reacthuman.scenes.spec import SWEPT_BANDS, Family, SpeedBand

VALIDITY_FILE = "validity.json"  # in a run folder: the checks of the scenes it ran on
PAPER_LABELS = {Action.EXECUTE_CATCH: 141, Action.TRIGGER_DODGE: 156, Action.NO_ACTION: 9}


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
    groups: int  # complete groups (all four bands)
    rising: int  # groups whose arrival speed rises with every band
    ratio: Spread  # very fast / slow per group


class TwinRow(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    scene_id: str
    object: str
    twin: str
    trajectory_gap: float
    pixel_share: float
    passed: bool
    label: Action


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


def validity(scenes: list[Scene]) -> Validity:
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
        speeds = {
            band: _median(
                [
                    s.metadata.moment.arrival_speed
                    for s in mine
                    if s.spec.speed_band is band and s.metadata.moment.arrival_speed is not None
                ]
            )
            for band in SWEPT_BANDS
        }
        groups: dict[int, dict[SpeedBand, float | None]] = defaultdict(dict)
        for s in mine:
            groups[s.spec.group][s.spec.speed_band] = s.metadata.moment.arrival_speed
        complete = [g for g in groups.values() if len(g) == len(SWEPT_BANDS)]
        ratios, rising = [], 0
        for g in complete:
            values = [g[b] for b in SWEPT_BANDS]
            if any(v is None or v <= 0 for v in values):
                continue
            rising += all(b > a for a, b in zip(values, values[1:], strict=False))  # type: ignore[operator]
            ratios.append(values[-1] / values[0])  # type: ignore[operator]
        sweeps.append(
            SweepRow(
                family=family,
                speeds=speeds,
                groups=len(complete),
                rising=rising,
                ratio=Spread.of(ratios),
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
            passed=s.metadata.twin.passed,
            label=s.metadata.label,
        )
        for s in scenes
        if s.metadata.twin is not None
    ]
    return Validity(
        source=sources.pop() if len(sources) == 1 else "mixed",
        scenes=len(scenes),
        moments=moments,
        sweeps=sweeps,
        labels=labels,
        paper_labels=PAPER_LABELS,
        adversarial=sum(s.spec.adversarial for s in scenes),
        twins=twins,
    )


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
        "2. Speed bands: median arrival speed (m/s) per band; per group, very fast / slow",
        f"  {'family':<17}{'slow':>7}{'normal':>8}{'fast':>7}{'v.fast':>8}{'groups':>8}"
        f"{'rising':>8}{'ratio min':>11}{'median':>8}",
    ]
    for sweep in report.sweeps:
        speeds = [sweep.speeds.get(b) for b in SWEPT_BANDS]
        out.append(
            f"  {sweep.family.value:<17}{_f(speeds[0]):>7}{_f(speeds[1]):>8}{_f(speeds[2]):>7}"
            f"{_f(speeds[3]):>8}{sweep.groups:>8}{sweep.rising:>8}{_f(sweep.ratio.min):>11}"
            f"{_f(sweep.ratio.median):>8}"
        )
    out.append(f"  (a group must rise with every band and reach x{MIN_SPEED_RATIO:g})")
    total = max(report.scenes, 1)
    paper_total = sum(report.paper_labels.values())
    out += ["", "3. Labels (this set vs the paper's 306 scenes)"]
    for action in Action:
        n, p = report.labels.get(action, 0), report.paper_labels[action]
        out.append(
            f"  {action.value:<15}{n:>5} ({100 * n / total:5.1f} %)   paper {p:>4} "
            f"({100 * p / paper_total:5.1f} %)"
        )
    out += [
        "",
        f"4. Adversarial objects: {report.adversarial} scenes; twin test against the genuine "
        "look-alike (hazard points part by, share of pixels that differ)",
    ]
    for twin in report.twins:
        gap, share = 100 * twin.trajectory_gap, 100 * twin.pixel_share
        out.append(
            f"  {twin.scene_id:<24}{twin.object:<27} vs {twin.twin:<16}"
            f"{gap:6.1f} cm{share:8.2f} %  {'pass' if twin.passed else 'FAIL'}  "
            f"{twin.label.value}"
        )
    if report.adversarial and not report.twins:
        out.append("  (no twin tests: generate the set with --simulate)")
    return "\n".join(out)


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
            " / ".join(_f(sweep.speeds.get(b)) for b in SWEPT_BANDS) if sweep is not None else "-"
        )
        ratio = (
            f"{sweep.rising}/{sweep.groups}, x{_f(sweep.ratio.min)}"
            if sweep is not None and sweep.groups
            else "-"
        )
        rows.append(
            [
                family.value,
                str(sum(r.scenes for r in mine)),
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
        "window s",
        "margin s",
        "keep their band's margin",
        "arrival m/s slow / normal / fast / v.fast",
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
    lines += ["", f"Labels: {split}."]
    if report.twins:
        passed = sum(t.passed for t in report.twins)
        lines.append(
            f"Adversarial objects: {report.adversarial} scenes; {passed} of "
            f"{len(report.twins)} twin-tested pass against their genuine look-alike (in the "
            "window the hazard paths part by "
            f"{100 * min(t.trajectory_gap for t in report.twins):.1f}-"
            f"{100 * max(t.trajectory_gap for t in report.twins):.1f} cm and "
            f"{100 * min(t.pixel_share for t in report.twins):.2f}-"
            f"{100 * max(t.pixel_share for t in report.twins):.2f} % of a frame's pixels "
            "differ)."
        )
    elif report.adversarial:
        lines.append(
            f"Adversarial objects: {report.adversarial} scenes, not twin-tested (a set "
            "generated without `--simulate`)."
        )
    return lines
