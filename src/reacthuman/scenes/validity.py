"""The validity report of a scene set: is each scene the decision problem the paper poses?

``reacthuman scenes validity SET`` prints (in words: ``scenes.validity_text``) and ``--json``
writes five checks, from each scene's metadata (measured when the set was generated with
``--simulate``, designed otherwise) and the set's manifest:

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

from reacthuman.scenes.labels import Action
from reacthuman.scenes.moment import REACTION_MARGIN
from reacthuman.scenes.set_models import Scene, SkippedScene
from reacthuman.scenes.spec import SWEPT_BANDS, CameraName, Family, SpeedBand
from reacthuman.scenes.truth import HazardView

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
