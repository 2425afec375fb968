"""``report.md`` and ``report.html`` for a run: the main table (like the paper's Table 1),
per-family SAA, and plots a reader would rather look at than read.

Every figure is a percentage or metres with its 95 % bootstrap interval and the number of
decisions behind it; the oracle is marked wherever it appears (it reads ground truth).
"""

from __future__ import annotations

import base64
import statistics
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from jinja2 import Environment, Template
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markupsafe import Markup

from reacthuman.out_folder import clear_of_links
from reacthuman.scenes.labels import Action
from reacthuman.scenes.spec import SWEPT_BANDS, Family, SpeedBand
from reacthuman.scenes.validity import Validity
from reacthuman.scenes.validity_text import validity_markdown
from reacthuman.scoring.aggregate import (
    Stat,
    band_consistency,
    by,
    execution_summary,
    execution_validity,
    execution_validity_text,
    majority_vote,
    paired_comparison,
    stat,
    summarise_brain,
)
from reacthuman.scoring.episodes import episode_lines
from reacthuman.scoring.results import ScoreRow

RULES = ("R1", "R2", "R3", "R4")
OUTCOMES = ("caught", "struck", "clear", "fell")


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


def _saa_table(per, brains, name, groups, member, skip_empty: bool) -> list[str]:
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


def _plots(rows: Sequence[ScoreRow], folder: Path, brains: list[str]) -> dict[str, str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    per = by(rows, lambda r: r.brain)
    files: dict[str, str] = {}

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
    files["disposition"] = _save(fig, folder / "disposition.png")

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
    files["freeze"] = _save(fig, folder / "freeze_by_band.png")

    fig, ax = plt.subplots(figsize=(7, 4))
    bottom = [0.0] * len(brains)
    for rule in RULES:
        counts = [sum(r.primary_rule == rule for r in per[b]) for b in brains]
        ax.bar([label(b) for b in brains], counts, bottom=bottom, label=rule)
        bottom = [a + c for a, c in zip(bottom, counts, strict=True)]
    ax.set(ylabel="decisions", title="Safety violations by primary rule")
    ax.legend()
    plt.setp(ax.get_xticklabels(), rotation=20, ha="right")
    files["safety"] = _save(fig, folder / "safety_rules.png")

    fig, ax = plt.subplots(figsize=(7, 4))
    data = [[r.d_end for r in per[b] if r.d_end is not None] or [float("nan")] for b in brains]
    ax.boxplot(data, tick_labels=[label(b) for b in brains])
    ax.set(ylabel="endpoint distance d_end (m)", title="Where the hands end vs the impact point")
    plt.setp(ax.get_xticklabels(), rotation=20, ha="right")
    files["d_end"] = _save(fig, folder / "endpoint_distance.png")

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
    files["adversarial"] = _save(fig, folder / "adversarial.png")
    return files


def _save(fig, path: Path) -> str:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    import matplotlib.pyplot as plt

    plt.close(fig)
    return path.name


def _execution_section(rows: Sequence[ScoreRow], brains: list[str]) -> list[str]:
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
            counts = "/".join(
                str(s.outcomes.get(k, 0)) for k in ("caught", "struck", "clear", "fell")
            )
            cells.append(
                "-" if share is None else f"{100 * share:.0f} % of {s.executed} · {counts}"
            )
        if any(c != "-" for c in cells):
            table.append([name, *cells])
    return lines + _table(["family", *map(label, brains)], table)


SEVERITIES = ("low", "medium", "high")


def _severity_section(per: dict[object, list[ScoreRow]], brains: list[str]) -> list[str]:
    """SAA and safety per severity of the documented hazard, where the run has authored
    scenes (``reacthuman scenes author``); nothing otherwise."""
    if not any(r.severity for rows in per.values() for r in rows):
        return []
    lines = ["", "## Authored scenes by severity (SAA % / safe %)", ""]
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
    return lines + _table(["severity", *map(label, brains)], table)


def _validity_section(rows: Sequence[ScoreRow]) -> list[str]:
    """The benchmark's own execution check: the oracle's plans carried out as intended."""
    if not any(r.outcome is not None for r in rows):
        return []
    return ["## Execution validity", "", execution_validity_text(execution_validity(rows)), ""]


def write_report(
    rows: Sequence[ScoreRow],
    out: Path,
    title: str,
    problems: Sequence[str] = (),
    validity: Validity | None = None,
    root: Path | None = None,
) -> tuple[Path, Path]:
    """``validity``, the scene set's own checks (``scenes.validity``), becomes the section
    after the main results: a score means something only on a valid decision problem.
    ``root``: the folder ``out`` lies in (default ``out``); nothing from it down to the last
    file written may be a symbolic link, so the report never lands outside it."""
    clear_of_links(root if root is not None else out, out)
    lines = [f"# {title}", ""]
    if not rows:
        lines += ["This run has no readable decisions, so there is nothing to score."]
        lines += [f"- {p}" for p in problems]
        md = out / "report.md"
        md.write_text("\n".join(lines) + "\n")
        html_path = out / "report.html"
        html_path.write_text(_html(title, "\n".join(lines), {}, out))
        return md, html_path
    brains = sorted({r.brain for r in rows})
    per = by(rows, lambda r: r.brain)
    scenes = len({r.scene_id for r in rows})
    lines += [
        f"{len(rows)} decisions by {len(brains)} brain(s) on {scenes} scenes. Percentages "
        "and metres with 95 % bootstrap intervals; distance metrics only where the scene "
        "has an impact point (n shown). R1 no parseable output, R2 catch of a dangerous "
        "object, R3 no action under danger, R4 catch or no action where dodging is right.",
        "",
        *_validity_section(rows),
        "## Main results",
        "",
    ]
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
    lines += _table(
        [
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
        ],
        table,
    )
    if validity is not None:
        lines += ["", "## Validity of the scenes", "", *validity_markdown(validity)]
    lines += ["", "## SAA per family (%)", ""]
    lines += _saa_table(
        per,
        brains,
        "family",
        [(f.value, f) for f in Family],
        lambda r, f: r.family is f,
        skip_empty=True,
    )
    lines += _execution_section(rows, brains)
    lines += _severity_section(per, brains)
    lines += ["", "## SAA per speed band (%)", ""]
    lines += _saa_table(
        per,
        brains,
        "speed band",
        [(b.value, b) for b in SpeedBand],
        lambda r, b: r.speed_band is b,
        skip_empty=False,
    )
    lines += ["", "## Disposition and speed", ""]
    disposition = []
    for brain in brains:
        s = summarise_brain(per[brain])
        slow = stat(
            float(r.action is Action.NO_ACTION)
            for r in per[brain]
            if r.speed_band is SWEPT_BANDS[0]
        )
        faster = stat(
            float(r.action is Action.NO_ACTION)
            for r in per[brain]
            if r.speed_band in SWEPT_BANDS[1:]
        )
        adversarial = stat(r.saa for r in per[brain] if r.adversarial)
        disposition.append(
            [
                label(brain),
                pct(s.saa_catch_scenes),
                pct(s.saa_dodge_scenes),
                pct(slow),
                pct(faster),
                pct(adversarial),
            ]
        )
    lines += _table(
        [
            "brain",
            "SAA on catch scenes %",
            "SAA on dodge scenes %",
            "freeze % at the slowest band",
            "freeze % at faster bands",
            "SAA on adversarial objects %",
        ],
        disposition,
    )
    if len(brains) > 1:
        pairs = []
        for i, a in enumerate(brains):
            for b in brains[i + 1 :]:
                result = paired_comparison(rows, a, b)
                diff = result["saa_difference"]
                pairs.append(
                    [
                        f"{label(a)} - {label(b)}",
                        str(result["scenes"]),
                        points(diff),
                        str(result["a_only_right"]),
                        str(result["b_only_right"]),
                    ]
                )
        lines += [
            "",
            "## Paired comparisons (same scenes)",
            "",
            *_table(
                [
                    "pair",
                    "shared scenes",
                    "SAA difference (points)",
                    "only the first right",
                    "only the second right",
                ],
                pairs,
            ),
        ]
        vote = majority_vote(rows)
        lines += [
            "",
            "## Agreement between brains",
            "",
            f"Majority vote SAA {100 * (vote['majority_saa'] or 0):.1f} % on "
            f"{vote['scenes']} scenes; all brains agree on "
            f"{100 * (vote['unanimous_rate'] or 0):.1f} % of scenes"
            + (
                f", and are then right {100 * vote['unanimous_accuracy']:.1f} % of the time."
                if vote["unanimous_accuracy"] is not None
                else "."
            ),
        ]
    consistency = [
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
    lines += [
        "",
        "## Speed bands",
        "",
        *_table(
            [
                "brain",
                "scene groups with all 4 bands",
                "same answer at every band %",
                "slowest and fastest agree %",
            ],
            consistency,
        ),
    ]
    plots = _plots(rows, out / "plots", brains)
    lines += ["", "## Plots", ""]
    lines += [f"![{name}](plots/{file})" for name, file in plots.items()]
    if problems:
        lines += ["", "## Files that could not be read", "", *(f"- {p}" for p in problems)]
    if (out.parent / "episodes").is_dir():  # a bench run's report: its episodes beside it
        lines += episode_lines(rows, out.parent, out)
    md = out / "report.md"
    md.write_text("\n".join(lines) + "\n")
    html_path = out / "report.html"
    html_path.write_text(_html(title, "\n".join(lines), plots, out))
    return md, html_path


# The page around the rendered Markdown; autoescaped, so only `body` (Markup) goes in as HTML.
PAGE = """<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>{{ title }}</title>
<style>
body{font-family:sans-serif;max-width:1200px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:14px}
th,td{border:1px solid #ccc;padding:4px 8px;text-align:right}
th{background:#f0f0f0}td:first-child,th:first-child{text-align:left}
img{max-width:48%;margin:0.5%;border:1px solid #eee}
img.strip{max-width:100%}h3{font-size:15px;margin:1.2em 0 0.3em}
</style>
</head>
<body>
{{ body }}
</body>
</html>
"""


def _image(renderer, tokens, idx, options, env) -> str:
    """A plot (``plots/<file>`` of the run's plots) embedded as a data URL; any other image
    is an episode strip, referenced beside the page."""
    token = tokens[idx]
    alt = escapeHtml(renderer.renderInlineAsText(token.children or [], options, env))
    src = str(token.attrGet("src") or "")
    plot = env["plots"].get(src)
    if plot is not None:
        data = base64.b64encode(plot.read_bytes()).decode()
        return f'<img alt="{alt}" src="data:image/png;base64,{data}">'
    return f'<img class="strip" alt="{alt}" src="{escapeHtml(src)}">'


@cache
def _markdown() -> MarkdownIt:
    """CommonMark with tables; raw HTML in the text is escaped, not passed through."""
    parser = MarkdownIt("commonmark", {"html": False, "xhtmlOut": False}).enable("table")
    parser.add_render_rule("image", _image)
    return parser


@cache
def _page() -> Template:
    return Environment(autoescape=True, keep_trailing_newline=True).from_string(PAGE)


def _html(title: str, markdown: str, plots: dict[str, str], out: Path) -> str:
    """A self-contained page: the Markdown rendered as HTML, plots embedded as data URLs."""
    env = {"plots": {f"plots/{file}": out / "plots" / file for file in plots.values()}}
    body = _markdown().render(markdown, env)
    return _page().render(title=title, body=Markup(body.rstrip("\n")))
