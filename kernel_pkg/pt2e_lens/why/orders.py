"""`pl.compare_orders`: prepare with every order of a ComposableQuantizer's parts and say what changes.

In a ComposableQuantizer the first sub-quantizer to annotate a node owns it; later ones must skip it.
So the order decides which pattern wins, and with it where observers go (course chapter M03-6).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any

import torch

from .. import i18n
from .._copy import private_copy
from .._targets import short_name
from .._torchao import ComposableQuantizer, is_observer_module
from ..analyses.table import Table
from ..analyses.text import key_text
from ..capture.qat import fake_quant_count
from ..errors import Pt2eLensError
from ..prepare.checks import CheckedPrepare
from ..prepare.recorder import RecordingQuantizer
from ..prepare.user_quantizer import check_quantizer, quantizer_copy
from ..snapshot.keys import Key, serves_from_callback
from .float_graph import float_graph, warn_folded_qat_quantizer

MAX_PERMUTED = 4


class OrderComparison(Table):
    """The differences between orders; `summary` says in one sentence whether and how order matters."""

    def __init__(self, rows: list, summary: str, orders: list[str], outcomes: list | None = None):
        super().__init__("orders", ["order", "change", "at", "detail"], rows, title=summary)
        self.summary, self.orders = summary, orders
        # the prepared private copies, for the compare view that marks the moved observers (why/orders_marks.py)
        self.outcomes = outcomes or []


class _Outcome:
    def __init__(
        self, names: list[str], gm: torch.fx.GraphModule, recorder: RecordingQuantizer | None, error: str | None
    ):
        self.names, self.error = names, error
        self.gm = gm
        self.label = " → ".join(names)
        self.blame = recorder.blame if recorder else {}
        self.skipped = recorder.skipped_by if recorder else {}
        self.observed: set[Key] = set()
        #: {key: observer module name} of this order's prepared graph
        self.observer_of: dict[Key, str] = {}
        self.users = _float_users(gm)
        self.ops = {n.name: short_name(n.target) for n in gm.graph.nodes}
        if recorder is not None and error is None:
            self.observer_of = serves_from_callback(recorder.edge_or_node_to_obs, gm)
            self.observed = set(self.observer_of)


def _float_users(gm: torch.fx.GraphModule) -> dict[str, list[str]]:
    """Each node's consumers, looking through observers (batch norms are already folded after prepare)."""
    modules = dict(gm.named_modules())

    def is_obs(n: torch.fx.Node) -> bool:
        return n.op == "call_module" and is_observer_module(modules.get(n.target))

    def consumers(n: torch.fx.Node) -> list[str]:
        out: list[str] = []
        for u in n.users:
            out += consumers(u) if is_obs(u) else [] if u.op == "output" else [u.name]
        return out

    return {n.name: list(dict.fromkeys(consumers(n))) for n in gm.graph.nodes if not is_obs(n)}


def _orders(quantizers: Sequence[Any]) -> list[list[Any]]:
    if not isinstance(quantizers, (list, tuple)) or len(quantizers) < 2:
        raise Pt2eLensError(i18n.t("error.orders_need_two"))
    if all(isinstance(q, (list, tuple)) for q in quantizers):
        return [[check_quantizer(q, "pl.compare_orders") for q in order] for order in quantizers]
    qs = [check_quantizer(q, "pl.compare_orders") for q in quantizers]
    if len(qs) > MAX_PERMUTED:
        raise Pt2eLensError(i18n.t("error.orders_too_many", max=MAX_PERMUTED, n=len(qs)))
    return [list(p) for p in itertools.permutations(qs)]


def _prepare(base: torch.fx.GraphModule, order: list[Any], qat: bool) -> _Outcome:
    names = [type(q).__name__ for q in order]
    composed = ComposableQuantizer([quantizer_copy(q) for q in order])
    try:
        done = CheckedPrepare(private_copy(base), composed, qat=qat)
    except Pt2eLensError as e:
        return _Outcome(names, base, None, str(e))
    if not qat:  # a QAT quantizer on prepare_pt2e: its batch norms were folded first (one warning)
        warn_folded_qat_quantizer(
            fake_quant_count(done.prepared), composed, "pl.compare_orders", done.folded_batch_norms
        )
    return _Outcome(names, done.prepared, done.recorder, None)


def _where(key: Key, users: dict[str, list[str]]) -> str:
    if key[0] == "edge":
        return i18n.t("orders.between", a=key[1], b=key[2])
    consumers = users.get(key[1], [])
    return i18n.t("orders.between", a=key[1], b=", ".join(consumers)) if consumers else i18n.t("orders.after", a=key[1])


def _pattern(key: Key, out: _Outcome) -> tuple[str, str]:
    """(producer op, consumer ops) of where an observer sits, by op rather than node name."""
    consumers = [key[2]] if key[0] == "edge" else out.users.get(key[1], [])
    return out.ops.get(key[1], key[1]), ", ".join(sorted({out.ops.get(c, c) for c in consumers}))


def _sentences(found: dict[tuple, int]) -> list[str]:
    """One sentence per (producer op, consumer ops, who): `an observer between conv2d and relu appears (3×) …`.

    The same producer op with several kinds of consumer reads `after relu`."""
    kinds: dict[tuple, set] = {}
    for producer, consumers, who in found:
        kinds.setdefault((producer, who), set()).add(consumers)
    out: dict[tuple[str, str], int] = {}
    for (producer, consumers, who), n in found.items():
        where = (
            i18n.t("orders.between", a=producer, b=consumers)
            if consumers and len(kinds[(producer, who)]) == 1
            else i18n.t("orders.after", a=producer)
        )
        key = (where, who)
        out[key] = out.get(key, 0) + n
    return [
        i18n.t("orders.sentence", where=where, times=i18n.t("orders.times", n=n) if n > 1 else "", who=who)
        for (where, who), n in out.items()
    ]


def _claimer(key: Key, blame: dict[str, str]) -> str | None:
    return blame.get(key[2] if key[0] == "edge" else key[1])


def _who(key: Key, present: _Outcome, absent: _Outcome) -> str:
    """`the small pattern (ConvQuantizer)`: the quantizer whose claim puts the observer there, sized
    against the quantizer that claims the same contested nodes in the order without it."""
    q = _claimer(key, present.blame)
    if q is None:
        return i18n.t("orders.this_order")
    contested = {n for n in set(present.blame) | set(absent.blame) if present.blame.get(n) != absent.blame.get(n)}
    rivals = Counter(absent.blame[n] for n in contested if absent.blame.get(n) not in (None, q))
    if not rivals:
        return i18n.t("orders.goes_first", who=q)
    p = rivals.most_common(1)[0][0]
    mine = sum(1 for n in contested if present.blame.get(n) == q)
    theirs = sum(1 for n in contested if absent.blame.get(n) == p)
    size = "orders.small" if mine < theirs else "orders.large" if mine > theirs else "orders.before"
    return i18n.t("orders.goes_first", who=i18n.t(size, q=q, p=p))


def compare_orders(
    model_or_graph: Any, quantizers: Sequence[Any], example_inputs: Any = None, qat: bool = False
) -> OrderComparison:
    """Prepare private copies with each order (all permutations of up to 4 quantizers, or the orders given);
    `qat=True`: with prepare_qat_pt2e on a train-mode export, as pl.capture(…, qat=True)."""
    orders = _orders(quantizers)
    every = [q for order in orders for q in order]
    base = float_graph(model_or_graph, example_inputs, "pl.compare_orders", qat=qat, quantizers=every)
    outcomes = [_prepare(base, order, qat) for order in orders]
    ref = outcomes[0]
    rows: list[tuple] = []
    sentences: list[str] = []
    appears: dict[tuple, set] = {}  # (producer op, consumer ops, who) → the keys, over all orders
    for out in outcomes:
        if out.error:
            rows.append((out.label, i18n.t("course.change.fails"), "", out.error))
            sentences.append(i18n.t("orders.fails", order=out.label))
            continue
        if out is ref:
            continue
        for present, absent, change in (
            (out, ref, i18n.t("course.change.added")),
            (ref, out, i18n.t("course.change.removed")),
        ):
            for key in sorted(present.observed - absent.observed):
                where = _where(key, present.users)
                rows.append((out.label, change, key_text(key), where))
                fact = (*_pattern(key, present), _who(key, present, absent))
                appears.setdefault(fact, set()).add(key)
        for node in [n for n in out.users if ref.blame.get(n) != out.blame.get(n)]:
            skipped = ", ".join(out.skipped.get(node, []))
            nobody = i18n.t("orders.nobody")
            detail = f"{ref.blame.get(node) or nobody} → {out.blame.get(node) or nobody}"
            skip = i18n.t("orders.skipped", x=skipped) if skipped else ""
            rows.append((out.label, i18n.t("course.change.moved"), node, detail + skip))
    unique = list(dict.fromkeys(sentences)) + _sentences({fact: len(keys) for fact, keys in appears.items()})
    if unique:
        summary = i18n.t("orders.matters", list=i18n.t("orders.sep").join(unique))
    else:
        summary = i18n.t("orders.no_matter", n=len(outcomes))
    return OrderComparison(rows, summary, [o.label for o in outcomes], outcomes)
