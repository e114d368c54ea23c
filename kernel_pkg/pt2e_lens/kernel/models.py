"""What the panel and the magics read from a tracked model: its summary line and its stage snapshots."""

from __future__ import annotations

import sys
from typing import Any

import torch

from .. import i18n
from .._targets import qdq_kind
from .._torchao import Q_ANNOTATION_KEY, is_observer_module
from ..analyses.findings import with_findings
from ..capture import Run
from ..errors import Pt2eLensError
from ..snapshot import Snapshot, build, provenance


def graph_state(gm: torch.fx.GraphModule) -> str:
    """What a bare GraphModule looks like: converted (q/dq ops), prepared (observers), annotated, decomposed
    (an op made from another op: `ep.run_decompositions(...).module()`, issue 26.4) or exported."""
    modules = dict(gm.named_modules())
    state = "exported"
    for n in gm.graph.nodes:
        if n.op == "call_function" and qdq_kind(n.target):
            return "converted"
        if n.op == "call_module" and is_observer_module(modules.get(n.target)):
            state = "prepared"
        elif state == "exported" and Q_ANNOTATION_KEY in n.meta:
            state = "annotated"
    if state == "exported" and any(_made_from_another(n) for n in gm.graph.nodes if n.op == "call_function"):
        return "decomposed"
    return state


def _made_from_another(node: torch.fx.Node) -> bool:
    """`meta["from_node"]` traces it to nodes of other names only (batch_norm → _native_batch_norm_…, getitem)."""
    return bool(node.meta.get("from_node")) and node.name not in provenance(node)


def workbench_class() -> Any:
    """pl.workbench's class once something imported it (no Workbench exists before): not imported for every cell."""
    return getattr(sys.modules.get("pt2e_lens.stepwise.bench"), "Workbench", None)


def model_of(obj: Any) -> Any:
    """What a tracked object shows: a workbench its Run (None before export), any other model itself."""
    wb = workbench_class()
    return obj.run if wb is not None and isinstance(obj, wb) else obj


def stages(obj: Any) -> list[str]:
    obj = model_of(obj)
    if obj is None:  # a workbench not yet exported
        return []
    if isinstance(obj, Run):
        return obj.stages
    if isinstance(obj, torch.export.ExportedProgram):
        return ["exported"]
    return [graph_state(obj)]


def info(name: str, kind: str, obj: Any) -> dict:
    """One model-picker row: name, type, node count and stages (the newest last)."""
    names = stages(obj)
    obj = model_of(obj)
    if obj is None:
        return {"name": name, "type": kind, "node_count": 0, "stages": [], "stage": ""}
    if isinstance(obj, Run):
        count = len(obj.latest.graph_module.graph.nodes)
    elif isinstance(obj, torch.export.ExportedProgram):
        count = len(obj.module().graph.nodes)  # the graph PT2E annotates, as snapshots count it
    else:
        count = len(obj.graph.nodes)
    return {"name": name, "type": kind, "node_count": count, "stages": names, "stage": names[-1]}


def snapshot_of(obj: Any, stage: str | None) -> Snapshot:
    """The snapshot of one stage of a model (a Run's own cached stage snapshot, or a fresh build)."""
    names = stages(obj)
    stage = stage or (names[-1] if names else "")
    if stage not in names:
        raise Pt2eLensError(i18n.t("error.no_stage_in_model", stage=repr(stage), stages=", ".join(names) or "—"))
    obj = model_of(obj)
    if isinstance(obj, Run):
        return obj[stage].snapshot
    if isinstance(obj, torch.export.ExportedProgram):
        return with_findings(build(obj.module(), "exported"))
    return with_findings(build(obj, None))
