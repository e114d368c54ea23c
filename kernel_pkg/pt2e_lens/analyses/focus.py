"""What a focused view shows: nodes picked by op, node name, role or module scope, plus `hops` neighbours.

`focus=["conv2d", "relu"]` picks ops anywhere; `focus=pl.module("stem")` picks every node inside the
submodule `stem`; both together (`[pl.module("stem"), "conv2d", "relu"]`) pick those ops inside stem.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .. import i18n
from ..errors import Pt2eLensError, Pt2eLensWarning
from ..snapshot import Snapshot
from .source import snapshot

GUARDS_FN = "_guards_fn"


@dataclass(frozen=True)
class ModuleScope:
    """Every node whose nn_module_stack passes through submodule `path` (its children included)."""

    path: str

    def contains(self, node: dict) -> bool:
        if node["op"] == "call_module" and node["target"] == GUARDS_FN:
            return False  # torch.export's input-guard call borrows the first op's module stack
        prefix = self.path + "."
        return any(p == self.path or p.startswith(prefix) for p, _ in node["module_stack"])

    def __repr__(self) -> str:
        return f"pl.module({self.path!r})"


def module(path: str) -> ModuleScope:
    """A module scope for `focus`: `pl.module("stem")`, `pl.module("block.0")` (dotted, as in named_modules)."""
    if not isinstance(path, str) or not path.strip(". "):
        raise Pt2eLensError(i18n.t("error.module_path", got=repr(path)))
    return ModuleScope(path.strip("."))


@dataclass(frozen=True)
class FocusSpec:
    """A parsed focus: the names (op, node name or role) it selects and the module scopes it narrows to."""

    names: tuple[str, ...]
    scopes: tuple[ModuleScope, ...]

    def terms(self) -> list[str]:
        return [repr(s) for s in self.scopes] + [repr(n) for n in self.names]


def _describe(value: Any) -> str:
    text = repr(value)
    return f"{text[:40]}… (a {type(value).__name__})" if len(text) > 40 else f"{text} (a {type(value).__name__})"


def parse_focus(focus: Any) -> FocusSpec:
    """Check a focus argument: a name, pl.module(...), or a list/tuple/set of them."""
    if isinstance(focus, (str, ModuleScope)):
        items = [focus]
    elif isinstance(focus, (list, tuple, set, frozenset)):
        items = list(focus)
    else:
        items = [focus]
    bad = next((i for i in items if not isinstance(i, (str, ModuleScope))), None)
    if bad is not None:
        raise Pt2eLensError(i18n.t("error.focus_type", got=_describe(bad)))
    names = tuple(dict.fromkeys(i for i in items if isinstance(i, str)))
    scopes = tuple(dict.fromkeys(i for i in items if isinstance(i, ModuleScope)))
    return FocusSpec(names, scopes)


def check_hops(hops: Any) -> int:
    if isinstance(hops, bool) or not isinstance(hops, numbers.Integral) or hops < 0:
        raise Pt2eLensError(i18n.t("error.hops", got=_describe(hops)))
    return int(hops)


def check_title(title: Any) -> str | None:
    if title is not None and not isinstance(title, str):
        raise Pt2eLensError(i18n.t("error.title_type", got=_describe(title)))
    return title


def seeds(snap: Snapshot, spec: FocusSpec) -> tuple[set[str], list[str]]:
    """Node ids the focus picks, and the focus terms that picked nothing."""
    nodes = snap.nodes
    in_scope = {s: {n["id"] for n in nodes if s.contains(n)} for s in spec.scopes}
    pool = [n for n in nodes if any(n["id"] in ids for ids in in_scope.values())] if spec.scopes else nodes
    wanted = set(spec.names)
    if not wanted:
        picked = {n["id"] for n in pool}
        return picked, [repr(s) for s, ids in in_scope.items() if not ids]
    picked, hit = set(), set()
    for n in pool:
        for key in (n["target"], n["id"], n["role"]):
            if key in wanted:
                picked.add(n["id"])
                hit.add(key)
    missed = [repr(s) for s, ids in in_scope.items() if not ids] + [repr(x) for x in spec.names if x not in hit]
    return picked, missed


def widen(snap: Snapshot, ids: set[str], hops: int) -> set[str]:
    """`ids` plus neighbours up to `hops` edges away; stops when nothing new is reached (the graph's diameter)."""
    shown, frontier = set(ids), set(ids)
    users, inputs = snap.users, snap.inputs
    for _ in range(hops):
        nxt: set[str] = set()
        for nid in frontier:
            nxt.update(users[nid])
            nxt.update(inputs[nid])
        frontier = nxt - shown
        if not frontier:
            break
        shown |= frontier
    return shown


def _module_hint(snap: Snapshot, missed: Iterable[str]) -> str:
    paths = {p for n in snap.nodes for p, _ in n["module_stack"]}
    names = [m.strip("'\"") for m in missed if not m.startswith("pl.module")]
    mods = [m for m in names if m in paths or any(p.endswith("." + m) for p in paths)]
    if mods:
        return i18n.t("warning.focus_hint_module", name=repr(mods[0]))
    ops = sorted({n["target"] for n in snap.nodes if n["op"] == "call_function"})[:5]
    return i18n.t("warning.focus_hint_ops", ops=", ".join(ops))


def warn_missed(snap: Snapshot, missed: list[str], where: str | None = None, stacklevel: int = 3) -> None:
    """`where`: the catalogue's words for the place (default: this graph)."""
    if missed:
        warnings.warn(
            i18n.t(
                "warning.focus_missed",
                terms=", ".join(missed),
                where=where or i18n.t("warning.where_graph"),
                hint=_module_hint(snap, missed),
            ),
            Pt2eLensWarning,
            stacklevel=stacklevel + 1,
        )


def focus(x: Any, ops: Any, hops: int = 1) -> list[str]:
    """Node ids a view around `ops` shows: nodes whose op, name or role is listed (inside the pl.module
    scopes, if any), plus `hops` neighbours. Warns when a focus term matches nothing."""
    spec, hops = parse_focus(ops), check_hops(hops)
    snap = snapshot(x)
    picked, missed = seeds(snap, spec)
    warn_missed(snap, missed)
    shown = widen(snap, picked, hops)
    return [n["id"] for n in snap.nodes if n["id"] in shown]
