"""How pt2e-lens objects display: a MIME bundle that renders with or without a kernel.

Every output carries three forms of the same View (docs/display.md), each holding it once:
- `application/vnd.pt2e-lens.v1+json`: the View packed (gzip + base64 in an envelope, docs/contract.md
  "Packed transport"), for our JupyterLab / VS Code renderers;
- `text/html`: a self-contained page fragment for any other host, nbconvert and saved notebooks: a static
  fallback, the same packed View, and the viewer (report.js, LZMA + base91, self-unpacking; no network);
- `text/plain`: a one-line summary for terminals.
`PT2E_LENS_VIEWER=once` (read at each display) inlines the viewer in the first output only: for pages that
show all outputs of a notebook executed top to bottom (nbconvert, Jupyter Book), not for Colab or VS Code.
"""

from __future__ import annotations

import html
import json
import os
from typing import Any

from . import i18n
from ._ipython import install_short_errors
from ._static import packed_viewer
from ._touched import note as note_touched
from .display_hook import register_renderer
from .errors import Pt2eLensError
from .finding_groups import group_line, groups
from .schema import MIME_TYPE as MIME
from .schema.packed import pack
from .views import check_hops, compare_args, compare_view, graph_view, view_of


def script_json(view: dict) -> str:
    """JSON that is safe inside <script>: no `</script>`, `<!--` or `&` can close or confuse it."""
    text = json.dumps(view, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def view_locale(view: dict) -> str | None:
    """The locale a View was made in, if it names one we have (a saved notebook's View may name anything)."""
    lang = view.get("locale")
    return lang if isinstance(lang, str) and lang in i18n.available() else None


def summary(view: dict) -> str:
    """One line in the view's own language (the one it was made in), wherever it is summarised later."""
    with i18n.using(view_locale(view)):
        panes = view["panes"]
        if not panes:
            return i18n.t("course.summary.tables", names=", ".join(t["name"] for t in view["tables"]))
        parts = [
            i18n.t(
                "course.summary.pane",
                label=p["label"],
                nodes=len(p["snapshot"]["nodes"]),
                observers=len(p["snapshot"]["observers"]),
                qdq=len(p["snapshot"]["qdq"]),
            )
            for p in panes
        ]
        title = i18n.t("course.summary.title", title=view["title"]) if view["title"] else ""
        return i18n.t("course.summary.head", mode=view["mode"], title=title, panes=" | ".join(parts))


# A table's own look rides on its one inline style: it survives style-stripping viewers (JupyterLab's sanitizer
# of untrusted outputs keeps `style=` but drops <style>) and wins over nbconvert's `table-layout: fixed`.
_TABLE = "table-layout:auto;width:auto;border-collapse:collapse;margin:6px 0;font-size:12px"
# The cells' look is one <style> per output (CELL_STYLE), not an inline style per cell: that cost ~86 B of each
# cell of a saved notebook (~15 kB of an average quickstart output). Its selectors, (0,2,3), win over nbconvert's
# and JupyterLab's right-aligned `:not(.jp-RenderedMarkdown).jp-RenderedHTMLCommon td` (0,2,1) and touch only these
# tables, never the viewer's. Where <style> is stripped the cells take the host's own table look (as a pandas
# DataFrame's do). Cells never wrap, so they need no vertical-align; a findings table's message cell (its second) wraps.
_IN = "div.pt2e-lens-root table"
_CELLS = f"{_IN}.pt2e-lens-table td,{_IN}.pt2e-lens-table th,{_IN}.pt2e-lens-ftable td"
CELL_STYLE = (
    f"<style>{_CELLS}{{text-align:left;padding:2px 8px;border:1px solid #e2e8f0;white-space:nowrap}}"
    f"{_IN}.pt2e-lens-ftable td+td{{white-space:normal}}</style>"
)
# rows of a table in the script-free fallback: a 4.7k-node Run's tables would cost ~1.4 kB per node as HTML
# (docs/bench.md, "Weight"); the viewer, where scripts run, shows every row from the packed View
FALLBACK_ROWS = 20
# the contract's NonFinite strings, shown as the viewer does
_NON_FINITE = {"Infinity": "∞", "-Infinity": "−∞", "NaN": "—"}


def _cell_text(v) -> str:
    return "" if v is None else _NON_FINITE.get(v, str(v)) if isinstance(v, str) else str(v)


def findings_html(findings: list[tuple], caption: str, max_rows: int | None = FALLBACK_ROWS) -> str:
    """Findings (kind, nodes, message, title) grouped by rule: one closed `<details>` line per rule
    (`251 × fp32 island — gelu, …`) that opens to its findings; no script needed."""
    parts = []
    for _, title, rows in groups(findings):
        shown = rows if max_rows is None else rows[:max_rows]
        body = "".join(
            f"<tr><td>{html.escape(', '.join(r[1]))}<td>{html.escape(r[2])}"  # </td>, </tr>: implied by the next
            for r in shown
        )
        if len(shown) < len(rows):
            more = i18n.t("table.more_rows", n=len(rows) - len(shown))
            body += f"<tr><td colspan='2'>{html.escape(more)}"
        parts.append(
            f"<details class='pt2e-lens-finding'><summary>⚠ {html.escape(group_line(title, rows))}</summary>"
            f"<table class='pt2e-lens-ftable' style='{_TABLE}'><tbody>{body}</tbody></table></details>"
        )
    return (
        f"<div class='pt2e-lens-findings'><p style='margin:6px 0 2px'>{html.escape(caption)}</p>{''.join(parts)}</div>"
    )


def _findings_rows(t: dict) -> list[tuple]:
    at = {c: i for i, c in enumerate(t["columns"])}

    def nodes(cell) -> list[str]:  # a list since schema_version 2; a version-1 document's one string is shown as is
        return list(cell) if isinstance(cell, list) else [cell] if cell else []

    return [(r[at["kind"]], nodes(r[at["nodes"]]), r[at["message"]], r[at["title"]]) for r in t["rows"]]


def pane_findings_html(pane: dict) -> str:
    """A pane's findings, grouped, for the no-JS fallback under its picture ("" when it has none)."""
    fs = pane["snapshot"]["findings"]
    rows = [(f["kind"], f["nodes"], f["message"], f.get("title") or f["kind"]) for f in fs]
    return findings_html(rows, i18n.t("table.findings", stage=pane["label"])) if rows else ""


def table_html(t: dict, max_rows: int | None = FALLBACK_ROWS) -> str:
    """The contract's Table as a plain, escaped HTML table: what a host without the front end shows; past
    `max_rows` rows, one line says how many more there are and where they show. The findings table is
    grouped by rule instead (findings_html)."""
    if t["name"] == "findings" and t["rows"] and {"kind", "nodes", "message", "title"} <= set(t["columns"]):
        return findings_html(_findings_rows(t), t["title"] or t["name"], max_rows)
    rows = t["rows"] if max_rows is None else t["rows"][:max_rows]
    # single-quoted attributes (a saved notebook escapes each `"`); no </th>, </td>, </tr>: the next cell, row or
    # </tbody> closes them (HTML's optional end tags, also in JupyterLab's sanitizer)
    head = "".join(f"<th>{html.escape(i18n.named('col.', str(c)))}" for c in t["columns"])
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_cell_text(v))}" for v in r) for r in rows)
    if len(rows) < len(t["rows"]):
        more = i18n.t("table.more_rows", n=len(t["rows"]) - len(rows))
        body += f"<tr><td colspan='{max(1, len(t['columns']))}'>{html.escape(more)}"

    return (
        f"<table class='pt2e-lens-table' style='{_TABLE}'>"
        f"<caption style='text-align:left'>{html.escape(t['title'] or t['name'])}</caption>"
        f"<thead><tr>{head}</thead><tbody>{body}</tbody></table>"
    )


VIEWER_SETTING = "PT2E_LENS_VIEWER"
_viewer_shown = False  # "once": whether an output of this process already carried the viewer


def viewer_here() -> bool:
    """Whether the next output inlines the viewer: always, unless PT2E_LENS_VIEWER=once and one already did."""
    global _viewer_shown
    if os.environ.get(VIEWER_SETTING, "inline").strip().lower() != "once":
        return True
    first, _viewer_shown = not _viewer_shown, True
    return first


def html_fragment(view: dict, picture: str | None = None, packed: dict | None = None, viewer: bool = True) -> str:
    """A self-contained fragment: a mount point, the View packed (`packed`, else packed here), and the viewer.
    The mount point holds what shows where no script runs (the viewer replaces it): the summary, the static
    `picture` (SVG, from `pt2e_lens.pictures`) when given, and the tables as real HTML tables."""
    with i18n.using(view_locale(view)):  # headers and "more rows" in the view's language, also when re-filled later
        tables = "".join(table_html(t) for t in view["tables"])
    # the picture in its own block, so the JupyterLab renderer (src/core/html-picture.ts) can replace it
    shown = f'<div class="pt2e-lens-picture">{picture}</div>' if picture else ""
    styled = CELL_STYLE + tables if tables else ""  # after the summary: src/core/html-picture.ts finds it first
    fallback = f"<p class='pt2e-lens-loading'>{html.escape(summary(view))}</p>{shown}{styled}"
    envelope = script_json(packed or pack(view))  # base64 and fixed keys: nothing to escape, but stay safe
    lang = f' lang="{html.escape(loc)}"' if (loc := view_locale(view)) else ""  # the page may say lang="en"
    parts = [f'<div class="pt2e-lens-root"{lang}>{fallback}</div>', f'<script type="{MIME}">{envelope}</script>']
    if viewer and (js := packed_viewer()) is not None:
        parts.append(js)
    return "".join(parts)


def bundle_of(view: dict) -> dict:
    """The three forms of a View, packed once and shared by the MIME data and text/html."""
    packed = pack(view)
    return {
        MIME: packed,
        "text/html": html_fragment(view, packed=packed, viewer=viewer_here()),
        "text/plain": summary(view),
    }


def mimebundle(x: Any) -> dict:
    install_short_errors(Pt2eLensError)  # the first display in IPython: from now on a Pt2eLensError prints as one line
    return bundle_of(view_of(x))


register_renderer(mimebundle)  # how Tables, Stages and Runs (lower layers) display


class View:
    """A displayed View: renders from its MIME bundle alone, so saved notebooks and nbconvert pages show it
    with no kernel and no network. (A widget output would not: nbconvert renders a saved widget through
    scripts from a CDN.) For a view you update live from Python, use `pl.widget`."""

    def __init__(self, view: dict):
        self.view = view

    def _repr_mimebundle_(self, include=None, exclude=None):
        return mimebundle(self.view)

    def __repr__(self) -> str:
        return summary(self.view)


def show(
    x: Any, focus: Any = None, hops: int = 1, notes: dict | None = None, title: str | None = None, overlay: Any = None
) -> View:
    """Draw a Run (tabs per stage), Stage, GraphModule or ExportedProgram; `focus` ops ± `hops`;
    `overlay` colours nodes by a per-node measure (e.g. `pl.accuracy(run, batches)`)."""
    note_touched(x)
    if focus is None and notes is None and overlay is None:
        check_hops(hops)  # a bad hops is still a mistake worth one line, even with nothing to focus
        view = view_of(x)
        if title is None:
            return View(view)
        if view["mode"] == "table":  # a table (or tables) has no graph to focus: only its title changes
            return View({**view, "title": title})
    return View(graph_view(x, focus=focus, hops=hops, notes=notes, title=title, overlay=overlay))


def compare(
    *graphs: Any,
    items: Any = None,
    focus: Any = None,
    hops: int = 1,
    notes: Any = None,
    title: str | None = None,
) -> View:
    """2..N graphs side by side (the course's `draw_stages`): `pl.compare(a, b, …)`, each graph `x` or
    `(x, "label")`, or one list `pl.compare([(a, "label"), (b, "label"), …])`; focus, hops, notes, title by name."""
    items = compare_args(graphs, items)
    if isinstance(items, (list, tuple)):
        note_touched(*(it[0] if isinstance(it, tuple) and it else it for it in items))
    return View(compare_view(items, focus=focus, hops=hops, notes=notes, title=title))
