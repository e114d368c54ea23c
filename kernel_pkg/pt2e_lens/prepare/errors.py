"""Turn what torchao raises during prepare into one line that says what to do."""

from __future__ import annotations

import re

import torch

from .. import i18n
from ..analyses.text import key_phrase
from ..errors import Pt2eLensError, Pt2eLensRuntimeError, first_line
from ..snapshot.keys import torchao_key
from .recorder import QuantizerFailed

# which pl.check findings explain a bare torchao error, best first
_EXPLAINED_BY = (
    (RecursionError, ("shared-cycle", "shared-later")),
    (
        KeyError,
        ("shared-bad-target", "not-a-spec", "shared-cycle", "shared-unannotated", "derived-unobserved", "shared-later"),
    ),
    (
        AssertionError,
        ("not-a-spec", "shared-bad-target", "shared-cycle", "shared-later", "shared-unannotated", "derived-unobserved"),
    ),
    (AttributeError, ("not-a-spec", "shared-bad-target")),
    (TypeError, ("not-a-spec", "shared-bad-target")),
)  # ComposableQuantizer's "changed annotations" RuntimeError already names both quantizers: see _CHANGED
# torchao's ComposableQuantizer raises a bare RuntimeError whose text is all it says (no attribute, no own
# class): matching its words is the only way to read which quantizer and node; the result is ChangedAnnotations.
_CHANGED = re.compile(r"Quantizer (\S+) has (changed|removed) annotations on node (\S+)")


class ChangedAnnotations(Pt2eLensRuntimeError):
    """ComposableQuantizer's own check: a later quantizer changed an annotation (not the quantizer failing)."""


def _describe_key(key) -> str | None:
    """`edge a → b` / `the output of a` for the torchao EdgeOrNode a KeyError names, else None."""
    is_edge = isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, torch.fx.Node) for k in key)
    return key_phrase(torchao_key(key)) if is_edge or isinstance(key, torch.fx.Node) else None


def _explained(e: BaseException, problems) -> Pt2eLensError | None:
    for cls, kinds in _EXPLAINED_BY:
        if isinstance(e, cls):
            hit = next((p for k in kinds for p in problems if p["kind"] == k), None)
            if hit is not None:
                return Pt2eLensError(
                    i18n.t("error.prepare_explained", error=type(e).__name__, message=hit["message"]), original=e
                )
    return None


def prepare_error(e: BaseException, blame: dict[str, str], problems=()) -> Pt2eLensError:
    """One line for what prepare raised; `problems` (pl.check's findings on the annotation) explain it best."""
    explained = None if isinstance(e, QuantizerFailed) else _explained(e, problems)
    if explained is not None:
        return explained
    if isinstance(e, QuantizerFailed):
        head = i18n.t(
            "error.quantizer_raised_head",
            quantizer=e.quantizer_name,
            method=e.method,
            error=type(e.original).__name__,
            reason=first_line(e.original),
        )
        return Pt2eLensError(i18n.t("error.quantizer_raised", head=head), original=e.original, head=head)
    m = _CHANGED.search(str(e)) if isinstance(e, RuntimeError) else None
    if m:
        quantizer, verb, node = m.groups()
        owner = blame.get(node)
        first = i18n.t("error.changed_annotation_owner", owner=owner) if owner and owner != quantizer else ""
        return ChangedAnnotations(  # torchao's text first: code that catches RuntimeError prints it
            i18n.t(
                "error.changed_annotation",
                torchao=first_line(e),
                quantizer=quantizer,
                verb=i18n.t(f"error.verb_{verb}"),
                node=node,
                first=first,
            ),
            original=e,
        )
    if isinstance(e, KeyError) and e.args:
        where = _describe_key(e.args[0])
        if where:
            return Pt2eLensError(i18n.t("error.shared_unannotated", where=where), original=e)
    if isinstance(e, (RecursionError, AssertionError)):
        head = i18n.t("error.shared_later_head", error=type(e).__name__)
        return Pt2eLensError(i18n.t("error.shared_later", head=head), original=e, head=head)
    cls = Pt2eLensRuntimeError if isinstance(e, RuntimeError) else Pt2eLensError
    return cls(i18n.t("error.prepare_failed", error=type(e).__name__, reason=first_line(e)), original=e)
