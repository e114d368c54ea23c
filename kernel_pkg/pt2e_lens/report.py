"""A self-contained HTML report: every stage, graph and table in one file, no network needed."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from . import i18n
from ._outputs import write_atomic
from .display import View, html_fragment
from .views import view_of

_PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<style>body{{font-family:system-ui,sans-serif;margin:1rem}}</style></head>
<body><h1>{title}</h1>
{body}
</body></html>
"""


def html_page(x: Any, title: str | None = None, lang: str | None = None) -> str:
    """The report page in `lang` (default: the current locale, `pl.set_locale` / PT2E_LENS_LANG): its tables
    and findings are made in that language, and `<html lang>` tells the front end which words to draw."""
    with i18n.using(lang) as loc:
        body = html_fragment(x.view if isinstance(x, View) else view_of(x))  # pl.show/compare's result too
        title = i18n.t("report.title") if title is None else title
    return _PAGE.format(title=html.escape(title), body=body, lang=html.escape(loc))


def write_html(x: Any, path: str | Path, title: str | None = None, lang: str | None = None) -> Path:
    path = Path(path)
    write_atomic(path, html_page(x, title, lang))  # a reader never sees half a report
    return path
