"""Module groups of a stage (from each node's `module_stack`), for a View kept under the panel's message cap.

A stage whose View is too big goes out collapsed: a list of module groups, and the panel asks for one
group at a time as a partial snapshot.
"""

from __future__ import annotations

from ..snapshot import Snapshot
from .panel_views import encoded_size, stage_view


def _path_at(node: dict, depth: int) -> str | None:
    stack = node["module_stack"]
    return stack[depth][0] if len(stack) > depth else None


def _depth_of(snap: Snapshot, group: str) -> int | None:
    """1 + the level at which `group` appears in module stacks (0 for the root group "")."""
    if group == "":
        return 0
    for n in snap.nodes:
        for depth, (path, _cls) in enumerate(n["module_stack"]):
            if path == group:
                return depth + 1
    return None


def members(snap: Snapshot, group: str) -> list[str] | None:
    depth = _depth_of(snap, group)
    if depth is None:
        return None
    if depth == 0:
        return [n["id"] for n in snap.nodes]
    return [n["id"] for n in snap.nodes if _path_at(n, depth - 1) == group]


def subgroups(snap: Snapshot, group: str) -> list[dict]:
    """The child groups of `group` ("" = the whole graph): path, class and counts of each."""
    depth = _depth_of(snap, group)
    if depth is None:
        return []
    inside = set(members(snap, group) or ())
    ann = {a["node"] for a in snap.annotations}
    obs = {n for o in snap.observers for n in o["nodes"]}
    qd = {q["node"] for q in snap.qdq}
    out: dict[str, dict] = {}
    for n in snap.nodes:
        if n["id"] not in inside or len(n["module_stack"]) <= depth:
            continue
        path, cls = n["module_stack"][depth]
        g = out.setdefault(
            path, {"group": path, "class": cls, "node_count": 0, "annotations": 0, "observers": 0, "qdq": 0}
        )
        g["node_count"] += 1
        g["annotations"] += n["id"] in ann
        g["observers"] += n["id"] in obs
        g["qdq"] += n["id"] in qd
    return list(out.values())


def partial(snap: Snapshot, ids: list[str], group: str) -> Snapshot:
    """The nodes `ids` plus their direct neighbours, with the edges and facts among them."""
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
    return Snapshot(data)


def fitted(snap: Snapshot, group: str, max_bytes: int, title: str | None = None) -> dict:
    """`{collapsed: false, view}` when the group's View fits, else `{collapsed: true, groups}`.

    Raises ValueError when the group does not exist or cannot be split any further.
    """
    ids = members(snap, group)
    if ids is None:
        raise ValueError(f"no module group {group!r} in this graph")
    part = snap if group == "" else partial(snap, ids, group)
    doc = stage_view(part, title)
    size = encoded_size(doc)
    if size <= max_bytes:
        return {"collapsed": False, "group": group, "bytes": size, "view": doc}
    groups = subgroups(snap, group)
    if not groups:
        raise OverflowError(f"group {group!r} is {size} bytes, over the {max_bytes}-byte cap, and has no sub-groups")
    return {
        "collapsed": True,
        "group": group,
        "parent": _parent(snap, group),
        "bytes": size,
        "total_nodes": len(ids),
        "groups": groups,
        "view": None,
    }


def _parent(snap: Snapshot, group: str) -> str | None:
    """The group one level up ("" for a top-level module, None for the whole graph)."""
    depth = _depth_of(snap, group)
    if not depth:
        return None
    if depth == 1:
        return ""
    member = next(n for n in snap.nodes if _path_at(n, depth - 1) == group)
    return member["module_stack"][depth - 2][0]
