"""A stage too large for one panel reply, sent in parts.

The kernel does not group nodes by module: the panel does, with the one grouping rule of the front end
(`src/core/groups.ts`), so the counts it lists are the counts it draws. For a stage over the size cap the
kernel sends an outline (each node's id, role and module stack, the edges, which nodes are annotated);
the panel groups it, then asks for the nodes of one group by their positions in the outline.
"""

from __future__ import annotations

from ..snapshot import Snapshot
from .panel_views import encoded_size, stage_view


def outline(snap: Snapshot) -> dict:
    """The facts grouping needs, compact: module stacks interned, edges and annotations as node positions."""
    index = {n["id"]: i for i, n in enumerate(snap.nodes)}
    stacks: list = []
    stack_at: dict[tuple, int] = {}
    nodes = []
    for n in snap.nodes:
        # torch.export's _guards_fn is drawn only when a focus names it: it counts in no module group
        guards = n["op"] == "call_module" and n["target"] == "_guards_fn"
        key = () if guards else tuple(tuple(level) for level in n["module_stack"])
        if key not in stack_at:
            stack_at[key] = len(stacks)
            stacks.append([list(level) for level in key])
        nodes.append([n["id"], n["role"], stack_at[key]])
    return {
        "stacks": stacks,
        "nodes": nodes,
        "edges": [[index[e["src"]], index[e["dst"]]] for e in snap.edges],
        "annotated": sorted({index[a["node"]] for a in snap.annotations}),
    }


def node_ids(snap: Snapshot, ranges: list) -> list[str]:
    """The ids at `ranges` ([start, end) positions in the outline's node order); ValueError if malformed."""
    total = len(snap.nodes)
    ids: list[str] = []
    for r in ranges:
        ok = isinstance(r, list) and len(r) == 2 and all(type(x) is int for x in r)
        if not ok or not 0 <= r[0] < r[1] <= total:
            raise ValueError(f"nodes must be [start, end) pairs of positions 0..{total}, got {r!r}")
        ids.extend(n["id"] for n in snap.nodes[r[0] : r[1]])
    if not ids:
        raise ValueError("nodes is empty: give the [start, end) positions of the group's nodes")
    return ids


def partial(snap: Snapshot, ids: list[str], group: str) -> Snapshot:
    """The nodes `ids` plus their direct neighbours (listed as `boundary`), with the edges and facts among them."""
    inner = set(ids)
    keep = set(inner)
    for e in snap.edges:
        if e["src"] in inner or e["dst"] in inner:
            keep.update((e["src"], e["dst"]))
    d = snap.data
    data = {
        **d,
        "meta": {
            **d["meta"],
            "partial": {
                "group": group,
                "total_nodes": len(d["nodes"]),
                "boundary": [n["id"] for n in d["nodes"] if n["id"] in keep - inner],
            },
        },
        "nodes": [n for n in d["nodes"] if n["id"] in keep],
        "edges": [e for e in d["edges"] if e["src"] in keep and e["dst"] in keep],
        "annotations": [a for a in d["annotations"] if a["node"] in inner],
        "observers": [o for o in d["observers"] if inner.intersection(o["nodes"])],
        "qdq": [q for q in d["qdq"] if q["node"] in inner],
        "findings": [f for f in d["findings"] if inner.intersection(f["nodes"])],
    }
    if "backend" in d:  # a lowered stage: the outcomes of the nodes drawn
        data["backend"] = {**d["backend"], "nodes": {k: v for k, v in d["backend"]["nodes"].items() if k in keep}}
    return Snapshot(data)


def fitted(snap: Snapshot, ranges: list | None, group: str, max_bytes: int, title: str | None = None) -> dict:
    """`{collapsed: false, view}` when the stage (or the nodes at `ranges`) fits under `max_bytes`, else
    `{collapsed: true}`, with the outline when the whole stage was asked for. ValueError on bad ranges."""
    part = snap if ranges is None else partial(snap, node_ids(snap, ranges), group)
    doc = stage_view(part, title)
    size = encoded_size(doc)
    if size <= max_bytes:
        return {"collapsed": False, "group": group, "bytes": size, "view": doc}
    out = {"collapsed": True, "group": group, "bytes": size, "total_nodes": len(part.nodes), "view": None}
    if ranges is None:
        out["outline"] = outline(snap)
    return out
