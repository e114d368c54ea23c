"""Sharing groups after prepare, read off a snapshot: which keys share an observer, and why two keys on one
tensor do not.

torchao (prepare.py `_get_edge_or_node_to_group_id`) puts edges and node outputs in one group when a
SharedQuantizationSpec says so, or implicitly: an input edge joins the producer's output and the
producer's other user edges when the consumer's annotation allows implicit sharing and the (unwrapped)
specs agree on every attribute in IMPLICIT_ATTRS. The groups themselves are read off the observer
instances of the prepared graph; this module only explains them.
"""

from __future__ import annotations

from .. import i18n
from ..snapshot import Snapshot
from ..snapshot.keys import Key, key_of, spec_by_key, tensor_of

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
        return [i18n.t("course.why.dangling")]
    return [f"{attr} {a[attr]} vs {b[attr]}" for attr in IMPLICIT_ATTRS if a[attr] != b[attr]]


def implicit_sharing_allowed(snap: Snapshot) -> dict[str, bool]:
    return {a["node"]: a["allow_implicit_sharing"] for a in snap.annotations}


def may_merge(key: Key, other: Key, allows: dict[str, bool]) -> bool:
    """Implicit sharing is tried from an input edge whose consumer allows it: toward the producer's output
    and toward the producer's other user edges (so two edges merge if either consumer allows it)."""
    consumers = [k[2] for k in (key, other) if k[0] == "edge"]
    return any(allows.get(c, True) for c in consumers)


def blocked_reason(key: Key, other: Key, specs: dict[Key, dict], allows: dict[str, bool]) -> str:
    """Why two keys on the same tensor got separate observers."""
    if not may_merge(key, other, allows):
        return i18n.t("course.why.and").join(
            i18n.t("course.why.no_implicit", node=k[2]) for k in (key, other) if k[0] == "edge"
        )
    diffs = spec_differences(root_spec(key, specs), root_spec(other, specs))
    return ", ".join(diffs) if diffs else i18n.t("course.why.kept_apart")


def groups(snap: Snapshot) -> dict[str, list[Key]]:
    """Observer id → the keys it serves, in torchao's order."""
    return {o["id"]: [key_of(s["at"]) for s in o["serves"]] for o in snap.observers}


def blocked(snap: Snapshot) -> list[tuple[Key, Key, str]]:
    """(key, other key, reason) for every two keys on one tensor that did not share an observer."""
    specs, allows = spec_by_key(snap), implicit_sharing_allowed(snap)
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
