"""The checks behind `pl.check` and every `run.prepare`: read the annotated graph before prepare resolves
sharing, and turn what prepare raises into the Pt2eLensError of the problem that explains it.

Checked: SharedQuantizationSpecs that point at an unannotated edge/node, at an anchor later in torchao's
order (pytorch/ao#4421: AssertionError / KeyError) or round in a circle (RecursionError); Derived specs
whose sources are not observed; annotations a quantizer overwrote; specs on constants.
"""

from __future__ import annotations

import warnings

import torch

from .. import i18n
from .._torchao import (
    DerivedQuantizationSpec,
    QuantizationSpecBase,
    Quantizer,
    SharedQuantizationSpec,
    prepare_pt2e,
    prepare_qat_pt2e,
)
from ..analyses.findings import finding
from ..analyses.text import key_phrase
from ..errors import first_line
from ..snapshot.keys import edge_or_node_specs, torchao_key
from .annotate import WatchingRecorder
from .errors import prepare_error
from .qat_specs import batch_norms
from .recorder import QuantizerFailed


def _key_name(k) -> str:
    return key_phrase(torchao_key(k))


def _nodes(k) -> list[str]:
    return [n.name for n in k] if isinstance(k, tuple) else [k.name]


def _is_edge_or_node(x) -> bool:
    return isinstance(x, torch.fx.Node) or (
        isinstance(x, tuple) and len(x) == 2 and all(isinstance(n, torch.fx.Node) for n in x)
    )


def _not_spec_problems(specs: dict) -> list[dict]:
    """A value in input_qspec_map / output_qspec that is no torchao spec at all (e.g. the string "int8")."""
    out = []
    for key, spec in specs.items():
        if not isinstance(spec, QuantizationSpecBase):
            out.append(
                finding(
                    "not-a-spec",
                    _nodes(key),
                    i18n.t("problem.not_a_spec", key=_key_name(key), spec=repr(spec), cls=type(spec).__name__),
                )
            )
    return out


def _shared_problems(specs: dict) -> list[dict]:
    pos = {k: i for i, k in enumerate(specs)}
    out, cycles = [], set()
    for key, spec in specs.items():
        if not isinstance(spec, SharedQuantizationSpec):
            continue
        target = spec.edge_or_node
        if not _is_edge_or_node(target):
            out.append(
                finding(
                    "shared-bad-target",
                    _nodes(key),
                    i18n.t(
                        "problem.shared_bad_target", key=_key_name(key), target=repr(target), cls=type(target).__name__
                    ),
                )
            )
            continue
        nodes = _nodes(key) + [n for n in _nodes(target) if n not in _nodes(key)]
        if target not in specs:
            out.append(
                finding(
                    "shared-unannotated",
                    nodes,
                    i18n.t("problem.shared_unannotated", target=_key_name(target), key=_key_name(key)),
                )
            )
            continue
        seen, cur = {key}, target
        while isinstance(specs.get(cur), SharedQuantizationSpec) and cur not in seen:
            seen.add(cur)
            cur = specs[cur].edge_or_node
        if cur in seen:
            if frozenset(seen) in cycles:
                continue
            cycles.add(frozenset(seen))
            out.append(
                finding(
                    "shared-cycle",
                    nodes,
                    i18n.t("problem.shared_cycle", key=_key_name(key)),
                )
            )
        elif pos[target] > pos[key]:
            out.append(
                finding(
                    "shared-later",
                    nodes,
                    i18n.t("problem.shared_later", key=_key_name(key), target=_key_name(target)),
                )
            )
    return out


def _derived_problems(specs: dict) -> list[dict]:
    out = []
    for key, spec in specs.items():
        if isinstance(spec, DerivedQuantizationSpec):
            missing = [src for src in spec.derived_from if src not in specs]
            if missing:
                names = ", ".join(_key_name(m) for m in missing)
                nodes = _nodes(key) + [n for m in missing for n in _nodes(m)]
                out.append(
                    finding(
                        "derived-unobserved",
                        nodes,
                        i18n.t("problem.derived_unobserved", key=_key_name(key), names=names),
                    )
                )
    return out


def _is_constant(node: torch.fx.Node, gm: torch.fx.GraphModule) -> str | None:
    if node.op == "get_attr":
        try:
            value = gm.get_parameter(str(node.target))
        except AttributeError:
            value = None
        if not isinstance(value, torch.nn.Parameter):
            return i18n.t("problem.constant")
    val = node.meta.get("val")
    if val is not None and not (isinstance(val, torch.Tensor) and val.is_floating_point()):
        return i18n.t("problem.not_float", cls=type(val).__name__)
    return None


def _constant_problems(specs: dict, gm: torch.fx.GraphModule, own_constants=frozenset()) -> list[dict]:
    out = []
    for key in specs:
        node = key[0] if isinstance(key, tuple) else key
        why = None if node.name in own_constants else _is_constant(node, gm)
        if why:
            out.append(
                finding(
                    "spec-on-constant",
                    _nodes(key),
                    i18n.t("problem.spec_on_constant", key=_key_name(key), node=node.name, why=why),
                )
            )
    return out


def _overwrite_problems(overwrites) -> list[dict]:
    out = []
    for node, how, owner in overwrites:
        by = i18n.t("problem.first_written_by", owner=owner) if owner else ""
        out.append(
            finding(
                "overwritten",
                [node],
                i18n.t("problem.overwritten", node=node, by=by, how=how),
            )
        )
    return out


def problems(
    annotated: torch.fx.GraphModule | None,
    overwrites=(),
    error: BaseException | None = None,
    own_constants=frozenset(),
) -> list[dict]:
    """The check's findings, as the contract's Finding dicts; `own_constants` are the get_attr nodes the
    quantizer's transform_for_annotation made itself (never reported as the user's constants)."""
    out = _overwrite_problems(overwrites)
    if error is not None and not (out and isinstance(error, RuntimeError)):
        where = f"{error.quantizer_name}.{error.method}" if isinstance(error, QuantizerFailed) else "annotation"
        cause = error.original if isinstance(error, QuantizerFailed) else error
        out.append(finding("annotate-failed", [], f"{where} raised {type(cause).__name__}: {first_line(cause)}"))
    if annotated is not None:
        specs = edge_or_node_specs(annotated)
        out += _not_spec_problems(specs) + _shared_problems(specs) + _derived_problems(specs)
        quantized = {k: v for k, v in specs.items() if isinstance(v, QuantizationSpecBase)}
        out += _constant_problems(quantized, annotated, own_constants)
    return out


class CheckedPrepare:
    """prepare_pt2e on gm (which it mutates: pass a private copy), checking the annotation before prepare
    resolves sharing, so that a crash is raised as the Pt2eLensError of the problem that explains it.

    Keeps `prepared`, `problems`, `recorder` and `folded_batch_norms` (how many batch norms prepare_pt2e
    folded before annotating); `on_annotated(graph, problems)` sees the live graph right after
    annotate+validate (read it there: prepare mutates it next) with the problems and the recorder.
    `qat=True` runs prepare_qat_pt2e instead (same annotate+validate first, then the QAT conv-bn fusion).
    """

    def __init__(self, gm: torch.fx.GraphModule, quantizer: Quantizer, on_annotated=None, qat: bool = False):
        self.problems: list[dict] = []
        self._then = on_annotated
        self._batch_norms = batch_norms(gm)
        self.folded_batch_norms = 0
        self.recorder = WatchingRecorder(quantizer, on_annotated=self._on_annotated)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                self.prepared = (prepare_qat_pt2e if qat else prepare_pt2e)(gm, self.recorder)
        except Exception as e:
            found = self.problems or problems(None, self.recorder.overwrites)
            raise prepare_error(e, self.recorder.blame, found) from None

    def _on_annotated(self, m: torch.fx.GraphModule) -> None:
        self.folded_batch_norms = self._batch_norms - batch_norms(m)
        try:
            self.problems = problems(m, self.recorder.overwrites, own_constants=self.recorder.own_constants)
        except Exception as e:  # a bug in a check must not stop the user's prepare
            self.problems = [finding("check-failed", [], f"pl.check failed: {first_line(e)}")]
        if self._then is not None:
            self._then(m, self.problems, self.recorder)
