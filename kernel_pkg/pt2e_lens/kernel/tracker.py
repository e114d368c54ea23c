"""The current model: the Run in the user namespace created or changed most recently (else the newest
ExportedProgram or GraphModule: a Run is what the course quantizes), unless one is pinned with `%pt2e watch NAME`.

`scan()` runs after every cell, so it only compares identities (weak references) and a cheap
version per object; it never snapshots anything. Snapshots are built on request and cached per
(object, version).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

import torch

from ..capture import Run

KINDS = ((Run, "Run"), (torch.export.ExportedProgram, "ExportedProgram"), (torch.fx.GraphModule, "GraphModule"))
_TYPES = tuple(cls for cls, _ in KINDS)


def kind_of(obj: Any) -> str | None:
    for cls, name in KINDS:
        if issubclass(type(obj), cls):
            return name
    return None


def version(obj: Any) -> tuple:
    """Changes when the object's graph is replaced or gains/loses nodes (or a Run gains a stage)."""
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

    def poll(self) -> bool:
        """Scan; True when the model set or the current model changed since the last poll."""
        self.scan()
        state = (self.current, self._signature())
        changed, self._reported = state != self._reported, state
        return changed

    def scan(self) -> None:
        """Update entries from the namespace: new, replaced, changed and deleted models."""
        self.tick += 1
        seen = set()
        for position, (name, obj) in enumerate(self.user_ns.items()):
            # type(obj), not isinstance: no user code (a __class__ property) runs after every cell
            if not issubclass(type(obj), _TYPES) or not isinstance(name, str) or name.startswith("_"):
                continue
            if name in self.hidden and self.hidden[name] is obj:
                continue
            seen.add(name)
            entry = self.entries.get(name)
            if entry is not None and entry.get() is obj:
                v = version(obj)
                if v != entry.version:
                    entry.version, entry.changed_at, entry.cache = v, self.tick, {}
                entry.position = position
                continue
            self.entries[name] = Entry(
                name, kind_of(obj) or type(obj).__name__, _ref(obj), version(obj), self.tick, position
            )
        for name in [n for n in self.entries if n not in seen]:
            del self.entries[name]
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
        return max(self.entries.values(), key=lambda e: (e.kind == "Run", e.changed_at, e.position)).name

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
