"""The report's plots, one function per figure: what a reader would rather look at than read.

Each draws on Matplotlib's Agg backend and saves a PNG under the report's ``plots`` folder.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from reacthuman.scenes.labels import Action
from reacthuman.scenes.spec import SWEPT_BANDS
from reacthuman.scoring.aggregate import by, stat, summarise_brain
from reacthuman.scoring.report_tables import RULES, PerBrain, label
from reacthuman.scoring.results import ScoreRow


def plots(rows: Sequence[ScoreRow], folder: Path, brains: list[str]) -> dict[str, str]:
    """Every plot of the run, saved in ``folder``: name -> file name."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    per = by(rows, lambda r: r.brain)
    figures: list[tuple[str, str, Callable[[Any], Any]]] = [
        ("disposition", "disposition.png", lambda plt: _disposition(plt, per, brains)),
        ("freeze", "freeze_by_band.png", lambda plt: _freeze(plt, per, brains)),
        ("safety", "safety_rules.png", lambda plt: _safety(plt, per, brains)),
        ("d_end", "endpoint_distance.png", lambda plt: _endpoint_distance(plt, per, brains)),
        ("adversarial", "adversarial.png", lambda plt: _adversarial(plt, rows, per, brains)),
    ]
    files: dict[str, str] = {}
    for name, file, draw in figures:
        fig = draw(plt)
        fig.tight_layout()
        fig.savefig(folder / file, dpi=110)
        plt.close(fig)
        files[name] = file
    return files


def _disposition(plt: Any, per: PerBrain, brains: list[str]) -> Any:
    """SAA on catch scenes against SAA on dodge scenes, one point per brain."""
    fig, ax = plt.subplots(figsize=(6.5, 5.5))
    for brain in brains:
        s = summarise_brain(per[brain])
        x, y = s.saa_catch_scenes.mean, s.saa_dodge_scenes.mean
        if x is not None and y is not None:
            ax.scatter(100 * x, 100 * y, s=60)
            right = x > 0.6  # keep labels inside the axes
            ax.annotate(
                label(brain),
                (100 * x, 100 * y),
                textcoords="offset points",
                xytext=(-8 if right else 8, -12 if y > 0.9 else 6),
                ha="right" if right else "left",
            )
    ax.plot([0, 100], [0, 100], "--", color="grey", label="equal skill")
    ax.set(
        xlim=(-3, 103),
        ylim=(-3, 103),
        xlabel="SAA on catch scenes (%)",
        ylabel="SAA on dodge scenes (%)",
        title="Disposition: catch vs dodge skill",
    )
    ax.legend(loc="lower right")
    return fig


def _freeze(plt: Any, per: PerBrain, brains: list[str]) -> Any:
    """The share of decisions that do nothing, per swept speed band and brain."""
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / max(len(brains), 1)
    bands = list(SWEPT_BANDS)
    for i, brain in enumerate(brains):
        values = [
            stat(float(r.action is Action.NO_ACTION) for r in per[brain] if r.speed_band is b).mean
            or 0.0
            for b in bands
        ]
        ax.bar(
            [k + i * width for k in range(len(bands))],
            [100 * v for v in values],
            width,
            label=label(brain),
        )
    ax.set_xticks(
        [k + width * (len(brains) - 1) / 2 for k in range(len(bands))], [b.value for b in bands]
    )
    ax.set(ylabel="decisions that do nothing (%)", title="Freeze rate by speed band")
    ax.legend(fontsize=8)
    return fig


def _safety(plt: Any, per: PerBrain, brains: list[str]) -> Any:
    """Safety violations per brain, stacked by primary rule."""
    fig, ax = plt.subplots(figsize=(7, 4))
    bottom = [0.0] * len(brains)
    for rule in RULES:
        counts = [sum(r.primary_rule == rule for r in per[b]) for b in brains]
        ax.bar([label(b) for b in brains], counts, bottom=bottom, label=rule)
        bottom = [a + c for a, c in zip(bottom, counts, strict=True)]
    ax.set(ylabel="decisions", title="Safety violations by primary rule")
    ax.legend()
    plt.setp(ax.get_xticklabels(), rotation=20, ha="right")
    return fig


def _endpoint_distance(plt: Any, per: PerBrain, brains: list[str]) -> Any:
    """Where the hands end against the impact point, a box per brain."""
    fig, ax = plt.subplots(figsize=(7, 4))
    data = [[r.d_end for r in per[b] if r.d_end is not None] or [float("nan")] for b in brains]
    ax.boxplot(data, tick_labels=[label(b) for b in brains])
    ax.set(ylabel="endpoint distance d_end (m)", title="Where the hands end vs the impact point")
    plt.setp(ax.get_xticklabels(), rotation=20, ha="right")
    return fig


def _adversarial(plt: Any, rows: Sequence[ScoreRow], per: PerBrain, brains: list[str]) -> Any:
    """SAA on adversarial look-alikes beside SAA on the genuine objects they imitate."""
    imitated = {r.imitates for r in rows if r.imitates}
    fig, ax = plt.subplots(figsize=(7, 4))
    for offset, (name, pick) in enumerate(
        (
            ("adversarial look-alike", lambda r: r.adversarial),
            ("genuine original", lambda r: (not r.adversarial) and r.object in imitated),
        )
    ):
        saa = [stat(r.saa for r in per[b] if pick(r)).mean for b in brains]
        ax.bar(
            [k + offset * 0.4 for k in range(len(brains))],
            [100 * (v or 0.0) for v in saa],
            0.4,
            label=name,
        )
    ax.set_xticks([k + 0.2 for k in range(len(brains))], [label(b) for b in brains])
    ax.set(ylabel="SAA (%)", title="Adversarial objects vs the genuine ones they imitate")
    ax.legend()
    plt.setp(ax.get_xticklabels(), rotation=20, ha="right")
    return fig
