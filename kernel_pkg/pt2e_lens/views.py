"""View documents (docs/contract.md): what one output shows, built from snapshots and analyses."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .analyses import Decomposition, annotations, diff_ops, observers, qdq, stage_diff
from .analyses import focus as focus_ids
from .analyses.table import Table
from .errors import Pt2eLensError
from .schema import SCHEMA_VERSION, VIEW_FORMAT
from .snapshot import snapshot
from .why import sharing

FORMAT = VIEW_FORMAT


def _view(mode: str, title: str | None, panes=(), diffs=(), focus=None, notes=None, tables=()) -> dict:
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "mode": mode,
        "title": title,
        "panes": list(panes),
        "diffs": list(diffs),
        "focus": focus,
        "notes": list(notes or [{} for _ in panes]),
        "tables": [t.to_dict() for t in tables],
    }


def _label(x: Any, default: str) -> str:
    return getattr(x, "name", None) or default


def _focus_per_pane(snaps, diffs, ops, hops) -> list[list[str]] | None:
    """Focus each pane on `ops`; later panes also show what the focused nodes became."""
    if ops is None:
        return None
    per_pane = [set(focus_ids(s, ops, hops)) for s in snaps]
    for i, d in enumerate(diffs):
        for nid in per_pane[i]:
            per_pane[i + 1].update(d.became.get(nid, []))
    return [[n["id"] for n in s.nodes if n["id"] in ids] for s, ids in zip(snaps, per_pane)]


def _notes(notes: Any, n: int) -> list[dict]:
    if notes is None:
        return [{} for _ in range(n)]
    if isinstance(notes, dict):
        notes = [notes] + [{} for _ in range(n - 1)]
    notes = list(notes)
    if len(notes) != n or not all(isinstance(d, dict) for d in notes):
        raise Pt2eLensError(f"notes must be one {{node name: text}} dict per pane ({n}), got {len(notes)}.")
    return [{str(k): str(v) for k, v in d.items()} for d in notes]


def graph_view(
    x: Any,
    focus: str | Iterable[str] | None = None,
    hops: int = 1,
    notes: dict | None = None,
    title: str | None = None,
    overlay: Any = None,
) -> dict:
    """One graph. `overlay`: a per-node measure to colour by, e.g. `pl.accuracy(...)` (SQNR)."""
    snap = snapshot(x)
    pane = {"label": snap.stage or _label(x, "graph"), "snapshot": snap.data}
    tables = []
    if overlay is not None:
        pane["overlay"] = overlay.overlay() if hasattr(overlay, "overlay") else overlay
        tables = [overlay] if isinstance(overlay, Table) else []
    return _view("graph", title, [pane], [], _focus_per_pane([snap], [], focus, hops), _notes(notes, 1), tables)


def compare_view(items: Sequence[Any], focus=None, hops: int = 1, notes=None, title: str | None = None) -> dict:
    """2..N graphs side by side, each aligned with the next (`pl.stage_diff`)."""
    pairs = [(it if isinstance(it, tuple) else (it, None)) for it in items]
    if len(pairs) < 2:
        raise Pt2eLensError("compare needs at least two graphs: pl.compare([(a, 'before'), (b, 'after')]).")
    snaps = [snapshot(x) for x, _ in pairs]
    labels = [lbl or s.stage or f"#{i + 1}" for i, ((_, lbl), s) in enumerate(zip(pairs, snaps))]
    diffs = [stage_diff(snaps[i], snaps[i + 1], labels[i], labels[i + 1]) for i in range(len(snaps) - 1)]
    panes = [{"label": lbl, "snapshot": s.data} for lbl, s in zip(labels, snaps)]
    return _view(
        "compare",
        title,
        panes,
        [d.to_dict(i, i + 1) for i, d in enumerate(diffs)],
        _focus_per_pane(snaps, diffs, focus, hops),
        _notes(notes, len(snaps)),
    )


def run_tables(run: Any) -> list[Table]:
    """The tables a Run's tabbed view shows, each from the stage where it means most."""
    out: list[Table] = []
    if "decomposed" in run:  # both stages exist already: no second run_decompositions
        done = run["decomposed"]
        label = {"core": "core", "empty": "{}"}.get(done.info.get("table"), "custom")
        out += Decomposition(done.exported_program, run["exported"].snapshot, done.snapshot, label).tables()
    annotated = next((s for s in ("annotated", "prepared") if s in run), None)
    if annotated:
        out.append(annotations(run[annotated]))
    observed = next((s for s in ("calibrated", "prepared") if s in run), None)
    if observed:
        out.append(observers(run[observed]))
    if "prepared" in run:
        out.append(sharing(run["prepared"]))
    if "converted" in run:
        out.append(qdq(run["converted"]))
    first, last = run.stages[0], run.stages[-1]
    if first != last:
        out.append(diff_ops(run[first], run[last], first, last))
    return out


def run_view(run: Any, title: str | None = None) -> dict:
    stages = list(run)
    snaps = [s.snapshot for s in stages]
    diffs = [
        stage_diff(snaps[i], snaps[i + 1], stages[i].name, stages[i + 1].name).to_dict(i, i + 1)
        for i in range(len(snaps) - 1)
    ]
    panes = [{"label": s.name, "snapshot": snap.data} for s, snap in zip(stages, snaps)]
    return _view("run", title, panes, diffs, None, None, run_tables(run))


def table_view(tables: Sequence[Table], title: str | None = None) -> dict:
    return _view("table", title, [], [], None, [], tables)


def view_of(x: Any) -> dict:
    """The natural view of any pt2e-lens object (Run, Stage, graph, Table, Decomposition)."""
    if isinstance(x, dict) and x.get("format") == FORMAT:
        return x
    if isinstance(x, Table) and getattr(x, "stage", None) is not None and hasattr(x, "overlay"):
        return graph_view(x.stage, overlay=x, title=x.title)  # e.g. pl.accuracy: heat on the graph + table
    if isinstance(x, Table):
        return table_view([x])  # the table shows its own title
    if hasattr(x, "tables") and callable(x.tables):
        return table_view(x.tables(), getattr(getattr(x, "became", None), "title", None))
    if hasattr(x, "stages") and hasattr(x, "latest"):
        return run_view(x)
    return graph_view(x)
