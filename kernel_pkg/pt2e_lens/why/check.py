"""`pl.check`: run a quantizer's annotate on a private copy and report what would make prepare fail or mislead
(the checks themselves: `prepare.checks`)."""

from __future__ import annotations

from typing import Any

from .. import i18n
from ..analyses.table import Table
from ..prepare.annotate import Annotation
from ..prepare.checks import problems
from ..prepare.user_quantizer import check_quantizer
from .float_graph import float_graph, warn_folded_qat_quantizer

COLUMNS = ["kind", "nodes", "message"]


def as_table(found: list[dict], title: str) -> Table:
    return Table("check", COLUMNS, [(f["kind"], f["nodes"], f["message"]) for f in found], title=title)


def check(quantizer: Any, graph_or_model: Any, example_inputs: Any = None, qat: bool = False) -> Table:
    """Annotate a private copy the way prepare_pt2e would (`qat=True`: prepare_qat_pt2e, on a train-mode
    export), and list the problems found (never raises for them; a QAT quantizer without qat=True whose batch norms fold: one warning)."""
    q = check_quantizer(quantizer, "pl.check")
    ann = Annotation(float_graph(graph_or_model, example_inputs, "pl.check", qat=qat, quantizers=[q]), q, qat=qat)
    if not qat:
        warn_folded_qat_quantizer(ann.fake_quants, q, "pl.check", ann.folded_batch_norms)
    found = problems(ann.graph_module, ann.recorder.overwrites, ann.error, ann.recorder.own_constants)
    cls = type(q).__name__
    title = i18n.t("table.check_problems", cls=cls, n=len(found)) if found else i18n.t("table.check_none", cls=cls)
    return as_table(found, title)
