"""`pl.accuracy`: how far each node of the quantized model drifts from the float one (SQNR dB, MSE).

torchao's numeric debugger (prepare_for_propagation_comparison → extract_results_from_loggers →
compare_results) pairs nodes by their `from_node` root. It misses two things this module adds:
a conv whose batch norm was folded at prepare is compared with the float conv BEFORE the batch norm
(so we compare it with the batch norm's output instead, and say so), and the q/dq of input-edge
observers have no float root (so we compare them with the float tensor they observe).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable
from typing import Any

import torch

from .. import i18n
from .._progress import Task, task
from .._targets import BATCH_NORMS as _BATCH_NORMS
from .._targets import short_name
from .._torchao import (
    compare_results,
    extract_results_from_loggers,
    prepare_for_propagation_comparison,
)
from ..analyses.table import Table
from ..capture import Run, Stage
from ..errors import Pt2eLensError, first_line
from ..schema.numbers import json_number
from .observed import observed_stage
from .reference import Reference, float_reference
from .sweep_args import warn_non_finite

COLUMNS = ["node", "compared_with", "sqnr_db", "mse", "note"]


class Accuracy(Table):
    """Rows sorted worst SQNR first; `per_node` maps node id → SQNR (dB) for a heat overlay; `reference`
    says what the float side is (the float graph, or for QAT the trained model with fake-quant off)."""

    def __init__(self, rows: list[tuple], stage: Any = None, reference: Reference | None = None):
        rows = sorted(rows, key=_worst_first)
        title = i18n.t("table.accuracy")
        super().__init__("accuracy", COLUMNS, rows, title=reference.title(title) if reference else title)
        self.stage = stage  # the converted stage the rows describe: displayed with the heat overlay
        self.reference = reference

    def overlay(self) -> dict:
        """The contract's Overlay: SQNR per node, for the graph view's heat colouring."""
        values = {k: json_number(v) for k, v in self.per_node.items()}  # an exact match: inf → "Infinity"
        return {"name": "SQNR", "unit": "dB", "higher_is_better": True, "values": values}

    @property
    def per_node(self) -> dict[str, float]:
        """Converted node id → SQNR: an op's row colours the op, an input-edge q/dq row its dequantize (the
        tensor it compared), so the heat's range is the table's whole column."""
        out = {}
        for r in self.rows:
            if r[2] is not None:
                out[r[1] if " (q/dq " in r[0] else r[0]] = r[2]
        return out


def _worst_first(row: tuple) -> tuple[int, float]:
    """Finite SQNRs lowest first, then ±inf (an exact match; a zero reference), then NaN (0/0: both all
    zero), then rows without a value. NaN compares false with everything: left in a plain sort key it
    scatters the order and a model's real worst node ends up dozens of rows down."""
    v = row[2]
    if v is None:
        return (3, 0.0)
    if math.isnan(v):
        return (2, 0.0)
    return (0, v) if math.isfinite(v) else (1, -v)


def _batches(batches: Iterable[Any]) -> list[tuple]:
    if isinstance(batches, (str, bytes)) or not hasattr(batches, "__iter__"):
        raise Pt2eLensError(i18n.t("error.guard_accuracy_batches_type", got=type(batches).__name__))
    out = [b if isinstance(b, (tuple, list)) else (b,) for b in batches]
    if not out:
        raise Pt2eLensError(i18n.t("error.accuracy_no_batches"))
    tuples = [tuple(b) for b in out]
    warn_non_finite(tuples, "pl.accuracy")
    return tuples


def _logged(gm: torch.fx.GraphModule, batches: list[tuple], shown: Task) -> dict:
    logged = prepare_for_propagation_comparison(gm)  # a deep copy with loggers
    with torch.no_grad():
        for b in batches:
            logged(*b)
            shown.advance()
    return extract_results_from_loggers(logged)


def _mean(values) -> float | None:
    vals = [float(v) for v in values if isinstance(v, torch.Tensor) and v.numel() == 1]
    return sum(vals) / len(vals) if vals else None


def _compare(info, ref_entry, act_entry) -> tuple[float | None, float | None]:
    """SQNR and MSE with torchao's own compare_results, averaged over the batches."""
    try:
        summary = compare_results({info: ref_entry}, {info: act_entry}).get(info)
    except ValueError:  # a node with no tensor output (e.g. `.float()`'s _assert_tensor_metadata): no SQNR
        return None, None
    if summary is None:
        return None, None
    return _mean(r.sqnr for r in summary.results), _mean(r.mse_loss for r in summary.results)


def _root(node: torch.fx.Node) -> str:
    """The name torchao's numeric debugger keys a node by: its greatest `from_node` ancestor (under strict
    export that is dynamo's name, e.g. `y_1`, not the graph's `batch_norm_1`)."""
    sources = node.meta.get("from_node") or ()
    if not sources:
        return node.name
    src = sources[-1]
    while getattr(src, "from_node", None):
        src = src.from_node[-1]
    return getattr(src, "name", node.name)


def _compute_ids(stage: Any) -> dict[str, str]:
    """Debugger key → the converted graph's compute node with that root (its q/dq inherit the same
    `from_node`, and torchao's logger may sit on the dequantize: the overlay colours the op itself)."""
    roles = {n["id"]: n["role"] for n in stage.snapshot.nodes}
    out: dict[str, str] = {}
    for node in stage.graph_module.graph.nodes:
        if roles.get(node.name) == "compute":
            out.setdefault(_root(node), node.name)
    return out


def _tensor_out(node: torch.fx.Node) -> torch.fx.Node:
    """A batch norm that returns a tuple (`_native_batch_norm_legit_no_training`): its `getitem(·, 0)` user."""
    for user in node.users:
        if user.target is operator.getitem and user.args[1] == 0:
            return user
    return node


def _folded_bns(float_gm: torch.fx.GraphModule, ref_by: dict, act_by: dict) -> dict[str, tuple[str, str]]:
    """conv key → (key of the batch norm's float output, batch norm name) for each batch norm that prepare
    folded into the conv before it: its float output is what the conv's quantized output stands for."""
    out = {}
    for node in float_gm.graph.nodes:
        if node.op != "call_function" or short_name(node.target) not in _BATCH_NORMS:
            continue
        conv = node.args[0] if node.args and isinstance(node.args[0], torch.fx.Node) else None
        bn_key, bn_out = _root(node), _root(_tensor_out(node))
        if conv is None or bn_key in act_by or bn_out in act_by:
            continue
        if _root(conv) in act_by and bn_out in ref_by:
            out[_root(conv)] = (bn_out, node.name)
    return out


def _observer_refs(run, batches: list[tuple]) -> dict[str, tuple[str, str, list | None]]:
    """Observer module name → (float node it observes, its debugger key, float values per batch if known).
    A weight's float values are the observed stage's: for QAT the trained weight, not the prepared one."""
    prepared = observed_stage(run)
    gm = prepared.graph_module
    placeholders = [n.name for n in gm.graph.nodes if n.op == "placeholder"]
    by_name = {n.name: n for n in gm.graph.nodes}
    out = {}
    for o in prepared.snapshot.observers:
        node = by_name.get(o["observes"])
        values = None
        if node is not None and node.op == "placeholder" and node.name in placeholders:
            i = placeholders.index(node.name)
            values = [b[i] for b in batches] if i < len(batches[0]) else None
        elif node is not None and node.op == "get_attr":
            values = [operator.attrgetter(node.target)(gm).detach()] * len(batches)  # the (bn-folded) float weight
        key = _root(node) if node is not None else o["observes"]
        for name in o["names"]:
            out[name] = (o["observes"], key, values)
    return out


def accuracy(run: Any, batches: Iterable[Any], backend: str | None = None) -> Any:
    """Per-node SQNR (dB) and MSE of the converted model against its float reference (why/reference.py: the
    float graph; for QAT that graph with the trained weights, in eval mode, i.e. the trained model with
    fake-quant off). `backend="inductor"`: per output, float vs converted vs the backend (backend_accuracy.py)."""
    if isinstance(run, Stage):  # the converted stage alone has no float graph to compare against
        raise Pt2eLensError(i18n.t("error.guard_accuracy_stage", stage=repr(run.name)))
    if backend is not None:
        from .backend_accuracy import backend_accuracy

        return backend_accuracy(run, batches, backend)
    if not (isinstance(run, Run) and "converted" in run.stages):
        raise Pt2eLensError(i18n.t("error.accuracy_not_converted"))
    batches = _batches(batches)
    reference = float_reference(run)
    float_gm = reference.module("pl.accuracy")
    try:
        with task(i18n.t("progress.accuracy"), 2 * len(batches), i18n.t("progress.unit.batches")) as shown:
            ref = _logged(float_gm, batches, shown)
            act = _logged(run["converted"].graph_module, batches, shown)
    except Exception as e:
        raise Pt2eLensError(
            i18n.t("error.accuracy_batches_failed", error=type(e).__name__, reason=first_line(e)), original=e
        ) from None
    # torchao keys both sides by the `from_node` root (under strict export dynamo's name, e.g. `x_6`); a row
    # names the converted graph's own node (what the heat overlay colours) and the float node it was compared with
    ref_by, act_by = {i.name: i for i in ref}, {i.name: i for i in act}
    own = _compute_ids(run["converted"])
    rows: dict[str, tuple] = {}
    for name, info in ref_by.items():
        if name in act_by:
            sqnr, mse = _compare(info, ref[info], act[act_by[name]])
            rows[name] = (own.get(name, act[act_by[name]][0]), ref[info][0], sqnr, mse, "")
    # a conv whose batch norm prepare folded away computes the batch norm's output: compare it with that
    folded = _folded_bns(float_gm, ref_by, act_by)
    for conv, (bn_key, bn_name) in folded.items():
        info = act_by[conv]
        node = own.get(conv, act[info][0])
        sqnr, mse = _compare(info, ref[ref_by[bn_key]], act[info])
        rows[conv] = (node, ref[ref_by[bn_key]][0], sqnr, mse, f"{bn_name} folded in: compared with its float output")
        rows[bn_key] = (bn_name, None, None, None, f"{bn_name} folded into {node} at prepare (no node of its own)")
    for name in ref_by.keys() - act_by.keys() - rows.keys():
        rows[name] = (ref[ref_by[name]][0], None, None, None, "no counterpart in the quantized graph")
    for obs_name, (observed, key, values) in _observer_refs(run, batches).items():
        info = act_by.get(obs_name)
        if info is None:
            continue
        what = f"float {observed}"
        if values is None and key in folded:  # the q/dq after a conv with a folded batch norm
            values = ref[ref_by[folded[key][0]]][2]
            what = f"float {folded[key][1]} (folded into {observed})"
        elif values is None and key in ref_by:
            values = ref[ref_by[key]][2]
        label = f"{observed} (q/dq {obs_name})"
        if values is None:
            rows[label] = (label, act[info][0], None, None, "input-edge q/dq: no float value to compare with")
            continue
        sqnr, mse = _compare(info, (observed, None, list(values)), act[info])
        rows[label] = (label, act[info][0], sqnr, mse, f"input-edge q/dq (skipped by torchao): compared with {what}")
    return Accuracy(list(rows.values()), stage=run["converted"], reference=reference)
