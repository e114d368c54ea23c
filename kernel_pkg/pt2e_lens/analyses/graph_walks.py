"""Walking a snapshot's graph: the course's unique-user chain (a focused view's node set: focus.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import i18n
from ..errors import Pt2eLensError
from .source import snapshot


class Chain(list):
    """Op names along a chain; prints as `conv2d → batch_norm → relu`."""

    def __str__(self) -> str:
        return " → ".join(self)

    __repr__ = __str__


def chain(x: Any, start: str, until: str | Iterable[str] | None = None) -> Chain:
    """Ops from node `start` following unique users, stopping after an op in `until` or at a fork."""
    snap = snapshot(x)
    if start not in snap.node:
        raise Pt2eLensError(i18n.t("error.no_such_node", name=repr(start), examples=_examples(snap)))
    if (
        until is not None
        and not isinstance(until, str)
        and not (isinstance(until, Iterable) and all(isinstance(u, str) for u in until))
    ):
        raise Pt2eLensError(i18n.t("error.guard_chain_until", got=f"{until!r:.40} (a {type(until).__name__})"))
    stop = {until} if isinstance(until, str) else set(until or ())
    out, node = Chain(), snap.node[start]
    while node["op"] == "call_function":
        out.append(node["target"])
        users = snap.users[node["id"]]
        if node["target"] in stop or len(users) != 1:
            break
        node = snap.node[users[0]]
    return out


def _examples(snap) -> str:
    names = [n["id"] for n in snap.nodes if n["op"] == "call_function"][:3]
    return ", ".join(names) or "(none)"
