"""Feeding calibration batches so that one bad batch costs only itself.

Each batch is checked against the exported input shapes first (the real cause: channels, not batch size),
and every buffer (observer statistics, model state) is copied before it runs, so a batch that fails half
way through the graph is undone; feeding stops there and reports how many batches were observed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import torch

from .. import i18n
from ..errors import Pt2eLensError
from ._dtype_change import DtypeChange, first_dtype_change


class BadBatch(Exception):
    """A batch that cannot match the exported inputs: found before running it, so nothing is half observed."""


class ChangedDtype(Exception):
    """The batch failed because the prepared graph computes a node in another dtype than export did (the
    quantizer changed it, not the data): every batch would fail the same way."""

    def __init__(self, change: DtypeChange, original: Exception):
        super().__init__(str(original))
        self.change, self.original = change, original


def expected_inputs(gm: torch.fx.GraphModule) -> list[Any]:
    """The exported example value of each input (a FakeTensor whose static dims a batch must match)."""
    return [n.meta.get("val") for n in gm.graph.nodes if n.op == "placeholder"]


def _shape_problem(args: tuple, expected: list[Any], dynamic_batch: bool) -> str | None:
    if len(args) != len(expected) or not all(isinstance(v, torch.Tensor) for v in expected):
        return None  # nested or non-tensor inputs: let the forward judge them
    for i, (a, v) in enumerate(zip(args, expected)):
        if not isinstance(a, torch.Tensor):
            return f"input {i} is a {type(a).__name__}, the model was exported with a tensor"
        want = [d if type(d) is int else None for d in v.shape]
        exported = "[" + ", ".join("*" if w is None else str(w) for w in want) + "]"  # * = any size (dynamic)
        if a.dim() != len(want):
            return f"input {i} has {a.dim()} dims {list(a.shape)}, the model was exported with {len(want)}: {exported}"
        for d, (got, w) in enumerate(zip(a.shape, want)):
            if w is not None and got != w:
                what = "the batch size" if d == 0 else ("channels" if d == 1 else f"size of dim {d}")
                fix = (
                    " (a static batch size: use dynamic_batch=True to allow others)"
                    if d == 0 and not dynamic_batch
                    else ""
                )
                return (
                    f"input {i} has shape {list(a.shape)}, the model was exported with {exported}: "
                    f"{what} differs ({got} vs {w}){fix}"
                )
    return None


def _buffers(gm: torch.nn.Module) -> list[tuple[dict, str, torch.Tensor]]:
    """Copies of every buffer (observer statistics, model state): a failing batch is undone with them."""
    return [(m._buffers, k, t.clone()) for m in gm.modules() for k, t in m._buffers.items() if t is not None]


def feed(
    gm: torch.fx.GraphModule,
    batches: Iterable[Any],
    expected: list[Any],
    dynamic_batch: bool,
    observed: Callable[[], None] = lambda: None,
) -> tuple[int, tuple[int, BaseException] | None]:
    """Run each batch; stop at the first that fails, undoing what it observed. → (batches observed, failure).

    An interrupt (KeyboardInterrupt, a signal handler's exception) is a failure like any other here: the
    batch it hit is undone and the caller keeps the batches before it, then re-raises it."""
    done = 0
    try:
        it = iter(batches)
    except TypeError:
        raise Pt2eLensError(i18n.t("error.calibrate_batches_type", got=type(batches).__name__)) from None
    with torch.no_grad():
        try:
            while True:
                try:
                    batch = next(it)
                except StopIteration:
                    return done, None
                args = tuple(batch) if isinstance(batch, (tuple, list)) else (batch,)
                problem = _shape_problem(args, expected, dynamic_batch)
                if problem:
                    return done, (done, BadBatch(problem))
                saved, before = _buffers(gm), done
                try:
                    gm(*args)
                    done += 1
                    observed()  # progress: one more batch seen
                except BaseException as e:
                    if done == before:  # stopped inside the forward: undo what it observed of this batch
                        for store, k, t in saved:
                            store[k] = t
                    if isinstance(e, Exception) and (change := first_dtype_change(gm, args)) is not None:
                        raise ChangedDtype(change, e) from e
                    raise
        except BaseException as e:  # the data loader or the forward raised, or Ctrl-C / a signal arrived
            return done, (done, e)
