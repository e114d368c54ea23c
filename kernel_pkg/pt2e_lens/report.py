"""A self-contained HTML report: every stage, graph and table in one file, no network needed."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from ._outputs import write_atomic
from .display import html_fragment
from .views import view_of

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:system-ui,sans-serif;margin:1rem}}</style></head>
<body><h1>{title}</h1>
{body}
</body></html>
"""


def html_page(x: Any, title: str = "pt2e-lens report") -> str:
    return _PAGE.format(title=html.escape(title), body=html_fragment(view_of(x)))


def write_html(x: Any, path: str | Path, title: str = "pt2e-lens report") -> Path:
    path = Path(path)
    write_atomic(path, html_page(x, title))  # a reader never sees half a report
    return path
