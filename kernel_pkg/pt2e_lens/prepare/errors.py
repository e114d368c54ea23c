"""Turn what torchao raises during prepare into one line that says what to do."""

from __future__ import annotations

import re

import torch

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
_CHANGED = re.compile(r"Quantizer (\S+) has (changed|removed) annotations on node (\S+)")


def _describe_key(key) -> str | None:
    """`edge a → b` / `the output of a` for the torchao EdgeOrNode a KeyError names, else None."""
    is_edge = isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, torch.fx.Node) for k in key)
    return key_phrase(torchao_key(key)) if is_edge or isinstance(key, torch.fx.Node) else None


def _explained(e: BaseException, problems) -> Pt2eLensError | None:
    for cls, kinds in _EXPLAINED_BY:
        if isinstance(e, cls):
            hit = next((p for k in kinds for p in problems if p["kind"] == k), None)
            if hit is not None:
                return Pt2eLensError(f"prepare_pt2e raised {type(e).__name__}: {hit['message']}", original=e)
    return None


def prepare_error(e: BaseException, blame: dict[str, str], problems=()) -> Pt2eLensError:
    """One line for what prepare raised; `problems` (pl.check's findings on the annotation) explain it best."""
    explained = None if isinstance(e, QuantizerFailed) else _explained(e, problems)
    if explained is not None:
        return explained
    if isinstance(e, QuantizerFailed):
        return Pt2eLensError(
            f"{e.quantizer_name}.{e.method} raised {type(e.original).__name__}: "
            f"{first_line(e.original)} — fix that quantizer; earlier stages are kept.",
            original=e.original,
        )
    m = _CHANGED.search(str(e)) if isinstance(e, RuntimeError) else None
    if m:
        quantizer, verb, node = m.groups()
        owner = blame.get(node)
        first = f" that {owner} wrote" if owner and owner != quantizer else ""
        return Pt2eLensRuntimeError(  # torchao's text first: code that catches RuntimeError prints it
            f"{first_line(e)} — {quantizer} {verb} the annotation of node {node}{first}: in a ComposableQuantizer a later "
            f"quantizer may only annotate nodes that are still unannotated — make {quantizer} skip nodes "
            f"whose annotation has _annotated=True, or reorder the quantizers.",
            original=e,
        )
    if isinstance(e, KeyError) and e.args:
        where = _describe_key(e.args[0])
        if where:
            return Pt2eLensError(
                f"a SharedQuantizationSpec points at {where}, which no annotation quantizes: annotate "
                f"it first, or share with an edge or node that has a QuantizationSpec.",
                original=e,
            )
    if isinstance(e, (RecursionError, AssertionError)):
        return Pt2eLensError(
            f"prepare_pt2e failed while resolving shared specs ({type(e).__name__}): a "
            f"SharedQuantizationSpec probably points at an anchor later in graph order (pytorch/ao#4421) "
            f"— point shared specs at earlier edges or nodes.",
            original=e,
        )
    cls = Pt2eLensRuntimeError if isinstance(e, RuntimeError) else Pt2eLensError
    return cls(f"prepare_pt2e failed: {type(e).__name__}: {first_line(e)}.", original=e)
