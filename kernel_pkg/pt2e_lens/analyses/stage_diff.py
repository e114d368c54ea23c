"""What changed between two stages, nodes aligned by name and target, then by provenance."""

from __future__ import annotations

from typing import Any

from .. import i18n
from ..display_hook import Displayable
from .source import snapshot
from .table import Table


class StageDiff(Displayable):
    def __init__(
        self,
        kept: list[tuple[str, str]],
        removed: list[str],
        added: list[str],
        became: dict[str, list[str]],
        label_a: str = "a",
        label_b: str = "b",
    ):
        self.kept, self.removed, self.added, self.became = kept, removed, added, became
        self.label_a, self.label_b = label_a, label_b

    def to_dict(self, index_from: int = 0, index_to: int = 1) -> dict:
        """The contract's StageDiff, for panes index_from → index_to."""
        return {
            "from": index_from,
            "to": index_to,
            "kept": [list(p) for p in self.kept],
            "removed": self.removed,
            "added": self.added,
            "became": self.became,
        }

    def table(self) -> Table:
        rows = [("removed", n, ", ".join(self.became.get(n, []))) for n in self.removed]
        rows += [("added", n, "") for n in self.added]
        return Table(
            "stage_diff",
            ["change", "node", "became"],
            rows,
            title=i18n.t("table.stage_diff", a=self.label_a, b=self.label_b, n=len(self.kept)),
        )

    def __repr__(self) -> str:
        return (
            f"<StageDiff {self.label_a}→{self.label_b}: kept {len(self.kept)}, removed {len(self.removed)}, "
            f"added {len(self.added)}>"
        )

    def tables(self) -> list[Table]:
        return [self.table()]


def stage_diff(a: Any, b: Any, label_a: str = "a", label_b: str = "b") -> StageDiff:
    sa, sb = snapshot(a), snapshot(b)
    in_a = sa.node
    kept = [(n["id"], n["id"]) for n in sb.nodes if (m := in_a.get(n["id"])) and m["target_full"] == n["target_full"]]
    kept_a = {p[0] for p in kept}
    removed = [n["id"] for n in sa.nodes if n["id"] not in kept_a]
    added = [n["id"] for n in sb.nodes if n["id"] not in kept_a]
    # a removed node "became" the added nodes that trace back to the same roots
    removed_by_root: dict[str, list[str]] = {}
    for nid in removed:
        for root in sa.node[nid]["provenance"] or [nid]:
            removed_by_root.setdefault(root, []).append(nid)
    became: dict[str, list[str]] = {}
    for nid in added:
        for root in sb.node[nid]["provenance"]:
            for old in removed_by_root.get(root, []):
                if nid not in became.setdefault(old, []):
                    became[old].append(nid)
    return StageDiff(kept, removed, added, became, label_a, label_b)
