"""The conformance harness: for one quantizer × model, torchao's own flow as the vendor documents it, then
pl.capture with the same quantizer class freshly built, and what pt2e-lens says compared with torchao's real
graphs. Used by tests/test_conformance.py (the torchao quantizers) and bench/conformance.py (every row).

Compared, always against torchao's own objects:
- observers: the observer modules called in torchao's prepared graph (call_module nodes and distinct instances)
  vs the prepared snapshot's observer nodes and `observers`;
- ops: every call_function target of torchao's converted graph (q/dq included) vs the converted snapshot;
- the annotation map: per annotated node of torchao's graph, which input edges and whether the output carry a
  spec (annotations survive prepare on the original nodes) vs the annotated snapshot's `annotations`.
Measured when pt2e-lens exposes them: pl.why_not on every op (specific / wrong), pl.findings rows that
torchao's graphs contradict, pl.check rows on a quantizer whose torchao flow succeeded, pl.blame naming
sub-quantizers of a ComposableQuantizer.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import datetime
import io
import re
import traceback
import warnings
from collections import Counter
from typing import Any

import torch

import pt2e_lens as pl

from .conformance_models import MODELS
from .conformance_quantizers import Missing, QuantizerCase

CALIBRATION_BATCHES = 3


@dataclasses.dataclass
class Torchao:
    """What torchao's own flow produced, read from its real graphs."""

    observer_calls: int
    observer_instances: int
    ops: Counter
    annotations: dict[str, tuple[tuple[str, ...], bool]]
    graph: torch.fx.GraphModule  # the graph handed to prepare_pt2e, before it (a private copy)


@dataclasses.dataclass
class Row:
    quantizer: str
    model: str
    torchao_ok: bool | None = None  # None: quantizer not installable
    capture_ok: bool | None = None
    record: str = "—"
    counts_equal: bool | None = None
    annotations_equal: bool | None = None
    why_specific: float | None = None  # share of ops whose pl.why_not names quantizer + annotator, or says none
    why_wrong: int | None = None
    false_findings: int | None = None
    false_checks: int | None = None
    blame: str = "n/a"
    reason: str = ""
    measured: str = ""  # the day run_row measured it ("": kept from an older table, bench/conformance.py --load)

    @property
    def green(self) -> bool:
        return bool(
            self.torchao_ok
            and self.capture_ok
            and self.counts_equal
            and self.annotations_equal
            and self.why_wrong == 0
            and (self.why_specific or 0) >= 0.98
            and self.false_findings == 0
            and self.false_checks == 0
            and self.blame in ("yes", "n/a")
        )


def one_line(e: BaseException) -> str:
    """The exception's type and first line; for one without a message (a bare `assert`), where it was raised."""
    text = str(e).strip().splitlines()
    if text:
        return f"{type(e).__name__}: {text[0][:160]}"
    frames = traceback.extract_tb(e.__traceback__)
    return f"{type(e).__name__} in `{frames[-1].name}`" if frames else type(e).__name__


@contextlib.contextmanager
def _quiet():
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        yield


# -- torchao's own flow


def _cadence_table(quantizer: Any) -> dict:
    """Cadence's `trace` table: the default decompositions minus the ops its quantizer keeps whole."""
    from executorch.backends.cadence.aot.compiler_funcs import remove_decompositions

    table = torch.export.default_decompositions()
    remove_decompositions(
        table, [*quantizer.get_ops_to_preserve_from_decomposition(), torch.ops.aten._safe_softmax.default]
    )
    return table


def vendor_graph(case: QuantizerCase, model: torch.nn.Module, inputs: tuple, quantizer: Any) -> torch.fx.GraphModule:
    """The GraphModule the vendor's documented flow hands to prepare_pt2e."""
    if case.flow == "export":
        return torch.export.export(model, inputs).module()
    if case.flow == "export_strict":
        return torch.export.export(model, inputs, strict=True).module()
    if case.flow == "no_guards":
        return torch.export.export(model, inputs).module(check_guards=False)
    if case.flow == "strict_no_guards":
        return torch.export.export(model, inputs, strict=True).module(check_guards=False)
    if case.flow == "cadence":
        return torch.export.export(model, inputs, strict=True).run_decompositions(_cadence_table(quantizer)).module()
    raise ValueError(case.flow)


def _is_observer(module: Any) -> bool:
    from torchao.quantization.pt2e.fake_quantize import FakeQuantizeBase
    from torchao.quantization.pt2e.observer import ObserverBase

    return isinstance(module, (ObserverBase, FakeQuantizeBase))


def annotation_map(gm: torch.fx.GraphModule) -> dict[str, tuple[tuple[str, ...], bool]]:
    """node → (input nodes whose edge has a spec, output has a spec), for every annotated node."""
    out = {}
    for n in gm.graph.nodes:
        a = n.meta.get("quantization_annotation")
        if a is None:
            continue
        inputs = tuple(sorted(i.name for i, spec in a.input_qspec_map.items() if spec is not None))
        out[n.name] = (inputs, a.output_qspec is not None)
    return out


def _recording_annotations(quantizer: Any, into: dict) -> None:
    """Read torchao's annotated graph right after the quantizer's own `annotate` (an attribute on this private
    instance: the class is untouched), before QAT's conv-bn rewrite or prepare's observers."""
    annotate = quantizer.annotate

    def recorded(model):
        out = annotate(model)
        into.update(annotation_map(out if isinstance(out, torch.fx.GraphModule) else model))
        return out

    quantizer.annotate = recorded


def torchao_flow(case: QuantizerCase, model_name: str) -> Torchao:
    from torchao.quantization.pt2e import move_exported_model_to_eval
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e, prepare_qat_pt2e

    model, inputs, batches = model_and_data(model_name)
    quantizer = case.make()
    annotations: dict = {}
    _recording_annotations(quantizer, annotations)
    if case.flow == "qat":  # torchao's QAT flow: train-mode export, prepare_qat_pt2e, train, to eval, convert
        gm = torch.export.export(model.train(), inputs).module()
        before = copy.deepcopy(gm)
        prepared = prepare_qat_pt2e(gm, quantizer)
        _train(prepared, batches)
        move_exported_model_to_eval(prepared)
    else:
        gm = vendor_graph(case, model, inputs, quantizer)
        before = copy.deepcopy(gm)
        prepared = prepare_pt2e(gm, quantizer)
        for batch in batches:
            prepared(*batch)
    calls = [
        n for n in prepared.graph.nodes if n.op == "call_module" and _is_observer(prepared.get_submodule(n.target))
    ]
    instances = {id(prepared.get_submodule(n.target)) for n in calls}
    converted = convert_pt2e(prepared)
    ops = Counter(op_name(n.target) for n in converted.graph.nodes if n.op == "call_function")
    return Torchao(len(calls), len(instances), ops, annotations, before)


def _loss(out: Any, _target: Any) -> torch.Tensor:
    return out.float().pow(2).mean()


def _train(prepared: torch.fx.GraphModule, batches: list[tuple]) -> None:
    """One SGD step per batch, as pl's run.train does (counts and annotations do not depend on the values)."""
    optimizer = torch.optim.SGD(prepared.parameters(), lr=1e-3, momentum=0.9)
    for batch in batches:
        optimizer.zero_grad()
        _loss(prepared(*batch), None).backward()
        optimizer.step()


def op_name(target: Any) -> str:
    """torch's name of a call_function target: `aten.linear.default` for an op, `_operator.getitem` for a builtin
    (torch.fx's qualified name), as the snapshot's `target_full` spells them."""
    if isinstance(target, (torch._ops.OpOverload, torch._ops.OpOverloadPacket, torch._ops.HigherOrderOperator)):
        return str(target)
    return torch.fx.node._get_qualified_name(target)


def model_and_data(model_name: str) -> tuple[torch.nn.Module, tuple, list[tuple]]:
    make_model, make_inputs = MODELS[model_name]
    torch.manual_seed(0)
    model = make_model().eval()
    return model, make_inputs(0), [make_inputs(seed) for seed in range(1, 1 + CALIBRATION_BATCHES)]


# -- pt2e-lens


def capture(case: QuantizerCase, model_name: str) -> pl.Run:
    model, inputs, batches = model_and_data(model_name)
    quantizer = case.make()
    if case.flow == "qat":
        train = [(*batch, torch.zeros(())) for batch in batches]
        return pl.capture(model, inputs, quantizer, qat=True, train=train, loss=_loss)
    if case.flow == "cadence":
        return pl.capture(
            model, inputs, quantizer, calibration=batches, strict=True, decompose=_cadence_table(quantizer)
        )
    strict = case.flow in ("export_strict", "strict_no_guards")
    return pl.capture(model, inputs, quantizer, calibration=batches, strict=strict)


def lens_counts(run: pl.Run) -> tuple[int, int, Counter]:
    prepared = run["prepared"].snapshot
    calls = sum(1 for n in prepared.nodes if n["role"] == "observer")
    ops = Counter(n["target_full"] for n in run["converted"].snapshot.nodes if n["op"] == "call_function")
    return calls, len(prepared.observers), ops


def lens_annotations(run: pl.Run) -> dict[str, tuple[tuple[str, ...], bool]]:
    snap = run["annotated"].snapshot
    out = {}
    for a in snap.annotations:
        inputs = tuple(sorted(i["src"] for i in a["inputs"] if i.get("spec") is not None))
        out[a["node"]] = (inputs, a.get("output") is not None)
    return out


def differences(expected: dict, got: dict, limit: int = 3) -> str:
    keys = sorted(set(expected) | set(got), key=str)
    diff = [f"{k}: torchao {expected.get(k)} vs pl {got.get(k)}" for k in keys if expected.get(k) != got.get(k)]
    more = f" (+{len(diff) - limit} more)" if len(diff) > limit else ""
    return "; ".join(diff[:limit]) + more


# -- why_not, findings, check, blame


# The why-line reasons of the catalogue (kernel_pkg/pt2e_lens/locales/<lang>.json, analyses/why_lines.py), by
# what they say. pl.why_not returns text lines only, so a line is judged by the catalogue template it matches:
# its placeholders are the structure (who decided, which annotator), read back from the text.
ANNOTATED_KEYS = ("why.annotated", "why.claimed", "why.kept_none", "why.claimed_alone")
# not annotated, and the line names the quantizer and the annotator (`fns`) that decided
DECIDED_KEYS = ("why.filtered", "why.not_found", "why.elsewhere", "why.looked", "why.input_looked")
NOTHING_KEYS = ("why.no_match",)  # nothing in that quantizer handles the op: specific by itself
UNSPECIFIC_KEYS = ("why.not_watched",)
REASON_KEYS = ANNOTATED_KEYS + DECIDED_KEYS + NOTHING_KEYS + UNSPECIFIC_KEYS


def _catalogue() -> dict[str, str]:
    from pt2e_lens import i18n

    return i18n.catalogue(i18n.get_locale())


def _template(key: str, catalogue: dict[str, str] | None = None) -> re.Pattern:
    """The catalogue text of `key` as a regex with a named group per placeholder; a placeholder that is itself a
    `why.*` text (`{via}` → why.via's " in {fns}") is that text's pattern, optional, so its inner fields
    (`fns`) come out too."""
    cat = catalogue or _catalogue()
    return re.compile(f"^{_pattern(cat[key], cat)}$", re.S)


def _pattern(text: str, cat: dict[str, str]) -> str:
    out, pos = [], 0
    for m in re.finditer(r"\{(\w+)\}", text):
        out.append(re.escape(text[pos : m.start()]))
        name = m.group(1)
        nested = cat.get(f"why.{name}")
        if nested is not None and "{" in nested:
            out.append(f"(?P<{name}>(?:{_pattern(nested, cat)})?)")
        else:
            out.append(f"(?P<{name}>.*?)")
        pos = m.end()
    out.append(re.escape(text[pos:]))
    return "".join(out)


def why_reasons(catalogue: dict[str, str] | None = None) -> list[tuple[str, re.Pattern]]:
    """(key, its pattern) for every reason a why line's first line gives, in the catalogue of the locale in use;
    a reason the catalogue gains later must be added to a group above (tests/test_conformance.py checks)."""
    cat = catalogue or _catalogue()
    return [(key, _template(key, cat)) for key in REASON_KEYS]


def classify(line: str, reasons: list[tuple[str, re.Pattern]]) -> tuple[str | None, dict[str, str]]:
    """(the catalogue key whose text the line is, its fields), or (None, {}) for a line no reason matches."""
    for key, pattern in reasons:
        m = pattern.match(line)
        if m:
            return key, {k: v for k, v in m.groupdict().items() if v is not None}
    return None, {}


def sub_quantizers(quantizer: Any) -> list[Any]:
    """The sub-quantizers of the ComposableQuantizer the quantizer is or wraps (Arm's TOSAQuantizer wraps one)."""
    from torchao.quantization.pt2e.quantizer import ComposableQuantizer

    for q in (quantizer, getattr(quantizer, "quantizer", None)):
        if isinstance(q, ComposableQuantizer):
            return list(q.quantizers)
    return []


def quantizer_names(quantizer: Any) -> set[str]:
    subs = sub_quantizers(quantizer)
    return {type(q).__name__ for q in subs} if subs else {type(quantizer).__name__}


def _names_in(text: str) -> set[str]:
    """'[1] XNNPACKQuantizer, [4] CadenceAtenQuantizer(LinearPattern)' → the class names (pl.blame tells
    sub-quantizers of one class apart by a qualifier in brackets)."""
    parts = (re.sub(r"^\[\d+\]\s*", "", part.strip()) for part in text.split(",") if part.strip())
    return {re.sub(r"\(.*\)$", "", part) for part in parts}


def judge_why(key: str | None, fields: dict[str, str], names: set[str], top: str) -> tuple[bool, bool]:
    """(says annotated, specific) of one first line, by its catalogue key.
    Specific: an annotated line names the (sub-)quantizer that wrote it (`names`: a ComposableQuantizer's
    sub-quantizers) and its annotator; a not-annotated line names the quantizer (a sub-quantizer or the whole,
    `top`) and the annotator that checked, filtered or searched for it, or says that nothing in it handles the op."""
    if key in ANNOTATED_KEYS:
        who = _names_in(fields.get("quantizer", ""))
        return True, bool(fields.get("fns")) and bool(who) and who <= names
    if key in DECIDED_KEYS:
        who = _names_in(fields.get("quantizer", ""))
        return False, bool(fields.get("fns")) and bool(who) and who <= names | {top}
    if key in NOTHING_KEYS:
        who = _names_in(fields.get("quantizers", ""))
        return False, bool(who) and who <= names | {top}
    return False, False  # not watched, or no reason at all (an empty line): says nothing specific


def why_metrics(run: pl.Run, expected: dict, names: set[str], top: str) -> tuple[float, int, list[str]]:
    """Share of ops whose first why line is specific (judge_why), ops whose line contradicts torchao's map
    (says annotated where torchao's graph has no annotation, or the reverse), examples."""
    reasons = why_reasons()
    stage = run["annotated"]
    ops = [n["id"] for n in stage.snapshot.nodes if n["op"] == "call_function"]
    specific, wrong, examples = 0, 0, []
    for node in ops:
        rows = pl.why_not(stage, node).rows
        line = rows[0][1] if rows else ""
        says_annotated, ok = judge_why(*classify(line, reasons), names, top)
        specific += ok
        if says_annotated != (node in expected):
            wrong += 1
            examples.append(f"{node}: {line[:80]}")
        elif not ok and len(examples) < 3:
            examples.append(f"unspecific {node}: {line[:80]}")
    return (specific / len(ops) if ops else 1.0), wrong, examples


def false_findings(run: pl.Run, expected: dict, torchao_ops: Counter) -> tuple[int, list[str]]:
    """Findings torchao's own graphs contradict: an analysis that failed, 'nothing quantized' when torchao
    inserted q/dq, an fp32 island through a node torchao annotated."""
    qdq = sum(c for op, c in torchao_ops.items() if "quantize" in op)
    bad = []
    for kind, nodes, message, *_ in pl.findings(run).rows:
        if kind == "analysis-failed" or (kind == "nothing-quantized" and qdq):
            bad.append(f"{kind}: {message[:80]}")
        elif kind == "fp32-island" and any(n in expected for n in nodes):
            bad.append(f"{kind} through annotated {[n for n in nodes if n in expected][:3]}")
    return len(bad), bad


def false_checks(case: QuantizerCase, graph: torch.fx.GraphModule, inputs: tuple) -> tuple[int, list[str]]:
    """pl.check on the vendor's own graph: torchao prepared and converted it, so every row is a false alarm."""
    rows = pl.check(case.make(), copy.deepcopy(graph), inputs, qat=case.flow == "qat").rows
    return len(rows), [f"{r[0]} {r[1]}" for r in rows[:3]]


def blame_names(run: pl.Run, quantizer: Any) -> str:
    subs = sub_quantizers(quantizer)
    if not subs:
        return "n/a"
    names = {type(q).__name__ for q in subs}
    named = {n for _, who, _ in pl.blame(run).rows if who for n in _names_in(who)}
    return "yes" if named and named <= names else f"no: {sorted(named - names) or 'nothing'}"


# -- one row


def run_row(case: QuantizerCase, model_name: str, deep: bool = True) -> Row:
    """deep=False: only the flows, counts and annotation map (the light test)."""
    row = Row(case.name, model_name, measured=datetime.date.today().isoformat())
    try:
        case.make()
    except Missing as e:
        row.reason = str(e)
        return row
    with _quiet():
        try:
            real = torchao_flow(case, model_name)
            row.torchao_ok = True
        except Exception as e:
            row.torchao_ok = False
            row.reason = f"torchao itself fails: {one_line(e)}"
            return row
        if hasattr(pl, "record"):
            row.record = _record(case, model_name)
        try:
            run = capture(case, model_name)
            row.capture_ok = True
        except Exception as e:
            row.capture_ok = False
            row.reason = f"pl.capture fails: {one_line(e)}"
            return row
        calls, instances, ops = lens_counts(run)
        row.counts_equal = (calls, instances, ops) == (real.observer_calls, real.observer_instances, real.ops)
        reasons = []
        if not row.counts_equal:
            reasons.append(
                f"counts: observers {calls}/{instances} vs torchao {real.observer_calls}/{real.observer_instances}; "
                f"ops {differences(dict(real.ops), dict(ops))}"
            )
        got = lens_annotations(run)
        row.annotations_equal = got == real.annotations
        if not row.annotations_equal:
            reasons.append(f"annotations: {differences(real.annotations, got)}")
        if deep:
            quantizer = case.make()
            _, inputs, _ = model_and_data(model_name)
            for label, measure in (
                ("why_not", lambda: _why(row, run, real, quantizer)),
                ("findings", lambda: _findings(row, run, real)),
                ("check", lambda: _checks(row, case, real, inputs)),
                ("blame", lambda: _blame(row, run, quantizer)),
            ):
                try:
                    note = measure()
                except Exception as e:
                    note = f"pl.{label} raised {one_line(e)}"
                if note:
                    reasons.append(note)
        row.reason = " | ".join(reasons)
    return row


def _why(row: Row, run: pl.Run, real: Torchao, quantizer: Any) -> str:
    row.why_specific, row.why_wrong, examples = why_metrics(
        run, real.annotations, quantizer_names(quantizer), type(quantizer).__name__
    )
    return f"why: {'; '.join(examples)}" if row.why_wrong or row.why_specific < 0.98 else ""


def _findings(row: Row, run: pl.Run, real: Torchao) -> str:
    row.false_findings, bad = false_findings(run, real.annotations, real.ops)
    return f"findings: {'; '.join(bad[:3])}" if bad else ""


def _checks(row: Row, case: QuantizerCase, real: Torchao, inputs: tuple) -> str:
    row.false_checks, bad = false_checks(case, real.graph, inputs)
    return f"check: {'; '.join(bad)}" if bad else ""


def _blame(row: Row, run: pl.Run, quantizer: Any) -> str:
    row.blame = blame_names(run, quantizer)
    return "" if row.blame in ("yes", "n/a") else f"blame {row.blame}"


def _record(case: QuantizerCase, model_name: str) -> str:
    """pl.record (built on another branch): records the user's own torchao flow; here only whether it runs."""
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    model, inputs, batches = model_and_data(model_name)
    quantizer = case.make()
    try:
        with pl.record():  # type: ignore[attr-defined]
            prepared = prepare_pt2e(vendor_graph(case, model, inputs, quantizer), quantizer)
            for batch in batches:
                prepared(*batch)
            convert_pt2e(prepared)
    except Exception as e:
        return f"fails: {one_line(e)[:60]}"
    return "runs"
