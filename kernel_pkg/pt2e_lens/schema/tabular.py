"""The `tabular` layout of a packed View (docs/contract.md, "Packed transport"): the same JSON, reshaped so
gzip finds its repeats.

A Run's View holds five full snapshots: the same module stacks, sources and specs recur hundreds of kB apart,
beyond gzip's 32 kB window. Two reversible, schema-agnostic steps bring them together:
- a list of >= 4 objects with the same keys in the same order becomes columns:
  `{"$cols": [key, ...], "$rows": [[values of key 1], [values of key 2], ...]}`;
- a list or object (after the first step) that occurs more than once, and is not tiny, is stored once in
  `values` and replaced by `{"$": index}`; an entry of `values` refers only to earlier entries.
The layout is `{"values": [...], "root": ...}`. It is only written for documents with no key starting with
`$`, so the markers cannot be confused with data.
"""

from __future__ import annotations

from typing import Any

from . import LIMITS
from .bounds import TooBig, check_tabular

_MIN_ROWS = 4  # fewer rows gain nothing from columns
_MIN_SIZE = 16  # ~bytes of JSON below which a reference `{"$":123}` would not pay


class TabularProblem(ValueError):
    """The tabular data does not decode; the message is one line."""


class TabularTooBig(TabularProblem, TooBig):
    """Its expansion breaks one of the contract's limits (the message names the bound)."""


class _Encoder:
    def __init__(self) -> None:
        self.ids: dict[tuple, int] = {}  # structural key → composite id
        self.nodes: list[tuple] = []  # id → ("l", children) | ("d", keys, children) | ("t", keys, columns)
        self.size: list[int] = []  # id → approximate JSON length
        self.uses: list[int] = []
        self.plain = True  # no key starts with "$"

    def _intern(self, key: tuple, size: int) -> int:
        cid = self.ids.get(key)
        if cid is None:
            cid = self.ids[key] = len(self.nodes)
            self.nodes.append(key)
            self.size.append(size)
            self.uses.append(0)
        self.uses[cid] += 1
        return cid

    def child(self, v: Any) -> tuple[Any, int]:
        """(the child's key, its approximate JSON length). Composite keys are ints, other values are tagged."""
        if isinstance(v, str):
            return v, len(v) + 2
        if isinstance(v, (list, dict)):
            cid = self.composite(v)
            return cid, self.size[cid]
        if isinstance(v, float):  # 0.0 and -0.0 are equal but write differently: key by the exact value
            return (float, v.hex(), v), 8
        return (type(v), v), 5  # 1, 1.0 and True stay apart

    def _list(self, items: list) -> int:
        children, size = [], 2
        for v in items:
            k, s = self.child(v)
            children.append(k)
            size += s + 1
        return self._intern(("l", tuple(children)), size)

    def composite(self, x: list | dict) -> int:
        if isinstance(x, dict):
            keys = tuple(x)
            if self.plain and any(k.startswith("$") for k in keys):
                self.plain = False
            children, size = [], 2
            for k, v in x.items():
                c, s = self.child(v)
                children.append(c)
                size += s + len(k) + 4
            return self._intern(("d", keys, tuple(children)), size)
        if len(x) >= _MIN_ROWS and isinstance(x[0], dict):
            keys = tuple(x[0])
            if keys and all(isinstance(r, dict) and tuple(r) == keys for r in x):
                if self.plain and any(k.startswith("$") for k in keys):
                    self.plain = False
                columns = [self._list([r[k] for r in x]) for k in keys]
                size = 20 + sum(self.size[c] + len(k) + 4 for c, k in zip(columns, keys, strict=True))
                return self._intern(("t", keys, tuple(columns)), size)
        return self._list(x)

    def emit(self, key: Any, values: list, index: dict[int, int]) -> Any:
        if not isinstance(key, int):
            return key if isinstance(key, str) else key[-1]
        if self.uses[key] >= 2 and self.size[key] >= _MIN_SIZE:
            at = index.get(key)
            if at is None:
                body = self.build(key, values, index)
                at = index[key] = len(values)
                values.append(body)
            return {"$": at}
        return self.build(key, values, index)

    def build(self, cid: int, values: list, index: dict[int, int]) -> Any:
        node = self.nodes[cid]
        if node[0] == "l":
            return [self.emit(k, values, index) for k in node[1]]
        if node[0] == "d":
            return {k: self.emit(c, values, index) for k, c in zip(node[1], node[2], strict=True)}
        return {"$cols": list(node[1]), "$rows": [self.emit(c, values, index) for c in node[2]]}


def encode(doc: Any) -> dict | None:
    """`doc` in the tabular layout, or None when it has a key starting with `$` (then pack it plain)."""
    enc = _Encoder()
    root, _ = enc.child(doc)
    if not enc.plain:
        return None
    values: list = []
    return {"values": values, "root": enc.emit(root, values, {})}


def decode(data: Any, limits: dict = LIMITS) -> Any:
    """The document a tabular layout holds; raises TabularProblem (one line) on anything malformed or on an
    expansion over the contract's limits (measured before anything is expanded: schema/bounds.py)."""
    if not isinstance(data, dict) or not isinstance(data.get("values"), list) or "root" not in data:
        raise TabularProblem('expected {"values": [...], "root": ...}')
    values: list = data["values"]
    try:
        check_tabular(values, data["root"], limits)
    except TooBig as e:
        raise TabularTooBig(str(e)) from None
    max_nodes = limits["max_values"]
    budget = [max_nodes]

    def expand(x: Any, limit: int) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            raise TabularProblem(f"it expands to more than {max_nodes:,} values")
        if isinstance(x, list):
            return [expand(v, limit) for v in x]
        if not isinstance(x, dict):
            return x
        if "$" in x:
            i = x["$"]
            if len(x) != 1 or type(i) is not int or not 0 <= i < limit:
                raise TabularProblem(f"a bad reference {x!r:.40}")
            return expand(values[i], i)  # an entry refers only to earlier ones: no cycle
        if "$cols" in x:
            keys, rows = x["$cols"], expand(x.get("$rows"), limit)
            ok = isinstance(keys, list) and all(isinstance(k, str) for k in keys) and isinstance(rows, list)
            if not ok or len(x) != 2 or len(rows) != len(keys) or not all(isinstance(c, list) for c in rows):
                raise TabularProblem("a bad column table")
            n = len(rows[0]) if rows else 0
            if any(len(c) != n for c in rows):
                raise TabularProblem("columns of different lengths")
            return [dict(zip(keys, r, strict=True)) for r in zip(*rows, strict=True)] if keys else []
        return {k: expand(v, limit) for k, v in x.items()}

    try:
        return expand(data["root"], len(values))
    except RecursionError:
        raise TabularProblem("nested too deep") from None
