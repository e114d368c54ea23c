"""`pl.KeepFp32(quantizer, edges=…, outputs=…)`: the user's quantizer with some sites left in fp32.

Quantizers cannot all say "not this one" (torchao's testing XNNPACKQuantizer asserts on
`set_module_name(name, None)`), so this wraps any torchao `Quantizer`: the inner `annotate` runs as it
is, then the named input edges lose their spec and the named nodes their output spec. A spec that shares
with (or derives from) something dropped is dropped too, so prepare never meets a dangling reference.
Names are the graph's node names as pt2e-lens shows them (`pl.annotations`, `pl.sensitivity`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import torch

from .. import i18n
from .._torchao import Q_ANNOTATION_KEY, DerivedQuantizationSpec, Quantizer, SharedQuantizationSpec
from ..errors import Pt2eLensError


def _key(x: Any) -> Any:
    """An edge tuple or a node as (name, name) / name, to compare with what was dropped."""
    if isinstance(x, tuple):
        return tuple(n.name for n in x)
    return x.name if isinstance(x, torch.fx.Node) else x


def _depends_on_dropped(spec: Any, dropped: set) -> bool:
    if isinstance(spec, SharedQuantizationSpec):
        return _key(spec.edge_or_node) in dropped
    if isinstance(spec, DerivedQuantizationSpec):
        return any(_key(e) in dropped for e in spec.derived_from)
    return False


class KeepFp32(Quantizer):
    """Annotate with `quantizer`, then leave `edges` [(src, dst), …] and the outputs of `outputs` in fp32."""

    def __init__(self, quantizer: Quantizer, edges: Iterable[Iterable[str]] = (), outputs: Iterable[str] = ()):
        if not isinstance(quantizer, Quantizer):
            raise Pt2eLensError(i18n.t("sensitivity.keep_needs_quantizer", got=type(quantizer).__name__))
        super().__init__()
        self.quantizer = quantizer
        self.edges = [tuple(str(n) for n in e) for e in edges]
        self.outputs = [str(n) for n in outputs]

    def transform_for_annotation(self, model: torch.fx.GraphModule) -> torch.fx.GraphModule:
        return self.quantizer.transform_for_annotation(model)

    def annotate(self, model: torch.fx.GraphModule) -> torch.fx.GraphModule:
        model = self.quantizer.annotate(model) or model
        by_name = {n.name: n for n in model.graph.nodes}
        missing = [n for e in self.edges for n in e if n not in by_name] + [n for n in self.outputs if n not in by_name]
        if missing:
            raise Pt2eLensError(i18n.t("sensitivity.keep_unknown_node", name=missing[0]))
        dropped: set = set()
        for src, dst in self.edges:
            ann = by_name[dst].meta.get(Q_ANNOTATION_KEY)
            if ann is not None and ann.input_qspec_map.pop(by_name[src], None) is not None:
                dropped.add((src, dst))
        for name in self.outputs:
            ann = by_name[name].meta.get(Q_ANNOTATION_KEY)
            if ann is not None and ann.output_qspec is not None:
                ann.output_qspec = None
                dropped.add(name)
        self._drop_dependents(model, dropped)
        return model

    @staticmethod
    def _drop_dependents(model: torch.fx.GraphModule, dropped: set) -> None:
        changed = True
        while changed:  # a shared spec may point at a shared spec that points at a dropped one
            changed = False
            for node in model.graph.nodes:
                ann = node.meta.get(Q_ANNOTATION_KEY)
                if ann is None:
                    continue
                for inp, spec in list(ann.input_qspec_map.items()):
                    if _depends_on_dropped(spec, dropped):
                        del ann.input_qspec_map[inp]
                        dropped.add((inp.name, node.name))
                        changed = True
                if _depends_on_dropped(ann.output_qspec, dropped):
                    ann.output_qspec = None
                    dropped.add(node.name)
                    changed = True

    def validate(self, model: torch.fx.GraphModule) -> None:
        self.quantizer.validate(model)

    def prepare_obs_or_fq_callback(self, model: torch.fx.GraphModule, edge_or_node_to_obs_or_fq: dict) -> None:
        self.quantizer.prepare_obs_or_fq_callback(model, edge_or_node_to_obs_or_fq)

    def __repr__(self) -> str:
        return f"KeepFp32({self.quantizer!r}, edges={self.edges!r}, outputs={self.outputs!r})"
