"""Turn what a user hands us (a Stage, GraphModule or ExportedProgram) into a GraphModule to read."""

from __future__ import annotations

import weakref
from abc import ABC, abstractmethod
from typing import Any

import torch

from . import i18n
from .errors import Pt2eLensError

_MODULES: weakref.WeakKeyDictionary[torch.export.ExportedProgram, torch.fx.GraphModule] = weakref.WeakKeyDictionary()


class HasGraph(ABC):
    """What holds a private GraphModule of its own (a capture Stage): read that one."""

    @property
    @abstractmethod
    def graph_module(self) -> torch.fx.GraphModule: ...


def as_graph_module(x: Any, what: str = "pt2e-lens") -> torch.fx.GraphModule:
    """The GraphModule behind x, never a copy of the user's: callers only read it.

    An ExportedProgram is read through `ep.module()`, the graph PT2E annotates (not `ep.graph_module`,
    whose parameters are lifted to inputs). `ep.module()` builds a new module each call and costs ~1 s at
    5k nodes, so it is built once per program.
    """
    if isinstance(x, torch.export.ExportedProgram):
        gm = _MODULES.get(x)
        if gm is None:
            gm = _MODULES[x] = x.module()
        return gm
    if isinstance(x, HasGraph):
        return x.graph_module
    if isinstance(x, torch.fx.GraphModule):
        return x
    if isinstance(x, torch.nn.Module):
        raise Pt2eLensError(i18n.t("error.graph_is_module", what=what, cls=type(x).__name__))
    raise Pt2eLensError(i18n.t("error.graph_type", what=what, cls=type(x).__name__))
