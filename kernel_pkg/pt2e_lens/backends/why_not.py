"""Why XNNPACK left a node to the portable kernels, in the partitioner's own words.

XNNPACK's partitioner configs report each rejection through `WhyNoPartition`, a debug log record holding the
node and the reason ("mean.dim only supports keepdim=True"). While lowering we listen on the
`executorch.backends.xnnpack` logger (not propagated: the user's handlers never see these debug records) and
name each rejected node by the converted node it came from. An op no config handles has no such record: its
reason is that XNNPACK has no partitioner config for it.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import torch

from .. import i18n
from .delegation import config_name, converted_source
from .record import NodeOutcome

_LOGGER = "executorch.backends.xnnpack"


class _Listener(logging.Handler):
    def __init__(self, graph_id: int, names: frozenset[str], reasons: dict[str, str]):
        super().__init__(logging.DEBUG)
        self._graph_id, self._names, self._reasons = graph_id, names, reasons

    def emit(self, record: logging.LogRecord) -> None:
        # the WhyNoPartition object is reused for the next rejection: read it now
        node, reason = getattr(record.msg, "node", None), getattr(record.msg, "reason", None)
        if isinstance(node, torch.fx.Node) and reason:
            src = converted_source(node, self._graph_id, self._names)
            if src is not None:
                self._reasons.setdefault(src, str(reason))


class WhyNotPartitioned:
    """`with WhyNotPartitioned(converted) as why:` lower; then `why.explain(outcomes, partitioner)`."""

    def __init__(self, converted: torch.fx.GraphModule):
        self.reasons: dict[str, str] = {}  # converted node -> the first rejection reason
        names = frozenset(n.name for n in converted.graph.nodes)
        self._handler = _Listener(id(converted.graph), names, self.reasons)
        self._logger = logging.getLogger(_LOGGER)

    def __enter__(self) -> WhyNotPartitioned:
        self._saved = (self._logger.level, self._logger.propagate)
        self._logger.setLevel(logging.DEBUG)
        self._logger.propagate = False
        self._logger.addHandler(self._handler)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._logger.removeHandler(self._handler)
        self._logger.setLevel(self._saved[0])
        self._logger.propagate = self._saved[1]

    def explain(self, outcomes: dict[str, NodeOutcome], partitioner: Any) -> dict[str, NodeOutcome]:
        """Each portable outcome with its reason; the others as they are."""
        configs = getattr(partitioner, "target_partitioner_configs", {})
        out = {}
        for name, o in outcomes.items():
            if o.outcome == "portable" and o.reason is None:
                reason = self.reasons.get(name)
                if reason is None and o.kernel and not any(config_name(op) in configs for op in o.kernel.split(" + ")):
                    reason = i18n.t("error.xnnpack_reason_no_config", op=o.kernel)
                o = dataclasses.replace(o, reason=reason)
            out[name] = o
        return out
