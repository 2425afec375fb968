"""A BilliardPhys run: tables per horizon, every answerer's answers graded, the paper's
tables with bootstrap intervals, and the stasis-bias figure.

Per table the three accuracies are its own (Q1: the share of its object balls judged right;
Q2: 1 or 0; Q3: the share of its balls placed within a radius), so the intervals resample
tables, the unit the generator draws. Stasis bias (the paper's section 3.4) is read off Q1:
the share of true collisions answered "no" against the share of non-collisions answered
"yes"; a model that defaults to "nothing happens" has the first far above the second.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from reacthuman.billiards.render import paths_image, rollout_video, table_png
from reacthuman.billiards.scenes import HORIZONS, BilliardScene, BilliardTruth, generate, truth
from reacthuman.billiards.scoring import (
    BASELINES,
    BilliardAnswer,
    Grade,
    baseline_answer,
    grade,
    s_total,
)
from reacthuman.out_folder import clear_of_links
from reacthuman.scoring.aggregate import Stat, stat


class TableResult(BaseModel):
    """One answerer on one table: its answers, their judgments, and what went wrong."""

    model_config = ConfigDict(frozen=True)

    brain: str
    scene_id: str
    horizon: int
    answer: BilliardAnswer
    q1: float  # share of object balls right
    q1_table: float  # 1.0 when every object ball is right
    q2: float  # 1.0 or 0.0
    q3: float  # share of balls right
    missed_hits: int  # true collisions answered "no" (or not answered)
    true_hits: int
    false_hits: int  # non-collisions answered "yes"
    true_misses: int
    events: int  # on the table before the horizon (the complexity band)
    unusable: tuple[str, ...] = ()  # a task's reason, for each reply that could not be used


def result(
    brain: str,
    scene: BilliardScene,
    answer_truth: BilliardTruth,
    answer: BilliardAnswer,
    unusable: Sequence[str] = (),
) -> TableResult:
    g: Grade = grade(answer_truth, answer)
    hits = set(answer_truth.hits)
    said = answer.hits or {}
    balls = range(1, len(answer_truth.positions))
    return TableResult(
        brain=brain,
        scene_id=scene.scene_id,
        horizon=scene.horizon,
        answer=answer,
        q1=g.q1_right / g.q1_asked,
        q1_table=float(g.q1_right == g.q1_asked),
        q2=float(g.q2_right),
        q3=g.q3_right / g.q3_asked,
        missed_hits=sum(b in hits and not said.get(b, False) for b in balls),
        true_hits=len(hits),
        false_hits=sum(b not in hits and said.get(b, False) for b in balls),
        true_misses=sum(b not in hits for b in balls),
        events=answer_truth.events,
        unusable=tuple(unusable),
    )


def tables(
    count: int, horizons: Iterable[int] = HORIZONS, first_seed: int = 0
) -> list[tuple[BilliardScene, BilliardTruth]]:
    """``count`` tables per horizon, seeds ``first_seed`` on."""
    if count < 1:
        raise ValueError(f"--tables {count}: at least one table per horizon")
    out = []
    for horizon in horizons:
        for seed in range(first_seed, first_seed + count):
            scene = generate(seed, horizon)
            out.append((scene, truth(scene)))
    return out


def run_baselines(
    brains: Sequence[str], drawn: Sequence[tuple[BilliardScene, BilliardTruth]]
) -> list[TableResult]:
    unknown = [b for b in brains if b not in BASELINES]
    if unknown:
        raise ValueError(
            f"unknown BilliardPhys baseline(s) {', '.join(unknown)} (known: {', '.join(BASELINES)})"
        )
    return [result(b, s, t, baseline_answer(b, s, t)) for b in brains for s, t in drawn]


class Summary(BaseModel):
    """One answerer at one horizon (or all: horizon None)."""

    brain: str
    horizon: int | None  # None: every horizon
    band: str | None = None  # a complexity band's tables only (every horizon)
    tables: int
    q1: Stat
    q1_table: Stat
    q2: Stat
    q3: Stat
    s_total: float | None
    missed_hit_rate: float | None  # true collisions answered "no"
    false_hit_rate: float | None  # non-collisions answered "yes"
    unusable: int


BANDS = ((0, 1, "0-1 events"), (2, 3, "2-3 events"), (4, 1 << 30, "4+ events"))


def band_of(events: int) -> str:
    """A table's complexity: how much happens on it before the horizon (stops, cushions,
    contacts, pockets)."""
    return next(name for low, high, name in BANDS if low <= events <= high)


def _summary(
    brain: str, rows: Sequence[TableResult], horizon: int | None, band: str | None
) -> Summary:
    q1, q2, q3 = stat(r.q1 for r in rows), stat(r.q2 for r in rows), stat(r.q3 for r in rows)
    total = None
    if q1.mean is not None and q2.mean is not None and q3.mean is not None:
        total = s_total((q1.mean, q2.mean, q3.mean))
    true_hits = sum(r.true_hits for r in rows)
    misses = sum(r.true_misses for r in rows)
    return Summary(
        brain=brain,
        horizon=horizon,
        band=band,
        tables=len(rows),
        q1=q1,
        q1_table=stat(r.q1_table for r in rows),
        q2=q2,
        q3=q3,
        s_total=total,
        missed_hit_rate=sum(r.missed_hits for r in rows) / true_hits if true_hits else None,
        false_hit_rate=sum(r.false_hits for r in rows) / misses if misses else None,
        unusable=sum(bool(r.unusable) for r in rows),
    )


def summarise(results: Sequence[TableResult]) -> list[Summary]:
    """Per answerer: each horizon, all of them (horizon None), and each complexity band."""
    out = []
    for brain in sorted({r.brain for r in results}):
        mine = [r for r in results if r.brain == brain]
        for horizon in [*sorted({r.horizon for r in mine}), None]:
            rows = [r for r in mine if horizon is None or r.horizon == horizon]
            out.append(_summary(brain, rows, horizon, None))
        for _low, _high, band in BANDS:
            rows = [r for r in mine if band_of(r.events) == band]
            if rows:
                out.append(_summary(brain, rows, None, band))
    return out


def _cell(s: Stat) -> str:
    if s.mean is None:
        return "-"
    return f"{100 * s.mean:.1f} [{100 * (s.low or 0):.1f}, {100 * (s.high or 0):.1f}]"


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f} %"


def report_markdown(summaries: Sequence[Summary]) -> str:
    """The paper's tables: accuracy per task and horizon with 95 % bootstrap intervals,
    S_total, and stasis bias."""
    lines = [
        "# BilliardPhys",
        "",
        "Accuracy in % with 95 % bootstrap intervals over tables. Q1: per object ball, did the "
        "cue ball hit it; Q2: the exact set of cushions the cue ball touched; Q3: every ball "
        "within one radius of where it is at the horizon. S_total = 0.3 Q1 + 0.3 Q2 + 0.4 Q3. "
        'Q1 per table (every object ball right) beside it: per ball, answering "no collision" '
        "everywhere is right for most balls.",
        "",
        "| answerer | horizon | tables | Q1 | Q1 per table | Q2 | Q3 | S_total | unusable |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    overall = [s for s in summaries if s.band is None]
    for s in overall:
        when = "all" if s.horizon is None else f"{s.horizon} s"
        total = "-" if s.s_total is None else f"{100 * s.s_total:.1f}"
        lines.append(
            f"| {s.brain} | {when} | {s.tables} | {_cell(s.q1)} | {_cell(s.q1_table)} | "
            f"{_cell(s.q2)} | "
            f"{_cell(s.q3)} | {total} | {s.unusable} |"
        )
    lines += [
        "",
        "## Stasis bias",
        "",
        'Of the collisions that happen, the share answered "no collision"; of the balls the cue '
        'ball never touches, the share answered "collision". Stasis bias is the first far '
        "above the second.",
        "",
        "| answerer | collisions answered no | non-collisions answered yes |",
        "|---|---|---|",
    ]
    for s in overall:
        if s.horizon is None:
            lines.append(f"| {s.brain} | {_rate(s.missed_hit_rate)} | {_rate(s.false_hit_rate)} |")
    lines += [
        "",
        "## By complexity",
        "",
        "Tables of every horizon by how much happens on them before the horizon (every stop, "
        "cushion, contact and pocketing counted).",
        "",
        "| answerer | complexity | tables | Q1 | Q2 | Q3 | S_total |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in summaries:
        if s.band is not None:
            total = "-" if s.s_total is None else f"{100 * s.s_total:.1f}"
            lines.append(
                f"| {s.brain} | {s.band} | {s.tables} | {_cell(s.q1)} | {_cell(s.q2)} | "
                f"{_cell(s.q3)} | {total} |"
            )
    return "\n".join(lines) + "\n"


def accuracy_plot(summaries: Sequence[Summary], path: Path) -> None:
    """The paper's Figure 5: each task's accuracy against the horizon, a line per answerer
    with its 95 % interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(12, 3.8), sharey=True)
    per_horizon = [s for s in summaries if s.horizon is not None and s.band is None]
    for ax, task, title in zip(
        axes,
        ("q1", "q2", "q3"),
        ("Q1 collisions (per ball)", "Q2 cushions", "Q3 positions"),
        strict=True,
    ):
        for brain in sorted({s.brain for s in per_horizon}):
            mine = [s for s in per_horizon if s.brain == brain]
            stats = [getattr(s, task) for s in mine]
            x = [s.horizon for s in mine]
            y = [100 * (st.mean or 0.0) for st in stats]
            low = [100 * ((st.mean or 0.0) - (st.low or 0.0)) for st in stats]
            high = [100 * ((st.high or 0.0) - (st.mean or 0.0)) for st in stats]
            ax.errorbar(x, y, yerr=[low, high], marker="o", capsize=3, label=brain)
        ax.set(title=title, xlabel="horizon (s)", ylim=(0, 105))
    axes[0].set_ylabel("accuracy (%)")
    axes[-1].legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_run(
    out: Path,
    drawn: Sequence[tuple[BilliardScene, BilliardTruth]],
    results: Sequence[TableResult],
    videos: bool = False,
) -> Path:
    """The run folder: every table (its image and answers; with ``videos``, its roll-out as
    MP4), the first table of each horizon with its balls' exact paths, every result, the
    report. Nothing in ``out`` may be a symbolic link: no write lands outside it."""
    clear_of_links(out, out / "tables")
    clear_of_links(out, out)
    with (out / "tables.jsonl").open("w") as handle:
        for scene, answers in drawn:
            handle.write(
                json.dumps(
                    {
                        "scene": scene.model_dump(mode="json"),
                        "truth": answers.model_dump(mode="json"),
                    }
                )
                + "\n"
            )
            (out / "tables" / f"{scene.scene_id}.png").write_bytes(table_png(scene))
            if videos:
                rollout_video(scene, out / "tables" / f"{scene.scene_id}.mp4")
    examples = []
    for horizon in sorted({scene.horizon for scene, _ in drawn}):
        scene = next(s for s, _ in drawn if s.horizon == horizon)
        name = f"{scene.scene_id}-paths.png"
        paths_image(scene).save(out / "tables" / name)
        shown = f"![the exact paths](tables/{name})"
        if videos:
            shown += f"\n\n[{scene.scene_id} rolled out](tables/{scene.scene_id}.mp4)"
        examples.append(shown)
    with (out / "results.jsonl").open("w") as handle:
        for r in results:
            handle.write(r.model_dump_json() + "\n")
    summaries = summarise(results)
    (out / "summary.json").write_text(
        json.dumps([s.model_dump(mode="json") for s in summaries], indent=1)
    )
    report = out / "report.md"
    accuracy_plot(summaries, out / "accuracy.png")
    shown = "\n".join(examples)
    text = report_markdown(summaries).replace(
        "\n## Stasis bias", "\n![accuracy by horizon](accuracy.png)\n\n## Stasis bias", 1
    )
    report.write_text(f"{text}\n## Example tables\n\n{shown}\n")
    return report
