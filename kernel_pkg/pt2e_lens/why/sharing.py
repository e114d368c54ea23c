"""`pl.sharing`: every sharing group after prepare, its members, its observer, and why they share
(the reasoning itself is `analyses.sharing_groups`)."""

from __future__ import annotations

from typing import Any

from .. import i18n
from ..analyses.sharing_groups import (
    IMPLICIT_ATTRS,
    SHARED,
    blocked,
    groups,
    implicit_sharing_allowed,
    may_merge,
    root_spec,
    spec_differences,
)
from ..analyses.table import Table
from ..analyses.text import key_text, spec_text
from ..snapshot.keys import Key, spec_by_key, tensor_of
from .observed import observed_snapshot


def _member_reason(key: Key, earlier: list[Key], specs: dict[Key, dict], allows: dict[str, bool]) -> str:
    spec = specs.get(key)
    if spec is not None and spec["kind"] == SHARED:
        return i18n.t("course.why.explicit", spec=spec_text(spec))
    for other in (k for k in earlier if tensor_of(k) == tensor_of(key)):
        if may_merge(key, other, allows) and not spec_differences(root_spec(key, specs), root_spec(other, specs)):
            return i18n.t(
                "course.why.implicit", tensor=tensor_of(key), other=key_text(other), attrs="/".join(IMPLICIT_ATTRS)
            )
    if not earlier:
        return i18n.t("course.why.anchor")
    return i18n.t("course.why.transitive")


def sharing(x: Any) -> Table:
    """A row per member of every sharing group (one observer instance each) and per blocked merge."""
    snap = observed_snapshot(x, "pl.sharing")
    specs, allows = spec_by_key(snap), implicit_sharing_allowed(snap)
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
                i18n.t("course.why.not_merged", other=key_text(other), group=group_of[other], reason=reason),
            )
        )
    cols = ["group", "observer", "tensor", "member", "spec", "why"]
    return Table("sharing", cols, rows, title=i18n.t("table.sharing"))
