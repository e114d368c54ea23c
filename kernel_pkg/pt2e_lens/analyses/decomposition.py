"""What `ep.run_decompositions(table)` turns each op into (course chapter M00-3)."""

from __future__ import annotations

from typing import Any

import torch

from .. import i18n
from ..display_hook import Displayable
from ..errors import Pt2eLensError, first_line
from ..snapshot import Snapshot, build
from .counts import diff_ops
from .findings import with_findings
from .stage_diff import stage_diff
from .table import Table


def decomposition_table(table: Any, what: str) -> tuple[str, dict | None]:
    """`(label, table)` for `run_decompositions`: None, {} or "empty" → ("{}", {}); "core" → ("core", None),
    Core ATen; a dict → ("custom", it). The label is how titles and tabs name the table."""
    if isinstance(table, str) and table == "core":
        return "core", None
    if table is None or (isinstance(table, str) and table == "empty") or (isinstance(table, dict) and not table):
        return "{}", {}
    if isinstance(table, dict):
        return "custom", table
    raise Pt2eLensError(i18n.t("error.decomposition_table", what=what, got=repr(table)))


def became_by_provenance(program: torch.export.ExportedProgram | None) -> dict[str, list[str]] | None:
    """Original node → the nodes of the decomposed program that `from_node` says came from it (its newest
    source: the node of the program run_decompositions was called on). None when no node records one.

    Names are no guide: the decomposed graph renames, so `flatten` becomes `view` while the old `view` becomes
    `view_1`, and pairing by name would call flatten gone."""
    if program is None:
        return None
    out: dict[str, list[str]] = {}
    for node in program.graph.nodes:
        sources = node.meta.get("from_node") or ()
        if node.op == "call_function" and sources:
            out.setdefault(sources[-1].name, []).append(node.name)
    return out or None


class Decomposition(Displayable):
    def __init__(self, exported_program, before: Snapshot, after: Snapshot, table_label: str):
        self.exported_program = exported_program  # the new ExportedProgram run_decompositions returned
        self.before, self.after, self.table_label = before, after, table_label
        self.op_diff = diff_ops(before, after, "before", "after")
        self.node_counts = (len(before.nodes), len(after.nodes))
        provenance = became_by_provenance(exported_program)
        diff = stage_diff(before, after) if provenance is None else None
        rows = []
        for n in before.nodes:
            if n["op"] != "call_function":
                continue
            if provenance is not None:
                targets = [t for t in provenance.get(n["id"], []) if t in after.node]
            else:  # no provenance recorded: aligned by name
                assert diff is not None
                targets = [n["id"]] if n["id"] not in diff.removed else diff.became.get(n["id"], [])
            rows.append(
                (
                    n["id"],
                    n["target"],
                    ", ".join(targets) or "—",
                    " + ".join(after.node[t]["target"] for t in targets) or "(gone)",
                )
            )
        self.became = Table(
            "decomposition",
            ["node", "op", "became", "ops"],
            rows,
            title=i18n.t("table.decomposition", table=table_label, a=self.node_counts[0], b=self.node_counts[1]),
        )

    def tables(self) -> list[Table]:
        return [self.op_diff, self.became]

    def __repr__(self) -> str:
        return f"{self.became.title}\n\n{self.op_diff.to_text()}\n\n{self.became.to_text()}"


def decomposition(ep: Any, table: Any = None) -> Decomposition:
    """Decompose a copy of `ep` (None/{}/"empty": the empty table; "core": Core ATen; or a dict)."""
    ep = getattr(ep, "exported_program", None) or ep
    if not isinstance(ep, torch.export.ExportedProgram):
        raise Pt2eLensError(i18n.t("error.decomposition_needs_program", got=type(ep).__name__))
    label, resolved = decomposition_table(table, "pl.decomposition")
    try:
        new_ep = ep.run_decompositions() if resolved is None else ep.run_decompositions(resolved)
    except Exception as e:
        raise Pt2eLensError(i18n.t("error.decomposition_failed", reason=first_line(e)), original=e) from None
    before, after = build(ep.module(), "exported"), build(new_ep.module(), "decomposed")
    return Decomposition(new_ep, with_findings(before), with_findings(after), label)
