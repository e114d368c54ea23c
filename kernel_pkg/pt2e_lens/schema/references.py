"""What JSON Schema cannot say about a Snapshot: the node ids it references name its nodes.

Two references may name a node that is gone, and are not checked: an annotation's input `src` and a q/dq's
`tensor` in a converted graph (convert_pt2e folds weights into new constants but keeps the annotation meta).
"""

from __future__ import annotations

from collections.abc import Iterator


def _references(data: dict) -> Iterator[tuple[str, str]]:
    """(where, node id) for every reference that must name one of `nodes`."""
    for i, e in enumerate(data["edges"]):
        yield f"edges[{i}].src", e["src"]
        yield f"edges[{i}].dst", e["dst"]
    for i, a in enumerate(data["annotations"]):
        yield f"annotations[{i}].node", a["node"]
    for i, o in enumerate(data["observers"]):
        for j, n in enumerate(o["nodes"]):
            yield f"observers[{i}].nodes[{j}]", n
        if o["observes"] is not None:
            yield f"observers[{i}].observes", o["observes"]
    for i, q in enumerate(data["qdq"]):
        yield f"qdq[{i}].node", q["node"]


def reference_error(data: dict) -> str | None:
    """One line naming the first dangling or duplicate id of a schema-valid Snapshot, or None."""
    meta = data["meta"]
    partial = meta.get("partial")
    count = partial["total_nodes"] if isinstance(partial, dict) and "total_nodes" in partial else len(data["nodes"])
    if meta["node_count"] != count:  # the count a reader shows must be the graph's own
        return f"meta.node_count: {meta['node_count']!r}, but the snapshot has {count} nodes"
    ids: set[str] = set()
    for i, n in enumerate(data["nodes"]):
        if n["id"] in ids:
            return f"nodes[{i}].id: {n['id']!r} appears twice"
        ids.add(n["id"])
    for at, node in _references(data):
        if node not in ids:
            return f"{at}: {node!r} is not a node id of this snapshot"
    specs = {s["id"] for s in data["specs"]}
    observers = {o["id"] for o in data["observers"]}
    for i, a in enumerate(data["annotations"]):
        for j, spec in [(f"inputs[{j}].spec", inp["spec"]) for j, inp in enumerate(a["inputs"])] + [
            ("output", a["output"])
        ]:
            if spec is not None and spec not in specs:
                return f"annotations[{i}].{j}: {spec!r} is not a spec id of this snapshot"
    for i, n in enumerate(data["nodes"]):
        if n["observer"] is not None and n["observer"] not in observers:
            return f"nodes[{i}].observer: {n['observer']!r} is not an observer id of this snapshot"
    return None
