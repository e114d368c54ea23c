"""The current model: the one the user touched last — created, changed or drawn (`pl.show`, `pl.compare`, or
the cell's displayed value) — Run or graph alike (issue 26.4: a newer graph the user is looking at must not
leave the panel on an older Run), unless one is pinned with `%pt2e watch NAME`. Within one cell a drawn model
wins over one merely assigned, the last drawn over earlier ones, then a Run over a graph.

`scan()` runs after every cell, so it only compares identities (weak references) and a cheap
version per object; it never snapshots anything. Snapshots are built on request and cached per
(object, version).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

import torch

from .._touched import take as take_touched
from ..capture import Run
from .models import workbench_class

KINDS = ((Run, "Run"), (torch.export.ExportedProgram, "ExportedProgram"), (torch.fx.GraphModule, "GraphModule"))
_TYPES = tuple(cls for cls, _ in KINDS)


def _kinds() -> tuple:
    wb = workbench_class()
    return KINDS + ((wb, "Workbench"),) if wb is not None else KINDS


def kind_of(obj: Any) -> str | None:
    for cls, name in _kinds():
        if issubclass(type(obj), cls):
            return name
    return None


def version(obj: Any) -> tuple:
    """Changes when the object's graph is replaced or gains/loses nodes (or a Run gains a stage; a workbench's
    Run, or the workbench gets a new one)."""
    wb = workbench_class()
    if wb is not None and isinstance(obj, wb):
        return (id(obj.run),) + (version(obj.run) if obj.run is not None else ())
    if isinstance(obj, Run):
        return tuple(id(s) for s in obj)
    graph = obj.graph  # GraphModule.graph; ExportedProgram.graph
    return (id(graph), len(graph.nodes))


@dataclass
class Entry:
    name: str
    kind: str
    ref: Any  # weakref to the user's object: the tracker never keeps a deleted model alive
    version: tuple
    changed_at: int
    position: int
    drawn: int = 0  # 1 + the order in which it was drawn in the cell of `changed_at` (0: not drawn)
    cache: dict = field(default_factory=dict)  # per-version derived data (info, snapshots)

    def get(self) -> Any:
        return self.ref()


def _ref(obj: Any):
    try:
        return weakref.ref(obj)
    except TypeError:  # not weak-referenceable: hold it (only our own classes could hit this)
        return lambda: obj


class Tracker:
    def __init__(self, user_ns: dict, hidden: dict | None = None):
        self.user_ns = user_ns
        self.hidden = hidden or {}
        self.entries: dict[str, Entry] = {}
        self.pinned: str | None = None
        self.tick = 0
        self._reported: tuple | None = None

    def poll(self, shown: Any = None) -> bool:
        """Scan; True when the model set or the current model changed since the last poll.
        `shown`: the cell's displayed value (IPython's `result.result`), a touch like a drawing."""
        self.scan(shown)
        state = (self.current, self._signature())
        changed, self._reported = state != self._reported, state
        return changed

    def scan(self, shown: Any = None) -> None:
        """Update entries from the namespace: new, replaced, changed, drawn and deleted models."""
        self.tick += 1
        drawn = take_touched() + ([id(shown)] if shown is not None else [])
        seen = set()
        types = tuple(cls for cls, _ in _kinds())
        for position, (name, obj) in enumerate(self.user_ns.items()):
            # type(obj), not isinstance: no user code (a __class__ property) runs after every cell
            if not issubclass(type(obj), types) or not isinstance(name, str) or name.startswith("_"):
                continue
            if name in self.hidden and self.hidden[name] is obj:
                continue
            seen.add(name)
            entry = self.entries.get(name)
            if entry is not None and entry.get() is obj:
                v = version(obj)
                if v != entry.version:
                    entry.version, entry.changed_at, entry.cache, entry.drawn = v, self.tick, {}, 0
                entry.position = position
                continue
            self.entries[name] = Entry(
                name, kind_of(obj) or type(obj).__name__, _ref(obj), version(obj), self.tick, position
            )
        for name in [n for n in self.entries if n not in seen]:
            del self.entries[name]
        if drawn:
            order = {obj_id: i + 1 for i, obj_id in enumerate(drawn)}  # a model drawn twice: its last drawing
            for entry in self.entries.values():
                # a Run is touched through any of its stages too (`pl.show(run["prepared"])`, `run[converted]`)
                ids = (id(entry.get()),) + (entry.version if entry.kind == "Run" else ())
                rank = max((order[i] for i in ids if i in order), default=None)
                if rank is not None:
                    entry.changed_at, entry.drawn = self.tick, rank
        if self.pinned is not None and self.pinned not in self.entries:
            self.pinned = None

    def _signature(self) -> tuple:
        return tuple((e.name, id(e.ref), e.version) for e in self.entries.values())

    @property
    def current(self) -> str | None:
        if self.pinned is not None:
            return self.pinned
        if not self.entries:
            return None
        return max(self.entries.values(), key=lambda e: (e.changed_at, e.drawn, e.kind == "Run", e.position)).name

    def touch(self, name: str) -> bool:
        """A model changed outside a cell (a workbench's step from its widget or the panel): True when its version
        moved, and then it is the model touched last."""
        entry = self.entries.get(name)
        obj = entry.get() if entry is not None else None
        if entry is None or obj is None or version(obj) == entry.version:
            return False
        self.tick += 1
        entry.version, entry.changed_at, entry.cache, entry.drawn = version(obj), self.tick, {}, 0
        return True

    def pin(self, name: str | None) -> None:
        if name is not None and name not in self.entries:
            raise KeyError(name)
        self.pinned = name

    def cached(self, name: str, key: Any, make) -> Any:
        """Per-(object, version) cache of derived data: dropped when the object changes."""
        entry = self.entries[name]
        if key not in entry.cache:
            entry.cache[key] = make(entry.get())
        return entry.cache[key]
