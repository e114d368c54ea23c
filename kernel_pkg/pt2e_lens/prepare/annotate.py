"""Annotate a private copy exactly as prepare_pt2e would (batch norms folded first), or as prepare_qat_pt2e
would (`qat=True`: nothing folded, the QAT conv-bn fusion comes after annotate), then stop.

The recorder also watches every node's meta while annotate runs, to catch a quantizer that replaces or
changes an annotation that was already claimed (`_annotated=True`): torchao keeps the last write silently
(or, inside a ComposableQuantizer, raises a bare RuntimeError); and to note which annotator read or wrote
each node's annotation (prepare/watched_annotators.py, for `pl.why_not`).
"""

from __future__ import annotations

import warnings

import torch

from .. import i18n
from .._torchao import Q_ANNOTATION_KEY, QuantizationAnnotation, Quantizer, prepare_pt2e, prepare_qat_pt2e
from .qat_specs import batch_norms, fake_quant_specs
from .recorder import RecordingQuantizer
from .user_quantizer import quantizer_copy
from .watched_annotators import AnnotatorLog, LoggedMeta


def _fingerprint(ann) -> tuple:
    """The specs an annotation holds now (the objects, not copies: a later in-place change is compared)."""
    return ann.output_qspec, {n.name: s for n, s in (ann.input_qspec_map or {}).items()}


def _same(a, b) -> bool:
    """The same spec, or an equal one (a spec holding tensors may not compare: then it counts as changed)."""
    if a is b:
        return True
    try:
        return bool(a == b)
    except Exception:
        return False


def _lost(before: tuple, now: tuple) -> bool:
    """Whether a spec the annotation held is gone or different now. Adding specs to the same object loses
    nothing: Cadence writes the output spec first and then puts each input into that same annotation."""
    out, inputs = before
    if out is not None and not _same(out, now[0]):
        return True
    return any(
        spec is not None and (name not in now[1] or not _same(spec, now[1][name])) for name, spec in inputs.items()
    )


def _has_specs(ann) -> bool:
    return ann.output_qspec is not None or any(s is not None for s in (ann.input_qspec_map or {}).values())


class NotAnAnnotation(TypeError):
    """The quantizer wrote something other than a QuantizationAnnotation under the annotation key."""


class _WatchedMeta(dict):
    """A node's meta dict that reports writes over an annotation that already had specs."""

    def __init__(self, name: str, meta: dict, recorder: WatchingRecorder):
        super().__init__(meta)
        self.name, self.recorder = name, recorder
        ann = meta.get(Q_ANNOTATION_KEY)
        self.last = _fingerprint(ann) if ann is not None else None

    def __setitem__(self, key, value):
        if key == Q_ANNOTATION_KEY and value is not None and not isinstance(value, QuantizationAnnotation):
            got = f"{value!r:.40} (a {type(value).__name__})"
            raise NotAnAnnotation(i18n.t("error.guard_not_an_annotation", got=got, node=self.name))
        prev = self.get(key)
        if key == Q_ANNOTATION_KEY and prev is not None:
            if prev is not value and _has_specs(prev):
                self.recorder.note_overwrite(self.name, "replaced")
            elif prev is value and value._annotated and self.last is not None and _lost(self.last, _fingerprint(value)):
                self.recorder.note_overwrite(self.name, "changed after it was claimed (_annotated=True)")
        if key == Q_ANNOTATION_KEY and value is not None:
            self.last = _fingerprint(value)
        super().__setitem__(key, value)


class _LoggedMeta(LoggedMeta, _WatchedMeta):
    """The watched meta that also notes which annotator reads or writes the annotation (for pl.why_not)."""


class WatchingRecorder(RecordingQuantizer):
    """A RecordingQuantizer that also lists overwritten annotations: [(node, how, earlier owner or None)]."""

    def __init__(self, inner: Quantizer, on_annotated):
        super().__init__(inner, on_annotated)
        self.overwrites: list[tuple[str, str, str | None]] = []
        self.log = AnnotatorLog()  # which annotator looked at / wrote each node (prepare/watched_annotators.py)

    def note_overwrite(self, node: str, how: str) -> None:
        self.overwrites.append((node, how, self.blame.get(node)))

    def annotate(self, model):
        nodes = list(model.graph.nodes)
        self.log.top = type(self.inner).__name__
        for n in nodes:
            n.meta = _LoggedMeta(n.name, n.meta, self)
            n.meta.node = n
        try:
            return super().annotate(model, self.log)
        finally:
            self.log.forget_frame()
            for n in nodes:
                n.meta = dict(n.meta)


class _Annotated(Exception):
    """Raised from the recorder's validate hook: the annotated graph is all we want from prepare_pt2e."""


class Annotation:
    """The graph right after annotate+validate, who annotated what, and what annotate raised (if it did).

    `gm` must be private (`float_graph` gives one): it is annotated in place, and prepare stops right there.
    `fake_quants`: how many specs build a fake-quantize module (a QAT quantizer: is_qat=True);
    `folded_batch_norms`: how many batch norms prepare_pt2e folded before annotating (none with qat=True).
    """

    def __init__(self, gm: torch.fx.GraphModule, quantizer: Quantizer, qat: bool = False):
        self.graph_module: torch.fx.GraphModule | None = None
        self.error: BaseException | None = None
        self.fake_quants = self.folded_batch_norms = 0
        before = batch_norms(gm)

        def keep(m):
            self.graph_module = m  # prepare goes no further than this: nothing mutates it after
            self.fake_quants = fake_quant_specs(m)
            self.folded_batch_norms = before - batch_norms(m)
            raise _Annotated

        self.recorder = WatchingRecorder(quantizer_copy(quantizer), on_annotated=keep)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                (prepare_qat_pt2e if qat else prepare_pt2e)(gm, self.recorder)
        except _Annotated:
            pass
        except Exception as e:  # annotate or validate raised: report it, never re-raise
            self.error = e

    @property
    def blame(self) -> dict[str, str]:
        return self.recorder.blame

    @property
    def skipped_by(self) -> dict[str, list[str]]:
        return self.recorder.skipped_by
