"""Which nodes an observer's `convert()` inserted, and which of them quantize and dequantize.

A name list (`quantize_per_tensor`, `dequantize_affine`, …) misses every other way to convert an observer:
fp16 `convert_element_type` pairs, a custom observer's int4 ops. What all of them share is where they sit:
on the path from the observed tensor to the observer's users. So we take the nodes each observer left
behind (a graph diff around the observer, or their `from_node` for a graph we did not convert) and read
their roles off that path: the node that hands the value on to the old users dequantizes, the nodes on
its data path (first argument) before it quantize, the rest (choose_qparams, getitem) compute qparams.
"""

from __future__ import annotations

import torch

ObserverSites = dict[str, tuple[set[str], str | None, list[str]]]


def observer_sites(gm: torch.fx.GraphModule, is_observer) -> ObserverSites:
    """Before convert: observer module name → (every node name, the observed node, the observer's users)."""
    names = {n.name for n in gm.graph.nodes}
    out: ObserverSites = {}
    for n in gm.graph.nodes:
        if n.op == "call_module" and is_observer(n.target):
            observed = n.args[0].name if n.args and isinstance(n.args[0], torch.fx.Node) else None
            out[n.target] = (names, observed, [u.name for u in n.users])
    return out


def _chains(user: torch.fx.Node, new: set[str]):
    """Each data path of new nodes into `user`, nearest first (following first arguments), with where it ends."""
    for arg in user.all_input_nodes:
        chain: list[torch.fx.Node] = []
        node: torch.fx.Node | None = arg
        while node is not None and node.name in new and node.op == "call_function" and node not in chain:
            chain.append(node)
            first = node.args[0] if node.args else None
            if not isinstance(first, torch.fx.Node):
                node = None
                break
            node = first
        if chain:
            yield chain, node


def roles_from_diff(converted: torch.fx.GraphModule, sites: ObserverSites) -> dict[str, tuple[str, str]]:
    """After convert: node name → (`quantize` | `dequantize`, observer module name) for each inserted q/dq node.

    A chain belongs to an observer when it starts from the tensor the observer watched, or (a weight whose
    quantize convert folded into a new constant) from a new get_attr where the watched node is gone.
    """
    by_name = {n.name: n for n in converted.graph.nodes}
    roles: dict[str, tuple[str, str]] = {}
    news: dict[int, set[str]] = {}  # observer_sites gives every observer the same `before`: one diff, not one each
    for observer, (before, observed, users) in sites.items():
        new = news.get(id(before))
        if new is None:
            new = news[id(before)] = {name for name in by_name if name not in before}
        observed_gone = observed not in by_name
        for user_name in users:
            user = by_name.get(user_name)
            if user is None:
                continue
            for chain, start in _chains(user, new):
                folded = start is not None and start.op == "get_attr" and start.name in new and observed_gone
                if not (folded or (start is not None and start.name == observed)):
                    continue
                for i, node in enumerate(chain):
                    owner = observer_of(node) or observer  # torchao's own provenance wins a tie
                    roles.setdefault(node.name, ("dequantize" if i == 0 else "quantize", owner))
    return roles


def observer_of(node: torch.fx.Node) -> str | None:
    """The observer a node descends from through `from_node` (torchao's provenance), if any."""
    stack = list(node.meta.get("from_node") or ())
    while stack:
        src = stack.pop(0)
        name = getattr(src, "name", "")
        if name.startswith("activation_post_process"):
            return name
        stack.extend(getattr(src, "from_node", None) or ())
    return None


def roles_from_provenance(gm: torch.fx.GraphModule) -> dict[str, tuple[str, str]]:
    """For a graph converted outside pt2e-lens: group call_function nodes by the observer in their
    `from_node`, and read roles off the data path into each group's outside users."""
    groups: dict[str, set[str]] = {}
    for n in gm.graph.nodes:
        if n.op == "call_function" and n.meta.get("from_node") and (obs := observer_of(n)) is not None:
            groups.setdefault(obs, set()).add(n.name)
    nodes = list(gm.graph.nodes)
    index = {n.name: i for i, n in enumerate(nodes)}
    roles: dict[str, tuple[str, str]] = {}
    for observer, members in groups.items():
        inside = (nodes[i] for i in sorted(index[m] for m in members))  # graph order, without a graph scan per group
        users = {u for n in inside for u in n.users if u.name not in members}
        for user in users:
            for chain, _start in _chains(user, members):
                for i, node in enumerate(chain):
                    roles.setdefault(node.name, ("dequantize" if i == 0 else "quantize", observer))
    return roles
