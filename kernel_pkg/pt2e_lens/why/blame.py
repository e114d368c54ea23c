"""`pl.blame`: which (sub-)quantizer annotated each node, and which later ones had to skip it."""

from __future__ import annotations

from typing import Any

from .. import i18n
from ..analyses.table import Table
from ..capture import Run, Stage
from ..errors import Pt2eLensError, first_line
from ..prepare.annotate import Annotation
from ..prepare.user_quantizer import check_quantizer
from .float_graph import float_graph, warn_folded_qat_quantizer


def blame(x: Any, quantizer: Any = None, example_inputs: Any = None, qat: bool = False) -> Table:
    """A row per annotated node: the quantizer that wrote it and the later sub-quantizers that skipped it.

    With a Run or a captured Stage the record of its prepare() is used; with `quantizer` the annotation is
    re-run (as prepare_pt2e runs it; `qat=True`: as prepare_qat_pt2e, on a train-mode export) on a private copy of x.
    """
    if quantizer is not None:
        q = check_quantizer(quantizer, "pl.blame")
        ann = Annotation(float_graph(x, example_inputs, "pl.blame", qat=qat, quantizers=[q]), q, qat=qat)
        if not qat:
            warn_folded_qat_quantizer(ann.fake_quants, q, "pl.blame", ann.folded_batch_norms)
        if ann.graph_module is None:
            reason = first_line(ann.error) if ann.error else i18n.t("error.blame_no_graph")
            raise Pt2eLensError(i18n.t("error.blame_annotate_failed", reason=reason))
        who, skipped, gm = ann.blame, ann.skipped_by, ann.graph_module
    else:
        if isinstance(x, Run) and "annotated" in x.stages:
            x = x["annotated"]
        if not isinstance(x, Stage):
            raise Pt2eLensError(i18n.t("error.blame_needs_run"))
        who, skipped, gm = x.record.blame, x.record.skipped_by, x.graph_module
    rows = [
        (n.name, who.get(n.name), ", ".join(skipped.get(n.name, [])))
        for n in gm.graph.nodes
        if n.name in who or n.name in skipped
    ]
    return Table("blame", ["node", "quantizer", "skipped_by"], rows, title=i18n.t("table.blame"))
