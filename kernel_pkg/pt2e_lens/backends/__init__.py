"""What a backend did with a converted graph: Inductor's fused int8 kernels, XNNPACK's delegated partitions.

Each backend module lowers a private copy of a converted GraphModule and returns a `BackendRecord`,
read from the backend's own records (Inductor's post-grad graph and pattern-matcher counters,
ExecuTorch's delegation info), never from our reading of the converted graph.

A backend is a module in this package with `lower(gm, example_inputs, **options) -> BackendRecord`; it plugs
in by its line in `BACKENDS`, imported only when asked for (torch.compile / ExecuTorch load slowly).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import torch

from .. import i18n
from ..errors import Pt2eLensError
from .record import OUTCOMES, BackendRecord, NodeOutcome

# backend name -> its module in this package
BACKENDS = {"inductor": ".inductor", "xnnpack": ".xnnpack"}
# backend name -> as its makers spell it (a lowered pane's label in pl.compare: "Inductor", not "lowered #1")
BACKEND_TITLES = {"inductor": "Inductor", "xnnpack": "XNNPACK"}


def backend_module(name: Any) -> ModuleType:
    """The module that lowers with `name`; an unknown name is one line listing the known ones."""
    if not isinstance(name, str) or name not in BACKENDS:
        raise Pt2eLensError(i18n.t("error.backend_unknown", name=repr(name), known=", ".join(BACKENDS)))
    try:
        return importlib.import_module(BACKENDS[name], __name__)
    except ModuleNotFoundError as e:
        if e.name is None or not e.name.startswith(__name__):
            raise Pt2eLensError(i18n.t("error.backend_missing_package", name=name, package=e.name)) from None
        raise Pt2eLensError(i18n.t("error.backend_not_here", name=name)) from None


def lower(name: str, gm: torch.fx.GraphModule, example_inputs: tuple, **options: Any) -> BackendRecord:
    """Lower a private copy of the converted `gm` with backend `name`; the user's objects stay untouched."""
    return backend_module(name).lower(gm, example_inputs, **options)


__all__ = ["BACKENDS", "OUTCOMES", "BackendRecord", "NodeOutcome", "backend_module", "lower"]
