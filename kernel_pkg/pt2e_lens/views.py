"""View documents (docs/contract.md): what one output shows, built from snapshots and analyses."""

from __future__ import annotations

import difflib
import os
import warnings
from collections.abc import Iterable, Sequence
from typing import Any

from . import i18n
from ._overlay_arg import overlay_of
from .analyses import Decomposition, StageDiff, diff_ops, observers, qdq, snapshot, stage_diff
from .analyses import annotations as annotations_table
from .analyses.backend import backend as backend_table
from .analyses.focus import Pt2eLensWarning, check_hops, check_title, parse_focus, seeds, warn_missed, widen
from .analyses.quantization import OBSERVER_STAGES
from .analyses.table import Table
from .analyses.text import key_phrase
from .backends import BACKEND_TITLES
from .capture import Run, Stage
from .errors import Pt2eLensError
from .schema import SCHEMA_VERSION, VIEW_FORMAT
from .why import Accuracy, sharing
from .why.orders import OrderComparison
from .why.orders_marks import mark_moved, moved_line, moved_table, outcome_served, snapshot_served
from .why.sensitivity import Sensitivity  # a heat overlay like Accuracy's

FORMAT = VIEW_FORMAT


def _chosen_locale() -> str | None:
    """The locale a user chose (pl.set_locale / PT2E_LENS_LANG), None when it is English by default: a view
    without one follows the page's language (JupyterLab's setting) in the front end."""
    if i18n._chosen is None and not os.environ.get(i18n.ENV, "").strip():
        return None
    return i18n.get_locale()


def _view(mode: str, title: str | None, panes=(), diffs=(), focus=None, notes=None, tables=()) -> dict:
    locale = _chosen_locale()
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "mode": mode,
        "title": title,
        **({"locale": locale} if locale else {}),
        "panes": list(panes),
        "diffs": list(diffs),
        "focus": focus,
        "notes": list(notes or [{} for _ in panes]),
        "tables": [t.to_dict() for t in tables],
    }


def _label(x: Any, default: str) -> str:
    return x.name if isinstance(x, Stage) else default


def _is_per_pane(focus: Any, n: int) -> bool:
    """`[[...], None, [...]]`: one focus per pane (a single focus never holds a list or None)."""
    return (
        isinstance(focus, list)
        and len(focus) == n
        and all(f is None or isinstance(f, (list, tuple)) for f in focus)
        and any(f is not None for f in focus)
    )


def _looks_per_pane(focus: Any) -> bool:
    return isinstance(focus, list) and any(isinstance(f, (list, tuple)) for f in focus)


def _focus_per_pane(snaps, diffs, focus, hops, labels=None) -> list[list[str]] | None:
    """Focus each pane. One focus for all panes: later panes also show what the focused nodes became.
    One focus per pane (`[[...], [...]]`, None = whole pane): each pane exactly as asked."""
    hops = check_hops(hops)  # a bad hops is a mistake even with nothing to focus
    if focus is None:
        return None
    labels = labels or [s.stage or "this graph" for s in snaps]
    if _looks_per_pane(focus) and not _is_per_pane(focus, len(snaps)):  # a list of lists of the wrong length
        raise Pt2eLensError(i18n.t("error.focus_per_pane", n=len(snaps), got=len(focus)))
    if _is_per_pane(focus, len(snaps)):
        out = []
        for s, f, label in zip(snaps, focus, labels):
            if f is None:
                out.append([n["id"] for n in s.nodes])
                continue
            picked, missed = seeds(s, parse_focus(f))
            warn_missed(s, missed, i18n.t("warning.where_pane", label=repr(label)), stacklevel=4)
            shown = widen(s, picked, hops)
            out.append([n["id"] for n in s.nodes if n["id"] in shown])
        return out
    spec = parse_focus(focus)
    found = [seeds(s, spec) for s in snaps]
    per_pane = [widen(s, picked, hops) for s, (picked, _) in zip(snaps, found)]
    missed = [t for t in spec.terms() if all(t in m for _, m in found)]  # a term no pane has
    warn_missed(snaps[0], missed, i18n.t("warning.where_any_pane") if len(snaps) > 1 else None, stacklevel=4)
    for i, d in enumerate(diffs):
        for nid in per_pane[i]:
            per_pane[i + 1].update(d.became.get(nid, []))
    return [[n["id"] for n in s.nodes if n["id"] in ids] for s, ids in zip(snaps, per_pane)]


def _notes(notes: Any, snaps: list, labels: list[str]) -> list[dict]:
    n = len(snaps)
    if notes is None:
        return [{} for _ in range(n)]
    if isinstance(notes, dict):
        notes = [notes] + [{} for _ in range(n - 1)]
    if not isinstance(notes, (list, tuple)):
        raise Pt2eLensError(i18n.t("error.notes_type", n=n, cls=type(notes).__name__))
    notes = list(notes)
    if len(notes) != n or not all(isinstance(d, dict) for d in notes):
        raise Pt2eLensError(i18n.t("error.notes_per_pane", n=n, got=len(notes)))
    out = [{str(k): str(v) for k, v in d.items()} for d in notes]
    for d, s, label in zip(out, snaps, labels):
        unknown = [k for k in d if k not in s.node]
        if unknown:
            close = difflib.get_close_matches(unknown[0], list(s.node), n=1)
            hint = (
                i18n.t("warning.notes_did_you_mean", name=repr(close[0]))
                if close
                else i18n.t("warning.notes_example", name=repr(next(iter(s.node), "conv2d")))
            )
            warnings.warn(
                i18n.t("warning.notes_missed", names=", ".join(map(repr, unknown[:3])), label=repr(label), hint=hint),
                Pt2eLensWarning,
                stacklevel=4,
            )
    return out


def graph_view(
    x: Any,
    focus: str | Iterable[str] | None = None,
    hops: int = 1,
    notes: dict | None = None,
    title: str | None = None,
    overlay: Any = None,
) -> dict:
    """One graph. `overlay`: a per-node measure to colour by, e.g. `pl.accuracy(...)` (SQNR)."""
    title = check_title(title)
    snap = snapshot(x)
    label: str = snap.stage or _label(x, "graph")
    pane: dict[str, Any] = {"label": label, "snapshot": snap.data}
    tables = []
    if overlay is not None:
        pane["overlay"] = overlay_of(overlay)  # checked now: a bad one is one line, not a broken view
        tables = [overlay] if isinstance(overlay, Table) else []
    return _view(
        "graph",
        title,
        [pane],
        [],
        _focus_per_pane([snap], [], focus, hops, [label]),
        _notes(notes, [snap], [label]),
        tables,
    )


def _compare_items(items: Any) -> list:
    if isinstance(items, (str, bytes, dict)) or not isinstance(items, Iterable):
        raise Pt2eLensError(i18n.t("error.guard_compare_items", got=type(items).__name__))
    return list(items)


def compare_args(graphs: tuple, items: Any = None) -> Any:
    """`pl.compare(a, b, …)` or `pl.compare([a, b, …])` / `items=[…]`: the graphs as one list.
    A list next to other graphs is a mix of both forms (or an old positional focus): one line, not a guess."""
    if items is not None:
        if graphs:
            raise Pt2eLensError(i18n.t("error.guard_compare_mixed"))
        return items
    if len(graphs) == 1:
        return graphs[0]  # the list form (a lone graph gets guard_compare_items' line)
    if any(isinstance(g, list) for g in graphs):
        raise Pt2eLensError(i18n.t("error.guard_compare_mixed"))
    return list(graphs)  # none, or 2..N graphs; fewer than two is compare_needs_two's line


def _compare_item(it: Any, i: int) -> tuple[Any, str | None]:
    """`x` or `(x, "label")`; anything else is one line that shows the form."""
    if not isinstance(it, tuple):
        return it, None
    if len(it) != 2 or not (it[1] is None or isinstance(it[1], str)):
        raise Pt2eLensError(i18n.t("error.guard_compare_item", i=i, got=f"{it!r:.60}"))
    return it


def compare_view(items: Sequence[Any], focus=None, hops: int = 1, notes=None, title: str | None = None) -> dict:
    """2..N graphs side by side, each aligned with the next (`pl.stage_diff`)."""
    title = check_title(title)
    pairs = [_compare_item(it, i) for i, it in enumerate(_compare_items(items))]
    if len(pairs) < 2:
        raise Pt2eLensError(i18n.t("error.compare_needs_two"))
    snaps = [snapshot(x) for x, _ in pairs]
    labels = [lbl or _stage_label(s) or f"#{i + 1}" for i, ((_, lbl), s) in enumerate(zip(pairs, snaps))]
    # two Runs both at "prepared": number the panes so a line can tell them apart
    labels = [f"{lbl} #{i + 1}" if labels.count(lbl) > 1 else lbl for i, lbl in enumerate(labels)]
    diffs = [stage_diff(snaps[i], snaps[i + 1], labels[i], labels[i + 1]) for i in range(len(snaps) - 1)]
    panes = [{"label": lbl, "snapshot": s.data} for lbl, s in zip(labels, snaps)]
    dicts = [d.to_dict(i, i + 1) for i, d in enumerate(diffs)]
    focus_ids = _focus_per_pane(snaps, diffs, focus, hops, labels)
    pane_notes = _notes(notes, snaps, labels)
    lines, tables = _moved_observers(snaps, labels, dicts, pane_notes if notes is None else None)
    if lines and title is None:
        title = i18n.t("orders.sep").join(lines)
    return _view("compare", title, panes, dicts, focus_ids, pane_notes, tables)


def _stage_label(snap: Any) -> str | None:
    """A pane's default label: its stage; a lowered stage by its backend (two lowerings compare as
    "Inductor" / "XNNPACK", not "lowered #1" / "lowered #2")."""
    backend = (snap.data.get("backend") or {}).get("name")
    return BACKEND_TITLES.get(backend, backend) if backend else snap.stage


def _moved_observers(snaps: list, labels: list[str], diffs: list[dict], notes: list | None) -> tuple[list, list]:
    """Two prepared graphs of one model (both with observers): observers paired by what they serve, not by name,
    each moved one marked, and noted in its pane unless the caller wrote the notes; one line per pair of panes."""
    lines: list[str] = []
    rows: list[tuple[str, str, str]] = []
    for i, d in enumerate(diffs):
        a, b = snapshot_served(snaps[i]), snapshot_served(snaps[i + 1])
        if not (a and b):
            continue  # e.g. exported → prepared: every observer is new, nothing moved
        gone, new = mark_moved(d, a, b)
        for side, found, other in ((i, gone, labels[i + 1]), (i + 1, new, labels[i])):
            for node, key in found.items():
                if notes is not None:
                    notes[side][node] = i18n.t("compare.moved.note", at=key_phrase(key), other=other)
                rows.append((labels[side], node, key_phrase(key)))
        if line := moved_line(gone, new, labels[i], labels[i + 1]):
            lines.append(line)
    return lines, [moved_table(rows, i18n.t("orders.sep").join(lines))] if rows else []


def _from_stage(t: Table, stage: str) -> Table:
    """Say in a table's title which stage its rows come from (a Run's tabs mix stages)."""
    t.title = i18n.t("table.from_stage", title=t.title or t.name, stage=stage)
    return t


def run_tables(run: Run) -> list[Table]:
    """The tables a Run's tabbed view shows, each from the stage where it means most."""
    out: list[Table] = []
    if "decomposed" in run:  # both stages exist already: no second run_decompositions
        done = run["decomposed"]
        out += Decomposition(
            done.exported_program, run["exported"].snapshot, done.snapshot, done.info["table"]
        ).tables()
    annotated = next((s for s in ("annotated", "prepared") if s in run), None)
    if annotated:
        out.append(_from_stage(annotations_table(run[annotated]), annotated))
    observed = next((s for s in OBSERVER_STAGES if s in run), None)
    if observed:
        out.append(_from_stage(observers(run[observed]), observed))
    if "prepared" in run:
        out.append(_from_stage(sharing(run["prepared"]), "prepared"))
    if "converted" in run:
        out.append(_from_stage(qdq(run["converted"]), "converted"))
    if "lowered" in run:
        out.append(backend_table(run["lowered"]))
    first, last = run.stages[0], run.stages[-1]
    if first != last:
        out.append(diff_ops(run[first], run[last], first, last))
    return out


def run_view(run: Run, title: str | None = None) -> dict:
    stages = list(run)
    snaps = [s.snapshot for s in stages]
    diffs = [
        stage_diff(snaps[i], snaps[i + 1], stages[i].name, stages[i + 1].name).to_dict(i, i + 1)
        for i in range(len(snaps) - 1)
    ]
    panes = [{"label": s.name, "snapshot": snap.data} for s, snap in zip(stages, snaps)]
    return _view("run", title, panes, diffs, None, None, run_tables(run))


def orders_view(x: OrderComparison) -> dict:
    """`pl.compare_orders` as a compare of the orders' prepared graphs: each moved observer marked (removed by the
    next pane / added in it) and noted with the edge it serves; the title is the one sentence saying what moved."""
    outs = [o for o in x.outcomes if not o.error]
    if len(outs) < 2:
        return table_view([x])
    snaps = [snapshot(o.gm) for o in outs]
    labels = [o.label for o in outs]
    notes: list[dict] = [{} for _ in outs]
    diffs = []
    for i in range(len(outs) - 1):
        d = stage_diff(snaps[i], snaps[i + 1], labels[i], labels[i + 1]).to_dict(i, i + 1)
        gone, new = mark_moved(d, outcome_served(outs[i]), outcome_served(outs[i + 1]))
        for side, found in ((i, gone), (i + 1, new)):
            for node, key in found.items():
                notes[side][node] = i18n.t("orders.view.moved", at=key_phrase(key))
        diffs.append(d)
    panes = [{"label": lbl, "snapshot": s.data} for lbl, s in zip(labels, snaps)]
    return _view("compare", x.summary, panes, diffs, None, notes, [x])


def table_view(tables: Sequence[Table], title: str | None = None) -> dict:
    return _view("table", title, [], [], None, [], tables)


def view_of(x: Any) -> dict:
    """The natural view of any pt2e-lens object (Run, Stage, graph, Table, Decomposition)."""
    if isinstance(x, dict) and x.get("format") == FORMAT:
        return x
    if isinstance(x, (Accuracy, Sensitivity)) and x.stage is not None:
        return graph_view(x.stage, overlay=x, title=x.title)  # heat on the graph + table
    if isinstance(x, OrderComparison):
        return orders_view(x)
    if isinstance(x, Table):
        return table_view([x])  # the table shows its own title
    if isinstance(x, Decomposition):
        return table_view(x.tables(), x.became.title)
    if isinstance(x, StageDiff):
        return table_view(x.tables())
    if isinstance(x, Run):
        return run_view(x)
    return graph_view(x)
