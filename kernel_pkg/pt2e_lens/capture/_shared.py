"""Weights that a Run's stages hold as one tensor instead of one copy per stage, guarded against writes.

Every stage used to own a whole copy of the model's parameters (the program, the module prepare mutates,
the prepared stage, the re-made calibrated one): 3-4× the weights where torchao alone needs none. But no
step of PTQ that pt2e-lens runs itself writes a parameter in place: export graphs never mutate parameters,
torchao's prepare folds batch norms into new tensors, observers write only their own buffers, convert folds
weights into new constants. So the stages share Parameters (buffers and constants are still copied: forwards
do write buffers). Two kinds:

- the user's own (`theirs`): the program pt2e-lens exported, or the ExportedProgram the user gave, keeps the
  user's Parameters. They never go to third-party code as they are: the module a quantizer prepares holds
  aliases of them, their bytes kept in a temp file and put back where the quantizer wrote (`loan`,
  capture/_lent.py); a calibration callable gets copies (`unshare_theirs`).
- pt2e-lens's own (`ours`): copies taken from a user's GraphModule (restorable from it) and what prepare made
  (a conv weight with its batch norm folded in). Third-party code may run on them.

Each step ends with `check`, comparing every shared tensor's version counter with the one it had. A moved
one is given to the working module as its own copy with the value written, and the shared tensor is put
back from its source; one with no source cannot be put back: one line says so. A stage's graph or program
handed to the user gets its own copies first (`unshare`): what the user does with it never reaches another
stage, nor the user's model.
"""

from __future__ import annotations

import warnings
import weakref
from typing import Any

import torch

from .. import i18n
from .._copy import own_tensors
from ..errors import Pt2eLensError, Pt2eLensWarning
from ._lent import Loan


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
        self._theirs: set[int] = set()  # the user's own tensors, held as they are
        self._names: dict[int, str] = {}  # id -> the state-dict name it was shared under (for messages)

    @property
    def ids(self) -> frozenset[int]:
        """Every shared tensor: pt2e-lens's own copies of a stage may hold them as they are."""
        return frozenset(self._held)

    @property
    def ours(self) -> frozenset[int]:
        """The shared tensors a module that third-party code runs on may hold as they are."""
        return frozenset(self._held.keys() - self._theirs)

    def add_theirs(self, program: torch.export.ExportedProgram) -> None:
        """`program`'s Parameters, the user's own objects (see own_program(share_parameters=True))."""
        for name, t in program.state_dict.items():
            if isinstance(t, torch.nn.Parameter) and id(t) not in self._held:
                self._held[id(t)] = (t, t._version, None)
                self._theirs.add(id(t))
                self._names[id(t)] = name

    def add_program(self, own: torch.export.ExportedProgram, source: torch.export.ExportedProgram | None) -> None:
        """`own`'s parameters, restorable from `source`'s of the same name (the program `own` was copied from)."""
        theirs = source.state_dict if source is not None else {}
        for name, t in own.state_dict.items():
            if isinstance(t, torch.nn.Parameter):
                self._add(t, theirs.get(name), name)

    def add_module(self, own: torch.nn.Module, source: torch.nn.Module | None = None) -> None:
        """`own`'s parameters (restorable from `source`'s of the same path, when given)."""
        theirs = {name: t for name, t in _parameters(source).values()} if source is not None else {}
        for name, t in _parameters(own).values():
            self._add(t, theirs.get(name), name)

    def _add(self, t: torch.Tensor, source: torch.Tensor | None, name: str) -> None:
        if id(t) in self._held:
            return
        self._names[id(t)] = name
        ok = source is not None and source is not t and source.shape == t.shape and source.dtype == t.dtype
        self._held[id(t)] = (t, t._version, weakref.ref(source) if ok else None)

    def loan(self) -> Loan:
        """A Loan (capture/_lent.py) of the user's own tensors, for a module third-party code prepares."""
        return Loan(self._theirs)

    def lent_back(self, lent: list[tuple[torch.Tensor, int]]) -> None:
        """A loan settled: its writes into the user's tensors are undone, so the versions they moved by are no
        write of the user's (one made before the loan, by the user, still is: see check)."""
        for t, version in lent:
            held = self._held.get(id(t))
            if held is not None and held[1] == version:
                self._held[id(t)] = (t, t._version, held[2])

    def unshare_theirs(self, module: torch.nn.Module) -> None:
        """Copies for `module` of the user's tensors it holds (before code that is not pt2e-lens's runs on it)."""
        own_tensors(module, only=self._theirs)

    def check(self, working: torch.nn.Module | None) -> None:
        """After a step ran code on `working`: shared tensors written in place go back to what they were.

        The user's own tensors never reach code that is not pt2e-lens's (see the module doc): one that moved was
        written by the user, into their own model. The stages follow it, as torch.export's program and torchao's
        prepared module (which share the model's Parameters) do; one warning says so."""
        moved = [(i, t, src) for i, (t, version, src) in self._held.items() if t._version != version]
        if not moved:
            return
        for i, t, _ in moved:
            if i in self._theirs:
                self._held[i] = (t, t._version, None)
                text = i18n.t("warning.user_weight_changed", name=self._names.get(i, "?"))
                warnings.warn(text, Pt2eLensWarning, stacklevel=4)  # the user's run.calibrate(…) / convert()
        moved = [m for m in moved if m[0] not in self._theirs]
        if not moved:
            return
        if working is not None:  # the working module keeps what was written, as its own tensor
            own_tensors(working, only={i for i, _, _ in moved})
        for i, t, src in moved:
            source = src() if src is not None else None
            if source is None:
                self._held[i] = (t, t._version, None)  # said once: the next step does not fail on it again
                raise Pt2eLensError(i18n.t("error.weights_written", name=self._names.get(i, "?")))
            with torch.no_grad():
                t.copy_(source)
            self._held[i] = (t, t._version, src)

    def unshare(self, module: torch.nn.Module) -> None:
        """Give `module` its own copy of every shared tensor it holds (before it is handed out)."""
        own_tensors(module, only=self.ids)

    def unshare_program(self, program: torch.export.ExportedProgram) -> None:
        """Give `program` its own copy of every shared tensor in its state dict (before it is handed out)."""
        for name, t in list(program.state_dict.items()):
            if id(t) in self._held:
                c = t.detach().clone()
                program.state_dict[name] = torch.nn.Parameter(c, requires_grad=t.requires_grad)
