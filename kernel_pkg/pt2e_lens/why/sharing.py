"""`pl.sharing`: every sharing group after prepare, its members, its observer, and why they share.

torchao (prepare.py `_get_edge_or_node_to_group_id`) puts edges and node outputs in one group when a
SharedQuantizationSpec says so, or implicitly: an input edge joins the producer's output and the
producer's other user edges when the consumer's annotation allows implicit sharing and the (unwrapped)
specs agree on every attribute in IMPLICIT_ATTRS. The groups themselves are read off the observer
instances of the prepared graph; this module only explains them.
"""

from __future__ import annotations

from typing import Any

from ..analyses._describe import spec_text
from ..analyses.table import Table
from ..snapshot import Snapshot
from ._input import Key, key_of, key_text, observed_snapshot, spec_by_key, tensor_of

IMPLICIT_ATTRS = ("dtype", "is_dynamic", "quant_min", "quant_max", "qscheme", "ch_axis", "scale", "zero_point")
SHARED = "SharedQuantizationSpec"


def root_spec(key: Key, specs: dict[Key, dict], seen: set | None = None) -> dict | None:
    """The spec a key ends up with after following SharedQuantizationSpec links (None if it dangles)."""
    seen = seen or set()
    spec = specs.get(key)
    while spec is not None and spec["kind"] == SHARED:
        target = key_of(spec["shared_with"])
        if target in seen:
            return None
        seen.add(target)
        spec = specs.get(target)
    return spec


def spec_differences(a: dict | None, b: dict | None) -> list[str]:
    """`quant_min -128 vs 0` for every attribute implicit sharing compares and finds different."""
    if a is None or b is None:
        return ["a shared spec points at an unannotated edge or node"]
    return [f"{attr} {a[attr]} vs {b[attr]}" for attr in IMPLICIT_ATTRS if a[attr] != b[attr]]


def _allows(snap: Snapshot) -> dict[str, bool]:
    return {a["node"]: a["allow_implicit_sharing"] for a in snap.annotations}


def _may_merge(key: Key, other: Key, allows: dict[str, bool]) -> bool:
    """Implicit sharing is tried from an input edge whose consumer allows it: toward the producer's output
    and toward the producer's other user edges (so two edges merge if either consumer allows it)."""
    consumers = [k[2] for k in (key, other) if k[0] == "edge"]
    return any(allows.get(c, True) for c in consumers)


def blocked_reason(key: Key, other: Key, specs: dict[Key, dict], allows: dict[str, bool]) -> str:
    """Why two keys on the same tensor got separate observers."""
    if not _may_merge(key, other, allows):
        return " and ".join(f"allow_implicit_sharing=False on {k[2]}" for k in (key, other) if k[0] == "edge")
    diffs = spec_differences(root_spec(key, specs), root_spec(other, specs))
    return ", ".join(diffs) if diffs else "torchao kept them apart although the specs agree"


def _member_reason(key: Key, earlier: list[Key], specs: dict[Key, dict], allows: dict[str, bool]) -> str:
    spec = specs.get(key)
    if spec is not None and spec["kind"] == SHARED:
        return f"explicit: SharedQuantizationSpec → {key_text(key_of(spec['shared_with']))}"
    for other in (k for k in earlier if tensor_of(k) == tensor_of(key)):
        if _may_merge(key, other, allows) and not spec_differences(root_spec(key, specs), root_spec(other, specs)):
            return f"implicit: same tensor {tensor_of(key)} as {key_text(other)}, equal " + "/".join(IMPLICIT_ATTRS)
    if not earlier:
        return "own spec: the group's anchor"
    return "joined through another member's sharing (transitive)"


def groups(snap: Snapshot) -> dict[str, list[Key]]:
    """Observer id → the keys it serves, in torchao's order."""
    return {o["id"]: [key_of(s["at"]) for s in o["serves"]] for o in snap.observers}


def blocked(snap: Snapshot) -> list[tuple[Key, Key, str]]:
    """(key, other key, reason) for every two keys on one tensor that did not share an observer."""
    specs, allows = spec_by_key(snap), _allows(snap)
    group_of = {k: gid for gid, keys in groups(snap).items() for k in keys}
    by_tensor: dict[str, list[Key]] = {}
    for k in group_of:
        by_tensor.setdefault(tensor_of(k), []).append(k)
    out, seen = [], set()
    for keys in by_tensor.values():
        for i, key in enumerate(keys):
            for other in keys[:i]:
                pair = frozenset((group_of[key], group_of[other]))
                if len(pair) == 2 and pair not in seen:
                    seen.add(pair)
                    out.append((key, other, blocked_reason(key, other, specs, allows)))
    return out


def sharing(x: Any) -> Table:
    """A row per member of every sharing group (one observer instance each) and per blocked merge."""
    snap = observed_snapshot(x, "pl.sharing")
    specs, allows = spec_by_key(snap), _allows(snap)
    observer = {o["id"]: o for o in snap.observers}
    group_of: dict[Key, str] = {}
    rows = []
    for gid, keys in groups(snap).items():
        o = observer[gid]
        for i, key in enumerate(keys):
            group_of[key] = gid
            why = _member_reason(key, keys[:i], specs, allows)
            rows.append((gid, ", ".join(o["names"]), o["observes"], key_text(key), spec_text(specs.get(key)), why))
    for key, other, reason in blocked(snap):
        o = observer[group_of[key]]
        rows.append(
            (
                group_of[key],
                ", ".join(o["names"]),
                o["observes"],
                key_text(key),
                spec_text(specs.get(key)),
                f"not merged with {key_text(other)} ({group_of[other]}): {reason}",
            )
        )
    cols = ["group", "observer", "tensor", "member", "spec", "why"]
    return Table("sharing", cols, rows, title="sharing groups")
