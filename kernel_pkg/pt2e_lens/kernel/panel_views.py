"""The Views the panel gets: one stage with its tables, two stages side by side, and their size on the wire."""

from __future__ import annotations

import json

from ..analyses import annotations as annotations_table
from ..analyses import diff_ops, observers, qdq, stage_diff
from ..analyses.backend import backend
from ..snapshot import Snapshot
from ..views import compare_view, graph_view, table_view


def encoded_size(doc) -> int:
    return len(json.dumps(doc, separators=(",", ":"), allow_nan=False).encode())


def stage_view(snap: Snapshot, title: str | None = None) -> dict:
    """One graph with its annotation, observer and q/dq tables."""
    doc = graph_view(snap, title=title)
    doc["tables"] = [t.to_dict() for t in (annotations_table(snap), observers(snap), qdq(snap)) if len(t)]
    if "backend" in snap.data:
        doc["tables"].append(backend(snap).to_dict())
    return doc


def diff_view(a: Snapshot, b: Snapshot, label_a: str, label_b: str, title: str | None, max_bytes: int) -> dict:
    """Two stages side by side with their node alignment and op diff; tables only if that is too big."""
    tables = [diff_ops(a, b, label_a, label_b), stage_diff(a, b, label_a, label_b).table()]
    doc = compare_view([(a, label_a), (b, label_b)], title=title)
    doc["tables"] = [t.to_dict() for t in tables]
    return doc if encoded_size(doc) <= max_bytes else table_view(tables, title)
