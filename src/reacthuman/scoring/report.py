"""``report.md`` and ``report.html`` for a run: the main table (like the paper's Table 1),
per-family SAA, and plots a reader would rather look at than read.

The sections are written by ``scoring.report_tables`` (one function each), the plots by
``scoring.report_plots`` and the page by ``scoring.report_html``; this module puts them in
order and writes the files.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reacthuman.out_folder import clear_of_links
from reacthuman.scenes.validity import Validity
from reacthuman.scenes.validity_text import validity_markdown
from reacthuman.scoring import report_tables as tables
from reacthuman.scoring.aggregate import by
from reacthuman.scoring.episodes import episode_lines
from reacthuman.scoring.report_html import html_page
from reacthuman.scoring.report_plots import plots
from reacthuman.scoring.results import ScoreRow


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
    if not rows:
        empty = "This run has no readable decisions, so there is nothing to score."
        return _write(out, title, [f"# {title}", "", empty, *(f"- {p}" for p in problems)], {})
    brains = sorted({r.brain for r in rows})
    per = by(rows, lambda r: r.brain)
    lines = [
        f"# {title}",
        "",
        *tables.introduction(rows, brains),
        *tables.execution_validity_section(rows),
        *tables.main_results(per, brains),
    ]
    if validity is not None:
        lines += ["", "## Validity of the scenes", "", *validity_markdown(validity)]
    lines += tables.saa_per_family(per, brains)
    lines += tables.execution_outcomes(rows, brains)
    lines += tables.severity(per, brains)
    lines += tables.saa_per_speed_band(per, brains)
    lines += tables.disposition(per, brains)
    if len(brains) > 1:
        lines += tables.paired_comparisons(rows, brains)
        lines += tables.agreement(rows)
    lines += tables.speed_bands(per, brains)
    drawn = plots(rows, out / "plots", brains)
    lines += ["", "## Plots", ""]
    lines += [f"![{name}](plots/{file})" for name, file in drawn.items()]
    if problems:
        lines += ["", "## Files that could not be read", "", *(f"- {p}" for p in problems)]
    if (out.parent / "episodes").is_dir():  # a bench run's report: its episodes beside it
        lines += episode_lines(rows, out.parent, out)
    return _write(out, title, lines, drawn)


def _write(out: Path, title: str, lines: list[str], drawn: dict[str, str]) -> tuple[Path, Path]:
    """report.md and report.html (its plots ``drawn``, name: file, embedded)."""
    md = out / "report.md"
    md.write_text("\n".join(lines) + "\n")
    html_path = out / "report.html"
    html_path.write_text(html_page(title, "\n".join(lines), drawn, out))
    return md, html_path
