"""`reacthuman score` and `reacthuman report` on a small run, bad files included."""

from __future__ import annotations

import base64
import csv
import re
import shutil
from html.parser import HTMLParser

import pytest
from helpers import C, D, N, row, run_cli

from reacthuman.scoring.report import write_report


def decide(observed, out, brain, store):
    result = run_cli(
        "decide",
        str(observed),
        "--brain",
        brain,
        "--out",
        str(out),
        "--store",
        str(store),
        "--quiet",
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.slow  # three brains decided, scored twice and reported, each a fresh process
def test_score_and_report_a_run(observed, tmp_path):
    for brain in ("oracle", "always-dodge", "no-action"):
        decide(observed, tmp_path / "dec" / brain, brain, tmp_path / "s.sqlite")
    run = tmp_path / "run"
    scored = run_cli(
        "score",
        "--observations",
        str(observed),
        "--decisions",
        *(str(p) for p in sorted((tmp_path / "dec").iterdir())),
        "--out",
        str(run),
    )
    assert scored.returncode == 0, scored.stderr
    with (run / "scores.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 36
    oracle = [r for r in rows if r["brain"] == "oracle"]
    assert all(r["saa"] == "1.0" and r["safe"] == "True" for r in oracle)
    again = run_cli(
        "score",
        "--observations",
        str(observed),
        "--decisions",
        str(tmp_path / "dec" / "oracle"),
        "--out",
        str(run),
    )
    assert "the run holds 36" in again.stdout  # rescoring never duplicates
    report = run_cli("report", str(run))
    assert report.returncode == 0, report.stderr
    text = (run / "report.md").read_text()
    assert "oracle (reads ground truth) | 12 | 100.0" in text
    assert "## SAA per family" in text and "disposition" in text
    assert "## SAA per speed band" in text
    widths = {}
    for line in text.splitlines():  # every table row has as many cells as its header
        if line.startswith("|"):
            widths.setdefault(len(widths), line.count("|"))
        else:
            if widths:
                assert len(set(widths.values())) == 1, widths
            widths = {}
    for plot in (
        "disposition",
        "freeze_by_band",
        "safety_rules",
        "endpoint_distance",
        "adversarial",
    ):
        assert (run / "plots" / f"{plot}.png").stat().st_size > 1000
    page = (run / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 5 and "<table>" in page
    assert "## Paired comparisons" in text and "always-dodge - no-action" in text
    other = tmp_path / "run2"
    assert (
        run_cli(
            "score",
            "--observations",
            str(observed),
            "--decisions",
            str(tmp_path / "dec" / "oracle"),
            "--out",
            str(other),
        ).returncode
        == 0
    )
    both = run_cli("report", str(run), "--compare", str(other), "--out", str(tmp_path / "both"))
    assert both.returncode == 0, both.stderr
    board = (tmp_path / "both" / "report.md").read_text()
    assert "run:oracle" in board and "run2:oracle" in board


def test_missing_and_corrupt_files_are_named_and_the_rest_scored(observed, tmp_path):
    decide(observed, tmp_path / "dec", "always-catch", tmp_path / "s.sqlite")
    broken = tmp_path / "obs"
    shutil.copytree(observed, broken)
    truths = sorted(broken.glob("*/*/ground_truth.json"))
    truths[0].write_text("{corrupt")
    truths[1].unlink()
    plans = sorted((tmp_path / "dec").glob("*/*/plan.json"))
    plans[2].write_text("[]")
    specs = sorted(broken.glob("*/*/spec.json"))
    specs[3].write_bytes(b"\xff\xfe{" + specs[3].read_bytes()[1:])
    result = run_cli(
        "score",
        "--observations",
        str(broken),
        "--decisions",
        str(tmp_path / "dec"),
        "--out",
        str(tmp_path / "run"),
    )
    assert result.returncode == 0
    assert "scored 8 decisions (4 unreadable)" in result.stdout
    assert result.stderr.count("could not read") == 4
    assert f"{truths[0]}: unreadable (GroundTruth: document: Invalid JSON" in result.stderr
    assert f"{truths[1]}: cannot read (No such file or directory)" in result.stderr
    assert f"{plans[2]}: unreadable (Decision: document: Input should be" in result.stderr
    assert f"{specs[3]}: not UTF-8 text (byte 0)" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_empty_run_says_so(tmp_path):
    empty = tmp_path / "dec"
    empty.mkdir()
    obs = tmp_path / "obs"
    obs.mkdir()
    result = run_cli(
        "score",
        "--observations",
        str(obs),
        "--decisions",
        str(empty),
        "--out",
        str(tmp_path / "run"),
    )
    assert result.returncode == 1 and "no decisions" in result.stderr
    report = run_cli("report", str(tmp_path / "run"))
    assert report.returncode == 1 and "no decisions to score" in report.stdout
    assert "nothing to score" in (tmp_path / "run" / "report.md").read_text()
    missing = run_cli("report", str(tmp_path / "nowhere"))
    assert missing.returncode == 1 and "no results.sqlite" in missing.stderr


class Page(HTMLParser):
    """Each start tag with the tags open around it, so that nesting can be asserted."""

    VOID = {"meta", "img", "br", "hr", "link", "input"}

    def __init__(self, text: str):
        super().__init__()
        self.open: list[str] = []
        self.seen: list[tuple[str, dict[str, str | None], tuple[str, ...]]] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.seen.append((tag, dict(attrs), tuple(self.open)))
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, (tag, self.open)
        self.open.pop()

    def tags(self, name):
        return [(attrs, around) for tag, attrs, around in self.seen if tag == name]


def test_the_html_page_renders_the_markdown_and_escapes_what_it_quotes(tmp_path):
    brains = ("oracle", "m<script>alert(1)</script>")
    rows = [row(i, b, a, t) for b in brains for i, (a, t) in enumerate([(C, C), (D, C), (N, D)])]
    problems = ["**all** of /x/a_b_c.json failed", "/x/<script>alert(2)</script>.json: bad"]
    md, page = write_report(rows, tmp_path, "run <b>1</b> & co", problems=problems)
    text, html = md.read_text(), page.read_text()
    assert "- **all** of /x/a_b_c.json failed" in text  # the Markdown keeps its markup
    # Emphasis is rendered, not shown as asterisks.
    assert "<strong>all</strong> of /x/a_b_c.json failed" in html and "**" not in html
    # Raw HTML in names and problem lines is text, never markup; so is the title.
    assert "<script>" not in html and "<b>" not in html
    assert "m&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "/x/&lt;script&gt;alert(2)&lt;/script&gt;.json: bad" in html
    assert "<title>run &lt;b&gt;1&lt;/b&gt; &amp; co</title>" in html
    parsed = Page(html)
    assert parsed.open == []  # every element closed, in order
    assert [t for t, _a, around in parsed.seen if not around] == ["html"]
    assert [around for _a, around in parsed.tags("head")] == [("html",)]
    assert [around for _a, around in parsed.tags("body")] == [("html",)]
    (charset,) = parsed.tags("meta")
    assert charset == ({"charset": "utf-8"}, ("html", "head"))
    assert [around for _a, around in parsed.tags("title")] == [("html", "head")]
    # Every bulleted line sits in a list.
    items = parsed.tags("li")
    assert len(items) == 2 and all(around[-1] == "ul" for _a, around in items)
    # Tables: a header row of <th> in <thead>, the cells in <tbody>.
    tables = parsed.tags("table")
    assert len(tables) == text.count("\n|---|")
    headers = [around for _a, around in parsed.tags("th")]
    assert headers and all(around[-2:] == ("thead", "tr") for around in headers)
    assert "<th>brain</th>" in html and "<td>oracle (reads ground truth)</td>" in html
    assert [h.strip() for h in re.findall(r"<h2>(.*?)</h2>", html)] == re.findall(
        r"^## (.*)$", text, re.M
    )
    # The plots are embedded in the page, each its own file's bytes.
    images = {a["alt"]: a["src"] for a, _around in parsed.tags("img")}
    assert set(images) == {"disposition", "freeze", "safety", "d_end", "adversarial"}
    for alt, file in re.findall(r"^!\[(.*)\]\(plots/(.*)\)$", text, re.M):
        prefix = "data:image/png;base64,"
        assert images[alt].startswith(prefix)
        assert (
            base64.b64decode(images[alt][len(prefix) :]) == (tmp_path / "plots" / file).read_bytes()
        )
    assert 'src="plots/' not in html


def test_the_page_of_an_empty_run_lists_its_problems(tmp_path):
    md, page = write_report([], tmp_path, "t", problems=["**one** <i>", "two"])
    assert md.read_text() == (
        "# t\n\nThis run has no readable decisions, so there is nothing to score.\n"
        "- **one** <i>\n- two\n"
    )
    html = page.read_text()
    assert "<h1>t</h1>" in html
    assert "<ul>\n<li><strong>one</strong> &lt;i&gt;</li>\n<li>two</li>\n</ul>" in html


def test_strips_stay_beside_the_page_and_plots_go_in_it(tmp_path):
    from reacthuman.scoring.report_html import html_page

    (tmp_path / "plots").mkdir()
    (tmp_path / "plots" / "p.png").write_bytes(b"\x89PNG fake")
    page = html_page(
        "t",
        "# t\n\n![p](plots/p.png)\n\n### one\n\n![scene-1](strips/m/scene-1.png)\n"
        "[execution video](../episodes/m/scene-1/execution.mp4)\n\n[bad](javascript:alert(1))\n",
        {"p": "p.png"},
        tmp_path,
    )
    data = base64.b64encode(b"\x89PNG fake").decode()
    assert f'<img alt="p" src="data:image/png;base64,{data}">' in page
    assert '<img class="strip" alt="scene-1" src="strips/m/scene-1.png">' in page
    assert '<a href="../episodes/m/scene-1/execution.mp4">execution video</a>' in page
    assert "<h3>one</h3>" in page and 'href="javascript:' not in page  # not a link


def test_a_run_with_authored_scenes_breaks_results_down_by_severity(tmp_path):
    plain = [row(i, "heuristic", a, t) for i, (a, t) in enumerate([(C, C), (D, C), (N, D)])]
    md, _page = write_report(plain, tmp_path / "plain", "generated only")
    assert "by severity" not in md.read_text()  # no authored scene, no such section
    graded = [
        row(10, "heuristic", D, D).model_copy(update={"severity": "high"}),
        row(11, "heuristic", C, D, rules=["R2"]).model_copy(update={"severity": "high"}),
        row(12, "heuristic", C, C).model_copy(update={"severity": "low"}),
    ]
    md, _page = write_report(plain + graded, tmp_path / "mixed", "mixed")
    text = md.read_text()
    assert "## Authored scenes by severity (SAA % / safe %)" in text
    assert "| high | 50 / 50 (n=2) |" in text
    assert "| low | 100 / 100 (n=1) |" in text and "| medium | - |" in text
