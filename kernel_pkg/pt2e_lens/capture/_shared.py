"""Weights that a Run's stages hold as one tensor instead of one copy per stage, guarded against writes.

Every stage used to own a whole copy of the model's parameters (the program, the module prepare mutates,
the prepared stage, the re-made calibrated one): 3-4× the weights where torchao alone needs none. But no
step of PTQ writes a parameter in place: export graphs never mutate parameters, torchao's prepare folds
batch norms into new tensors, observers write only their own buffers, convert folds weights into new
constants. So the program's copy is taken once and the later stages share its Parameters (buffers and
constants are still copied: forwards do write buffers).

Third-party code may still write (a quantizer's `transform_for_annotation`, a calibration callable): each
step ends with `check`, which compares every shared tensor's version counter with the one it had. A moved
one is given to the working module as its own copy, with the value written, and the shared tensor is put
back from the tensor it was copied from (the user's, which pt2e-lens never writes); a shared tensor with no
such source (made by prepare, e.g. a conv weight with its batch norm folded in) cannot be put back: one line
says so. A stage's graph handed to the user gets its own copies first (`unshare`): what the user does with
it never reaches another stage.
"""

from __future__ import annotations

import weakref
from typing import Any

import torch

from .. import i18n
from .._copy import own_tensors
from ..errors import Pt2eLensError


def _parameters(module: torch.nn.Module) -> dict[int, tuple[str, torch.Tensor]]:
    out: dict[int, tuple[str, torch.Tensor]] = {}
    for path, mod in module.named_modules():
        for name, t in mod._parameters.items():
            if t is not None:
                out.setdefault(id(t), (f"{path}.{name}" if path else name, t))
    return out


class SharedWeights:
    """The Parameters shared between a Run's stages: their versions when shared, and where to restore them from."""

    def __init__(self) -> None:
        # id -> (tensor, its version when shared, a weak reference to its source or None)
        self._held: dict[int, tuple[torch.Tensor, int, Any]] = {}

    @property
    def ids(self) -> frozenset[int]:
        return frozenset(self._held)

    def add_program(self, own: torch.export.ExportedProgram, source: torch.export.ExportedProgram | None) -> None:
        """`own`'s parameters, restorable from `source`'s of the same name (the program `own` was copied from)."""
        theirs = source.state_dict if source is not None else {}
        for name, t in own.state_dict.items():
            if isinstance(t, torch.nn.Parameter):
                self._add(t, theirs.get(name))

    def add_module(self, own: torch.nn.Module, source: torch.nn.Module | None = None) -> None:
        """`own`'s parameters (restorable from `source`'s of the same path, when given)."""
        theirs = {name: t for name, t in _parameters(source).values()} if source is not None else {}
        for name, t in _parameters(own).values():
            self._add(t, theirs.get(name))

    def _add(self, t: torch.Tensor, source: torch.Tensor | None) -> None:
        if id(t) in self._held:
            return
        ok = source is not None and source is not t and source.shape == t.shape and source.dtype == t.dtype
        self._held[id(t)] = (t, t._version, weakref.ref(source) if ok else None)

    def check(self, working: torch.nn.Module | None) -> None:
        """After a step ran code on `working`: shared tensors written in place go back to what they were."""
        moved = [(t, src) for t, version, src in self._held.values() if t._version != version]
        if not moved:
            return
        if working is not None:  # the working module keeps what was written, as its own tensor
            own_tensors(working, only={id(t) for t, _ in moved})
        for t, src in moved:
            source = src() if src is not None else None
            if source is None:
                names = [n for n, p in _parameters(working).values() if p is t] if working is not None else []
                raise Pt2eLensError(i18n.t("error.weights_written", name=(names or ["?"])[0]))
            with torch.no_grad():
                t.copy_(source)
            self._held[id(t)] = (t, t._version, src)

    def unshare(self, module: torch.nn.Module) -> None:
        """Give `module` its own copy of every shared tensor it holds (before it is handed out)."""
        own_tensors(module, only=self.ids)
