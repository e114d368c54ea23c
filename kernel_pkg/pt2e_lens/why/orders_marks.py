"""Which observer nodes moved between two prepared graphs of one model, for the compare views.

Both prepared graphs name their observers `activation_post_process_N` in graph order, so matching by name pairs
observers that watch different tensors. Observers are paired by what they serve instead (the edge or node of
torchao's `edge_or_node_to_obs`, named by the ops around it, which keep their names across orders): one that serves
nothing the other graph observes moved. `pl.compare_orders` reads what they serve from its capture record,
`pl.compare` from the snapshots (the same record for a Run's stage, read off the graph for plain prepare_pt2e)."""

from __future__ import annotations

from typing import Any

from .. import i18n
from ..analyses.table import Table
from ..analyses.text import key_phrase
from ..snapshot.keys import Key, key_of

Served = dict[str, set[Key]]  # observer node id → the edges/nodes it serves


def outcome_served(outcome: Any) -> Served:
    """What each observer node of a `compare_orders` order serves, from its capture record."""
    nodes = {str(n.target): n.name for n in outcome.gm.graph.nodes if n.op == "call_module"}
    out: Served = {}
    for key, module in outcome.observer_of.items():
        if module in nodes:
            out.setdefault(nodes[module], set()).add(key)
    return out


def snapshot_served(snap: Any) -> Served:
    """What each observer node of a snapshot serves (its `observers[].serves`)."""
    out: Served = {}
    for o in snap.observers:
        keys = {key_of(s["at"]) for s in o["serves"]}
        for node in o["nodes"]:
            out.setdefault(node, set()).update(keys)
    return out


def moved(a: Served, b: Served) -> tuple[list[tuple[str, str]], dict[str, Key], dict[str, Key]]:
    """(observer pairs `(a node, b node)` that serve a same edge/node, observers of `a` serving nothing `b`
    observes, the same of `b` against `a`), each moved one with the first edge/node it serves."""
    by_key_b: dict[Key, str] = {}
    for n, keys in b.items():
        for k in keys:
            by_key_b.setdefault(k, n)  # a shared observer inserted twice: its first node in graph order
    pairs = []
    for n, keys in a.items():
        shared = sorted(keys & set(by_key_b))
        if shared:
            pairs.append((n, by_key_b[shared[0]]))
    served_a = set().union(*a.values()) if a else set()
    gone = {n: min(keys) for n, keys in a.items() if keys and not keys & set(by_key_b)}
    new = {n: min(keys) for n, keys in b.items() if keys and not keys & served_a}
    return pairs, gone, new


def mark_moved(d: dict, a: Served, b: Served) -> tuple[dict[str, Key], dict[str, Key]]:
    """Re-pair a StageDiff dict's observer nodes by what they serve (in place) and return the moved ones."""
    a, b = {n: k for n, k in a.items() if k}, {n: k for n, k in b.items() if k}  # serving nothing known: by name
    pairs, gone, new = moved(a, b)
    paired_a, paired_b = {p[0] for p in pairs}, {p[1] for p in pairs}
    # same names, different tensors: not the same observer; different names, same tensor: the same one
    d["kept"] = [p for p in d["kept"] if p[0] not in a and p[1] not in b] + [list(p) for p in pairs]
    d["removed"] = list(dict.fromkeys([*(n for n in d["removed"] if n not in paired_a), *gone]))
    d["added"] = list(dict.fromkeys([*(n for n in d["added"] if n not in paired_b), *new]))
    d["became"] = {
        x: [y for y in ys if y not in new and y not in paired_b]
        for x, ys in d["became"].items()
        if x not in gone and x not in paired_a
    }
    return gone, new


def moved_line(gone: dict[str, Key], new: dict[str, Key], label_a: str, label_b: str) -> str | None:
    """One sentence saying what moved between two panes (or, when only one pane has more, what only it observes),
    None when nothing did."""
    sep = i18n.t("orders.sep")
    sides = [
        (label, sep.join(key_phrase(k) for k in found.values()))
        for label, found in ((label_a, gone), (label_b, new))
        if found
    ]
    if len(sides) == 1:
        return i18n.t("compare.moved.only", label=sides[0][0], at=sides[0][1])
    said = [i18n.t("compare.moved.side", label=label, at=at) for label, at in sides]
    return i18n.t("compare.moved.line", sides=sep.join(said)) if said else None


def moved_table(rows: list[tuple[str, str, str]], title: str) -> Table:
    """The moved observers as rows (pane, observer node, what it serves): readable with no script too."""
    return Table("moved_observers", ["pane", "observer", "at"], rows, title=title)
