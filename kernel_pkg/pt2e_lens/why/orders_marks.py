"""Which observer nodes moved between two orders of `pl.compare_orders`, for its compare view.

Both prepared graphs name their observers `activation_post_process_N` in graph order, so matching by name pairs
observers that watch different tensors. An observer moved when the edge or node it serves (torchao's
`edge_or_node_to_obs`) is observed in one order and not in the other."""

from __future__ import annotations

from typing import Any

from ..snapshot.keys import Key


def observer_nodes(outcome: Any) -> dict[str, str]:
    """{observer module name: graph node name} of an order's prepared graph."""
    return {str(n.target): n.name for n in outcome.gm.graph.nodes if n.op == "call_module"}


def moved(a: Any, b: Any) -> tuple[dict[str, Key], dict[str, Key]]:
    """(observer nodes of `a` whose key `b` does not observe, the same of `b` against `a`), each {node: key}."""

    def only(x: Any, y: Any) -> dict[str, Key]:
        nodes = observer_nodes(x)
        return {nodes[m]: k for k, m in x.observer_of.items() if k not in y.observer_of and m in nodes}

    return only(a, b), only(b, a)
