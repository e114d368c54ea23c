"""The calibrated stage without a whole-graph copy: the copy it started from plus what calibration changed.

Calibration only runs forwards. A forward of a prepared GraphModule runs its graph's ops and the modules
its `call_module` nodes name (observers, fake-quantizes); graph ops can only change tensors in place, and
torchao's observers change only their buffers, in place. So instead of deep-copying the whole working
module after each calibrate() (a whole graph each time, and more for the garbage collector to walk), we
copy every tensor whose object or version counter moved (and whole any called module that keeps more
Python state than that), and make the stage's graph from the stage the working module was a copy of, the
first time it is asked for.
"""

from __future__ import annotations

import copy
import enum
import warnings
from collections.abc import Collection
from typing import Any

import torch

from .._copy import plain_copies, private_copy, tensors_of

# (module path, "_parameters" / "_buffers" / "attr", name): where a tensor of the module lives
_Key = tuple[str, str, str]


def _called(gm: torch.fx.GraphModule) -> list[str]:
    """The modules the forward runs Python code of: observers and fake-quantizes in a prepared graph."""
    return list(dict.fromkeys(n.target for n in gm.graph.nodes if n.op == "call_module"))  # type: ignore[misc]


def _tensors(gm: torch.fx.GraphModule) -> dict[_Key, torch.Tensor]:
    """Every parameter, buffer and tensor attribute of every module."""
    out: dict[_Key, torch.Tensor] = {}
    for path, mod in gm.named_modules():
        for store in ("_parameters", "_buffers"):
            for name, t in getattr(mod, store).items():
                if t is not None:
                    out[(path, store, name)] = t
        for name, value in vars(mod).items():
            if isinstance(value, torch.Tensor):  # tensor constants
                out[(path, "attr", name)] = value
    return out


_ATOMS = (type(None), bool, int, float, str, torch.dtype, torch.device, torch.qscheme, enum.Enum)
_TENSOR_STORES = ("_parameters", "_buffers", "_non_persistent_buffers_set")


def _plain_state(mod: torch.nn.Module) -> tuple | None:
    """A called module's Python state when it is plain (atoms, its tensor names, no hooks or submodules), else None.

    torchao's observers are plain: their forward changes only their buffers, in place. Anything else (a
    fake-quantize with its observer inside, an observer that keeps a list) is deep-copied whole.
    """
    state: list[tuple] = []
    for k, v in vars(mod).items():
        if isinstance(v, torch.Tensor):
            continue
        if k in _TENSOR_STORES:
            state.append((k, tuple(v)))
        elif isinstance(v, _ATOMS):
            state.append((k, type(v), v))
        elif isinstance(v, dict) and not v:  # hooks, submodules: none
            state.append((k, "empty"))
        else:
            return None
    return tuple(state)


def _refers_to_graph(mod: torch.nn.Module) -> bool:
    """The module keeps fx Nodes, a Graph or other modules (Qualcomm's ConcatObserver keeps its cat's Node and,
    once calibrating, its inputs' observers): a copy of it alone would point into the working graph, so the
    whole working module is copied instead (private_copy maps them to the copy's own)."""
    todo = [v for k, v in vars(mod).items() if k not in ("_parameters", "_buffers", "_modules")]
    while todo:
        value = todo.pop()
        if isinstance(value, (torch.fx.Node, torch.fx.Graph, torch.nn.Module)):
            return True
        if isinstance(value, dict):
            todo.extend(value.values())
        elif isinstance(value, (list, tuple, set, frozenset)):
            todo.extend(value)
    return False


class Baseline:
    """The working module's state at the moment it was equal to `stage`'s graph (a copy of it)."""

    def __init__(self, stage: Any, working: torch.fx.GraphModule):
        self.stage = stage
        self._called = _called(working)
        self._plain = {name: _plain_state(working.get_submodule(name)) for name in self._called}
        self._seen = {k: (t, t._version) for k, t in _tensors(working).items()}

    def holds_tensors_of(self, gm: torch.fx.GraphModule) -> bool:
        """gm has the tensors (by module path and name) the working module had: `remake` can patch it."""
        return set(_tensors(gm)) == set(self._seen)

    def changes(self, working: torch.fx.GraphModule) -> dict[str, Any] | None:
        """Copies of what calibration changed since then; None when more than tensors moved (then copy it all)."""
        if self.stage.handed_out or _called(working) != self._called:  # its graph may not be what it was
            return None
        # a called module whose Python state is not plain, or changed, is copied whole with what it holds
        whole = [
            n
            for n in self._called
            if self._plain[n] is None or _plain_state(working.get_submodule(n)) != self._plain[n]
        ]
        if any(_refers_to_graph(working.get_submodule(n)) for n in whole):
            return None
        inside = set(whole)

        def copied_whole(path: str) -> bool:
            parts = path.split(".")
            return any(".".join(parts[:i]) in inside for i in range(1, len(parts) + 1))

        now = {k: t for k, t in _tensors(working).items() if not (inside and copied_whole(k[0]))}
        if now.keys() != {k for k in self._seen if not (inside and copied_whole(k[0]))}:  # a tensor came or went
            return None
        moved = {k: t for k, t in now.items() if self._seen[k][0] is not t or self._seen[k][1] != t._version}
        modules = {name: working.get_submodule(name) for name in whole}
        memo: dict[int, Any] = {}
        plain_copies([*moved.values(), *(t for m in modules.values() for t in tensors_of(m))], memo)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            # one deepcopy for both: tensors tied to each other stay tied, a Parameter stays a Parameter
            return copy.deepcopy({"modules": modules, "tensors": moved}, memo)


def remake(stage: Any, changes: dict[str, Any], shared: Collection[int] = ()) -> torch.fx.GraphModule:
    """The working module as it was when `changes` were taken: a private copy of `stage`'s graph, patched
    (sharing the tensors with ids in `shared`, the Run's SharedWeights)."""
    gm = private_copy(stage.own_graph(), shared)
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
