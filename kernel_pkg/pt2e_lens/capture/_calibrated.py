"""The calibrated stage without a whole-graph copy: the copy it started from plus what calibration changed.

Calibration only runs forwards. A forward of a prepared GraphModule runs its graph's ops and the modules
its `call_module` nodes name (observers, fake-quantizes); graph ops can only change tensors in place. So
instead of deep-copying the whole working module after each calibrate() (at ~100k nodes that copy and the
garbage collector's passes over it cost more than the rest of pl.capture), we copy those called modules and
every tensor whose object or version counter moved, and make the stage's graph from the stage the working
module was a copy of, the first time it is asked for.
"""

from __future__ import annotations

import copy
import warnings
from typing import Any

import torch

from .._copy import private_copy

# (module path, "_parameters" / "_buffers" / "attr", name): where a tensor of the module lives
_Key = tuple[str, str, str]


def _called(gm: torch.fx.GraphModule) -> list[str]:
    """The modules the forward runs Python code of: observers and fake-quantizes in a prepared graph."""
    return list(dict.fromkeys(n.target for n in gm.graph.nodes if n.op == "call_module"))  # type: ignore[misc]


def _tensors(gm: torch.fx.GraphModule, called: list[str]) -> dict[_Key, torch.Tensor]:
    """Every parameter, buffer and tensor attribute outside the called modules (those are copied whole)."""
    out: dict[_Key, torch.Tensor] = {}
    inside = set(called)
    for path, mod in gm.named_modules():
        parts = path.split(".")
        if path and any(".".join(parts[:i]) in inside for i in range(1, len(parts) + 1)):
            continue
        for store in ("_parameters", "_buffers"):
            for name, t in getattr(mod, store).items():
                if t is not None:
                    out[(path, store, name)] = t
        for name, value in vars(mod).items():
            if isinstance(value, torch.Tensor):  # tensor constants
                out[(path, "attr", name)] = value
    return out


class Baseline:
    """The working module's tensors at the moment it was equal to `stage`'s graph (a copy of it)."""

    def __init__(self, stage: Any, working: torch.fx.GraphModule):
        self.stage = stage
        self._called = _called(working)
        self._seen = {k: (t, t._version) for k, t in _tensors(working, self._called).items()}

    def changes(self, working: torch.fx.GraphModule) -> dict[str, Any] | None:
        """Copies of what calibration changed since then; None when more than tensors moved (then copy it all)."""
        if self.stage.handed_out or _called(working) != self._called:  # its graph may not be what it was
            return None
        now = _tensors(working, self._called)
        if now.keys() != self._seen.keys():
            return None
        moved = {k: t for k, t in now.items() if self._seen[k][0] is not t or self._seen[k][1] != t._version}
        called = {name: working.get_submodule(name) for name in self._called}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            # one deepcopy for both: tensors tied to each other stay tied, a Parameter stays a Parameter
            return copy.deepcopy({"modules": called, "tensors": moved})


def remake(stage: Any, changes: dict[str, Any]) -> torch.fx.GraphModule:
    """The working module as it was when `changes` were taken: a private copy of `stage`'s graph, patched."""
    gm = private_copy(stage.own_graph())
    for name, module in changes["modules"].items():
        parent, _, leaf = name.rpartition(".")
        setattr(gm.get_submodule(parent) if parent else gm, leaf, module)
    for (path, store, name), t in changes["tensors"].items():
        mod = gm.get_submodule(path)
        if store == "attr":
            object.__setattr__(mod, name, t)
        else:
            getattr(mod, store)[name] = t
    return gm
