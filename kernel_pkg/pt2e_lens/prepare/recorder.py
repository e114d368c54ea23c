"""A quantizer wrapper that lets prepare_pt2e run unchanged while we watch.

It forwards every call to the user's quantizer, hands the graph right after annotation to
`on_annotated` (prepare mutates it next), and records what torchao does not keep: which
(sub-)quantizer wrote each node's annotation, and the {edge/node: observer instance} map handed to
`prepare_obs_or_fq_callback`.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager

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


def sub_quantizers(q: Quantizer) -> list[Quantizer] | None:
    """The sub-quantizers of any ComposableQuantizer, subclasses included (Cadence, Cortex-M), or of the one a
    quantizer wraps and forwards annotate to (ExecuTorch's Arm TOSAQuantizer / EthosUQuantizer keep a
    ComposableQuantizer in `.quantizer`: its PatternQuantizers and SharedQspecQuantizer write every annotation),
    or None."""
    composite = q if isinstance(q, ComposableQuantizer) else _wrapped_composite(q)
    subs = getattr(composite, "quantizers", None)
    if isinstance(subs, list) and subs and all(isinstance(s, Quantizer) for s in subs):
        return subs
    return None


def _wrapped_composite(q: Quantizer) -> ComposableQuantizer | None:
    """The one ComposableQuantizer among q's attributes (a wrapper's inner quantizer), or None."""
    found = [v for v in (vars(q).values() if hasattr(q, "__dict__") else ()) if isinstance(v, ComposableQuantizer)]
    return found[0] if len(found) == 1 else None


def sub_labels(quantizers: list[Quantizer], prefix: str = "") -> list[str]:
    """A name per sub-quantizer of a ComposableQuantizer: its class, or `[i] Class` when two share a class
    (two XNNPACKQuantizers with different configs must stay apart in pl.blame), with what tells them apart
    when an attribute's class does: Cadence's ten `[4] CadenceAtenQuantizer(LinearPattern)`."""
    names = [type(q).__name__ for q in quantizers]
    out = []
    for i, (q, n) in enumerate(zip(quantizers, names)):
        if names.count(n) > 1:
            twins = [s for s in quantizers if type(s) is type(q)]
            kind = _telling_attribute(q, twins)
            n = f"[{i}] {n}" + (f"({kind})" if kind else "")
        elif prefix:
            n = f"[{i}] {n}"
        out.append(prefix + n)
    return out


def _telling_attribute(q: Quantizer, twins: list[Quantizer]) -> str | None:
    """The class name of q's first attribute whose class differs in every twin (same-class sub-quantizer)."""
    for attr, value in (vars(q) if hasattr(q, "__dict__") else {}).items():
        kinds = [type(getattr(t, attr, None)) for t in twins]  # (no None, dict or str: a config left unset)
        if len({k.__name__ for k in kinds}) == len(twins) and all(k.__module__ != "builtins" for k in kinds):
            return type(value).__name__
    return None


@contextmanager
def _each_sub_watched(subs, labels, blame, skipped_by, log):
    """Hook each sub-quantizer's own `annotate` on the instance for the time of one annotate, so that the
    composite's annotate — torchao's loop or a subclass's own (Cortex-M wraps it in a reporter keyed by the
    sub-quantizer objects themselves) — runs unchanged and still tells who wrote what. The hooks are taken
    off afterwards, also on an exception (the instances are pt2e-lens's private copies anyway)."""
    hooked = []
    try:
        for sub, label in zip(subs, labels):
            own = vars(sub).get("annotate", _NONE) if hasattr(sub, "__dict__") else _NONE
            run = sub.annotate

            def watched(model, _sub=sub, _run=run, _label=label):
                already = _annotation_ids(model)
                out = annotate_with_blame(_sub, model, blame, skipped_by, _label, log, run=_run)
                for name in already:  # annotated before this sub-quantizer ran, so it had to leave them alone
                    skipped_by.setdefault(name, []).append(_label)
                return model if out is None else out

            sub.annotate = watched
            hooked.append((sub, own))
        yield
    finally:
        for sub, own in hooked:
            if own is _NONE:
                del sub.annotate
            else:
                sub.annotate = own


_NONE = object()


def annotate_with_blame(
    q: Quantizer,
    model: torch.fx.GraphModule,
    blame: dict[str, str],
    skipped_by: dict[str, list[str]] | None = None,
    label: str | None = None,
    log: AnnotatorLog | None = None,
    run: Callable | None = None,
):
    """Run q.annotate (or `run`, the sub-quantizer's own annotate), attributing each new annotation to the
    innermost quantizer that wrote it.

    `skipped_by[node]` lists the later sub-quantizers of a ComposableQuantizer that ran after the node
    was already annotated (they had to skip it: the first quantizer to annotate a node owns it).
    """
    label = label or type(q).__name__
    run = run or q.annotate
    subs = sub_quantizers(q)
    if subs is not None and not all(hasattr(s, "__dict__") for s in subs):
        subs = None  # a sub-quantizer with __slots__ takes no hook: the composite is blamed as one
    before = _annotation_ids(model)
    if log is not None and subs is None:
        log.ran.append(label)
    running = ANNOTATING.set(label if log is not None else None)
    try:
        if subs is not None:
            prefix = label + " " if label != type(q).__name__ else ""  # a ComposableQuantizer inside another
            skipped = {} if skipped_by is None else skipped_by
            with _each_sub_watched(subs, sub_labels(subs, prefix), blame, skipped, log):
                out = run(model)
        else:
            out = run(model)
    except Exception as e:
        if subs is not None or isinstance(e, QuantizerFailed):
            raise  # a composite's own error (torchao's "changed annotations") already names the sub-quantizer
        raise QuantizerFailed(type(q).__name__, "annotate", e) from e
    finally:
        ANNOTATING.reset(running)
    for name, ident in _annotation_ids(model).items():
        if before.get(name) != ident:
            # the first author keeps the credit: a later overwrite is what ComposableQuantizer rejects; what
            # a composite writes itself, outside its sub-quantizers, is its own
            blame.setdefault(name, label)
    return out


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
        out = annotate_with_blame(self.inner, model, self.blame, self.skipped_by, log=log)
        return model if out is None else out

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
