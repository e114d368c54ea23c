"""A quantizer wrapper that lets prepare_pt2e run unchanged while we watch.

It forwards every call to the user's quantizer, hands the graph right after annotation to
`on_annotated` (prepare mutates it next), and records what torchao does not keep: which
(sub-)quantizer wrote each node's annotation, and the {edge/node: observer instance} map handed to
`prepare_obs_or_fq_callback`.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from .._torchao import Q_ANNOTATION_KEY, ComposableQuantizer, Quantizer
from .watched_annotators import ANNOTATING, AnnotatorLog


class QuantizerFailed(Exception):
    """A user quantizer raised inside annotate/validate; carries its name for the one-line error."""

    def __init__(self, quantizer_name: str, method: str, original: BaseException):
        super().__init__(f"{quantizer_name}.{method}")
        self.quantizer_name, self.method, self.original = quantizer_name, method, original


def _annotation_ids(model: torch.fx.GraphModule) -> dict[str, int]:
    return {n.name: id(a) for n in model.graph.nodes if (a := n.meta.get(Q_ANNOTATION_KEY)) is not None}


class _Blame(Quantizer):
    """Stands in for one sub-quantizer of a ComposableQuantizer and notes which nodes it annotated.

    Each instance gets a subclass named like the quantizer it wraps, so ComposableQuantizer's own
    "Quantizer X has changed annotations" message keeps naming the user's class.
    """

    def __init__(
        self,
        inner: Quantizer,
        blame: dict[str, str],
        skipped_by: dict[str, list[str]],
        label: str,
        log: AnnotatorLog | None,
    ):
        super().__init__()
        self.inner, self.blame, self.skipped_by, self.label, self.log = inner, blame, skipped_by, label, log

    def transform_for_annotation(self, model):
        return self.inner.transform_for_annotation(model)

    def annotate(self, model):
        already = _annotation_ids(model)
        annotate_with_blame(self.inner, model, self.blame, self.skipped_by, self.label, self.log)
        for name in already:  # annotated before this sub-quantizer ran, so it had to leave them alone
            self.skipped_by.setdefault(name, []).append(self.label)
        return model

    def validate(self, model):
        self.inner.validate(model)


def _wrap(q: Quantizer, blame: dict[str, str], skipped_by: dict[str, list[str]], label: str, log) -> Quantizer:
    cls = type(type(q).__name__, (_Blame,), {"__qualname__": type(q).__qualname__})
    return cls(q, blame, skipped_by, label, log)


def sub_labels(quantizers: list[Quantizer], prefix: str = "") -> list[str]:
    """A name per sub-quantizer of a ComposableQuantizer: its class, or `[i] Class` when two share a class
    (two XNNPACKQuantizers with different configs must stay apart in pl.blame)."""
    names = [type(q).__name__ for q in quantizers]
    return [f"{prefix}[{i}] {n}" if names.count(n) > 1 or prefix else n for i, n in enumerate(names)]


def annotate_with_blame(
    q: Quantizer,
    model: torch.fx.GraphModule,
    blame: dict[str, str],
    skipped_by: dict[str, list[str]] | None = None,
    label: str | None = None,
    log: AnnotatorLog | None = None,
) -> None:
    """Run q.annotate, attributing each new annotation to the innermost quantizer that wrote it.

    `skipped_by[node]` lists the later sub-quantizers of a ComposableQuantizer that ran after the node
    was already annotated (they had to skip it: the first quantizer to annotate a node owns it).
    """
    label = label or type(q).__name__
    if type(q) is ComposableQuantizer:  # a subclass may annotate its own way: treat it as one
        skipped = {} if skipped_by is None else skipped_by
        prefix = label + " " if label != type(q).__name__ else ""  # a ComposableQuantizer inside another
        labels = sub_labels(q.quantizers, prefix)
        subs = [_wrap(sub, blame, skipped, n, log) for sub, n in zip(q.quantizers, labels)]
        ComposableQuantizer(subs).annotate(model)
        return
    before = _annotation_ids(model)
    if log is not None:
        log.ran.append(label)
    running = ANNOTATING.set(label if log is not None else None)
    try:
        q.annotate(model)
    except Exception as e:
        raise QuantizerFailed(type(q).__name__, "annotate", e) from e
    finally:
        ANNOTATING.reset(running)
    for name, ident in _annotation_ids(model).items():
        if before.get(name) != ident:
            # the first author keeps the credit: a later overwrite is what ComposableQuantizer rejects
            blame.setdefault(name, label)


class RecordingQuantizer(Quantizer):
    def __init__(self, inner: Quantizer, on_annotated: Callable[[torch.fx.GraphModule], None]):
        super().__init__()
        self.inner = inner
        self.on_annotated = on_annotated
        self.blame: dict[str, str] = {}
        self.skipped_by: dict[str, list[str]] = {}
        self.edge_or_node_to_obs: dict = {}
        # get_attr nodes the quantizer's own transform_for_annotation made (XNNPACK turns `x * 0.5`'s
        # scalar into a `_tensor_constant_N` it then quantizes on purpose): not the user's constants
        self.own_constants: set[str] = set()

    def transform_for_annotation(self, model):
        before = {n.name for n in model.graph.nodes if n.op == "get_attr"}
        model = self.inner.transform_for_annotation(model)
        self.own_constants = {n.name for n in model.graph.nodes if n.op == "get_attr"} - before
        return model

    def annotate(self, model, log: AnnotatorLog | None = None):
        annotate_with_blame(self.inner, model, self.blame, self.skipped_by, log=log)
        return model

    def validate(self, model):
        try:
            self.inner.validate(model)
        except Exception as e:
            raise QuantizerFailed(type(self.inner).__name__, "validate", e) from e
        self.on_annotated(model)  # prepare_pt2e calls validate right after annotate

    def prepare_obs_or_fq_callback(self, model, edge_or_node_to_obs_or_fq):
        self.edge_or_node_to_obs = dict(edge_or_node_to_obs_or_fq)
        # torchao calls only the top-level quantizer's callback (ComposableQuantizer forwards nothing)
        self.inner.prepare_obs_or_fq_callback(model, edge_or_node_to_obs_or_fq)
