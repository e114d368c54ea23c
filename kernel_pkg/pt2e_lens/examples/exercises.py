"""`exercise(name, answer)`: the course's self-checking exercises, one per chapter's key idea.

Each runs the student's answer on a private copy of the chapter's model (pl.check, pl.blame, pl.compare_orders
and torchao's own prepare_pt2e), prints what is right and what is wrong in the chapter's language, and returns
a graph: the reference answer next to the student's, the nodes that differ marked (`pl.compare`'s diff frames)
and noted. `result.passed` says whether the answer holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch

from .. import i18n
from .._torchao import ComposableQuantizer, get_module_name_filter
from ..analyses import chain, module
from ..capture import Run
from ..display import View
from ..errors import Pt2eLensError
from ..views import compare_view
from ..why import blame, check, compare_orders
from .course import export_module
from .data import example_inputs
from .models import get_model
from .quantizers import ConvQuantizer, ConvReluQuantizer


class ExerciseResult(View):
    """The feedback of one exercise: `passed`, the `lines` it printed, and the marked graph it displays."""

    def __init__(self, view: dict, passed: bool, lines: list[str]):
        super().__init__(view)
        self.passed, self.lines = passed, lines

    def __repr__(self) -> str:
        return "\n".join(self.lines)


def _t(key: str, **params: Any) -> str:
    return i18n.t("course.exercise." + key, **params)


def _prepared(gm: torch.fx.GraphModule, quantizer: Any) -> torch.fx.GraphModule:
    """torchao's prepare_pt2e on a private copy (pl.Run copies; the student's graph stays as it was)."""
    return Run(gm).prepare(quantizer)["prepared"].graph_module


def _problems(quantizer: Any, gm: torch.fx.GraphModule) -> list[str]:
    """pl.check's findings, one line each (the check's own words, already in the locale)."""
    return [f"{r[0]}: {r[2]}" for r in check(quantizer, gm).rows]


def _annotated_by(quantizer: Any, gm: torch.fx.GraphModule) -> dict[str, str]:
    """pl.blame: node → the (sub-)quantizer that annotated it."""
    return {r[0]: r[1] for r in blame(gm, quantizer).rows if r[1]}


def _stem_only(answer: Any) -> tuple[bool, list[str], dict]:
    gm = export_module(get_model("tiny").eval(), example_inputs(8))
    in_stem = get_module_name_filter("stem")
    stem_convs = {
        n.name for n in gm.graph.nodes if n.op == "call_function" and "conv2d" in str(n.target) and in_stem(n)
    }
    lines = [_t("problem", text=p) for p in _problems(answer, gm)]
    who = _annotated_by(answer, gm)
    outside = sorted(n for n in who if not in_stem(next(x for x in gm.graph.nodes if x.name == n)))
    missing = sorted(stem_convs - set(who))
    lines += [_t("outside_stem", node=n, module=_module_of(gm, n)) for n in outside]
    lines += [_t("stem_missing", node=n) for n in missing]
    passed = not lines
    if passed:
        lines.append(_t("stem_right", nodes=", ".join(sorted(stem_convs))))
    ref = _prepared(gm, ConvQuantizer(in_stem))
    mine = _prepared(gm, answer)
    # the reference marks what the answer left out, the answer what it took from outside stem
    view = compare_view(
        [(ref, _t("reference")), (mine, _t("yours"))],
        notes=[{n: _t("note_missing") for n in missing}, {n: _t("note_outside") for n in outside}],
        title=_verdict(passed),
    )
    return passed, lines, view


def _module_of(gm: torch.fx.GraphModule, name: str) -> str:
    stack = next(n for n in gm.graph.nodes if n.name == name).meta.get("nn_module_stack") or {}
    return next(reversed(stack.values()))[0] if stack else "—"


def _observer_before_relu(gm: torch.fx.GraphModule) -> str | None:
    """The observer node between conv2d and relu, if the prepared graph has one (the chapter's own test)."""
    relu = next(n for n in gm.graph.nodes if n.op == "call_function" and "relu" in str(n.target))
    arg = relu.args[0]
    return arg.name if isinstance(arg, torch.fx.Node) and arg.op == "call_module" else None


def _relu_last(answer: Any) -> tuple[bool, list[str], dict]:
    if not isinstance(answer, Sequence) or isinstance(answer, str) or len(answer) < 2:
        raise Pt2eLensError(_t("needs_order"))
    quantizers = list(answer)
    composed = ComposableQuantizer(quantizers)
    model = get_model("conv_relu").eval()
    gm = export_module(model, example_inputs(4))
    lines = [_t("problem", text=p) for p in _problems(composed, gm)]
    mine = _prepared(gm, composed)
    between = _observer_before_relu(mine)
    who = _annotated_by(composed, gm)
    order = " → ".join(type(q).__name__ for q in quantizers)
    if between is not None:
        lines.append(_t("observer_between", node=between, order=order))
        lines.append(_t("who_took", node="conv2d", who=who.get("conv2d", i18n.t("orders.nobody"))))
    passed = not lines
    if passed:
        lines.append(_t("relu_right", order=order, who=who.get("relu", i18n.t("orders.nobody"))))
    lines.append(_t("orders", summary=compare_orders(model, quantizers, example_inputs(4)).summary))
    ref = _prepared(gm, ComposableQuantizer([ConvReluQuantizer(), ConvQuantizer()]))
    view = compare_view(
        [(ref, _t("reference")), (mine, _t("yours"))],
        focus=["conv2d", "relu"],
        notes=[{}, {between: _t("note_between")} if between else {}],
        title=_verdict(passed),
    )
    return passed, lines, view


def _decomposed_chain(answer: Any) -> tuple[bool, list[str], dict]:
    if not isinstance(answer, Sequence) or isinstance(answer, str):
        raise Pt2eLensError(_t("needs_ops"))
    ep = torch.export.export(get_model("tiny").eval(), example_inputs())
    pre, post = ep.module(), ep.run_decompositions({}).module()
    truth = list(chain(post, "conv2d", until="relu"))
    mine = [str(a) for a in answer]
    # the first step where the answer and the decomposed graph part (None: they agree all the way)
    wrong = next((i for i, (a, b) in enumerate(zip(mine, truth)) if a != b), None)
    if wrong is None and len(mine) != len(truth):
        wrong = min(len(mine), len(truth))
    if wrong is None:
        return True, [_t("chain_right", n=len(truth), chain=" → ".join(truth))], _chain_view(pre, post, {}, True)
    got = mine[wrong] if wrong < len(mine) else "—"
    want = truth[wrong] if wrong < len(truth) else "—"
    lines = [_t("chain_wrong", i=wrong + 1, got=got, want=want), _t("chain_length", yours=len(mine), n=len(truth))]
    nodes = _chain_nodes(post)
    notes = {nodes[wrong]: _t("note_chain", want=want)} if wrong < len(nodes) else {}
    return False, lines, _chain_view(pre, post, notes, False)


def _chain_view(pre: torch.fx.GraphModule, post: torch.fx.GraphModule, notes: dict, passed: bool) -> dict:
    """The stem's chain before and after run_decompositions({}), the step the answer missed noted."""
    return compare_view(
        [(pre, "ep.module()"), (post, "ep.run_decompositions({}).module()")],
        focus=[module("stem"), "conv2d", "batch_norm", "_native_batch_norm_legit_no_training", "getitem", "relu"],
        hops=0,
        notes=[{}, notes],
        title=_verdict(passed),
    )


def _chain_nodes(gm: torch.fx.GraphModule) -> list[str]:
    """The node names along the first conv2d's chain (pl.chain gives their ops)."""
    node, names = next(n for n in gm.graph.nodes if n.name == "conv2d"), []
    while node.op == "call_function":
        names.append(node.name)
        if "relu" in str(node.target) or len(node.users) != 1:
            break
        node = next(iter(node.users))
    return names


def _verdict(passed: bool) -> str:
    return _t("passed") if passed else _t("failed")


EXERCISES: dict[str, Callable[[Any], tuple[bool, list[str], dict]]] = {
    "m00_3.chain": _decomposed_chain,
    "m03_6.stem_only": _stem_only,
    "m03_6.relu_last": _relu_last,
}


def exercise(name: str, answer: Any, lang: str | None = None, echo: bool = True) -> ExerciseResult:
    """Check `answer` for the exercise `name` (see `EXERCISES`): prints the feedback, returns the marked graph.
    `echo=False` prints nothing (a chapter's self-test checks a wrong answer too: no ✘ for every student).

    - `"m00_3.chain"`: the ops from the first conv2d to its relu after `run_decompositions({})` (a list of names);
    - `"m03_6.stem_only"`: a quantizer that quantizes only the convs inside `stem` of the `tiny` model;
    - `"m03_6.relu_last"`: quantizers in the order that puts the observer after relu, not between conv and relu.
    """
    if not isinstance(name, str) or name not in EXERCISES:  # a list would be unhashable
        raise Pt2eLensError(_t("unknown", name=repr(name), names=", ".join(EXERCISES)))
    with i18n.using(lang):
        passed, lines, view = EXERCISES[name](answer)
        for line in lines if echo else ():
            print(line)
    return ExerciseResult(view, passed, lines)
