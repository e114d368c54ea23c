"""XNNPACK through ExecuTorch: lower a private copy of a converted graph and say, per converted node, whether
XNNPACK runs it in int8, in fp32, or leaves it to ExecuTorch's portable kernels (docs/backends.md).

ExecuTorch is an optional extra (`pip install 'pt2e-lens[executorch]'`); without it `lower` says so in one line.
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any

import torch

from .. import i18n
from .._copy import private_copy
from ..errors import Pt2eLensError, first_line
from .delegation import read_delegation
from .executorch_runner import ExecuTorchRunner
from .failure import lowering_error
from .record import BackendRecord
from .why_not import WhyNotPartitioned

INSTALL = "pip install 'pt2e-lens[executorch]'"


def _executorch() -> tuple[Any, Any, Any]:
    try:
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
        from executorch.devtools.backend_debug import get_delegation_info
        from executorch.exir import to_edge_transform_and_lower
    except ImportError as e:
        raise Pt2eLensError(i18n.t("error.xnnpack_needs_executorch", install=INSTALL), original=e) from None
    return to_edge_transform_and_lower, XnnpackPartitioner, get_delegation_info


def config_precisions(partitioner: Any) -> dict[str, frozenset[str]]:
    """What each of the partitioner's configs supports (`FP32`, `STATIC_QUANT`, `DYNAMIC_QUANT`), by op."""
    configs = getattr(partitioner, "target_partitioner_configs", {})
    return {name: frozenset(p.name for p in c.supported_precision_types()) for name, c in configs.items()}


def lower(gm: torch.fx.GraphModule, example_inputs: tuple, **options: Any) -> BackendRecord:
    """`torch.export` a private copy of `gm`, lower it with `XnnpackPartitioner(**options)`, read the result.

    `record.records["delegation_info"]` is ExecuTorch's own `get_delegation_info` table; `record.runner(*inputs)`
    runs the ExecuTorch program (serialized on its first call).
    """
    to_edge_transform_and_lower, XnnpackPartitioner, get_delegation_info = _executorch()
    if not isinstance(gm, torch.fx.GraphModule):
        raise Pt2eLensError(i18n.t("error.xnnpack_needs_graph", got=type(gm).__name__))
    inputs = tuple(example_inputs) if isinstance(example_inputs, (tuple, list)) else (example_inputs,)
    module = private_copy(gm)  # export and lowering must not reach the user's graph
    # XnnpackPartitioner takes **kwargs and ignores what it does not know: a typo would be stored silently
    named = [n for n, p in inspect.signature(XnnpackPartitioner.__init__).parameters.items() if p.kind <= 3]
    unknown = sorted(set(options) - set(named))
    if unknown:
        reason = i18n.t("error.xnnpack_unknown_option", names=", ".join(unknown), known=", ".join(named[1:]))
        raise Pt2eLensError(i18n.t("error.xnnpack_bad_option", reason=reason))
    try:
        partitioner = XnnpackPartitioner(**options)
    except TypeError as e:
        raise Pt2eLensError(i18n.t("error.xnnpack_bad_option", reason=first_line(e)), original=e) from None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ep = torch.export.export(module, inputs)
        except Exception as e:
            raise lowering_error("xnnpack_export", e, reason=first_line(e)) from None
        try:
            with WhyNotPartitioned(module) as why:
                edge = to_edge_transform_and_lower(ep, partitioner=[partitioner])
        except Exception as e:
            raise lowering_error("xnnpack_lowering", e, reason=first_line(e)) from None
    edge_gm = edge.exported_program().graph_module
    found = read_delegation(edge_gm, module, config_precisions(partitioner))
    info = get_delegation_info(edge_gm)
    nodes = why.explain(found.nodes, partitioner)
    records = {
        "delegation_info": {
            op: {"delegated": b.delegated, "non_delegated": b.non_delegated}
            for op, b in sorted(info.delegation_by_operator.items())
        },
        "num_delegated_subgraphs": info.num_delegated_subgraphs,
        # the headline: ExecuTorch's op counts (a converted node may become several ops, or none)
        "ops": {
            "delegated": info.num_delegated_nodes,
            "not_delegated": info.num_non_delegated_nodes,
            "partitions": info.num_delegated_subgraphs,
        },
        "became": {name: [e.name for e in made] for name, made in found.became.items()},
        "unattributed": {e.name: e.partition for e in found.unattributed},  # name -> partition (None: portable)
        "removed": list(found.removed),
    }
    shapes = [tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor)]
    return BackendRecord("xnnpack", nodes, records, dict(options), runner=ExecuTorchRunner(edge, shapes))
