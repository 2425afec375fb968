"""``report.html``: the report's Markdown as one self-contained page, its plots embedded."""

from __future__ import annotations

import base64
from functools import cache
from pathlib import Path

from jinja2 import Environment, Template
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markupsafe import Markup

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


def html_page(title: str, markdown: str, plots: dict[str, str], out: Path) -> str:
    """A self-contained page: the Markdown rendered as HTML, plots (name: file under
    ``out/plots``) embedded as data URLs."""
    env = {"plots": {f"plots/{file}": out / "plots" / file for file in plots.values()}}
    body = _markdown().render(markdown, env)
    return _page().render(title=title, body=Markup(body.rstrip("\n")))
