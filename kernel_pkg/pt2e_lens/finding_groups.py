"""Findings grouped by rule: one line per rule with its count and first nodes. Shared by the findings
table's text (analyses) and the no-JS HTML of a View (display), so both word a group the same way."""

from __future__ import annotations

from . import i18n

FIRST_NODES = 4  # nodes named on a group's line: the first node of each of its first findings


def groups(rows) -> list[tuple[str, str, list[tuple]]]:
    """(kind, title, rows) per rule, in the order each rule first appears."""
    out: dict[str, tuple[str, str, list[tuple]]] = {}
    for r in rows:
        kind, title = r[0], r[3] if len(r) > 3 and r[3] else r[0]
        out.setdefault(kind, (kind, title, []))[2].append(r)
    return list(out.values())


def group_line(title: str, rows: list[tuple]) -> str:
    """`251 × fp32 island — gelu, layer_norm, … (+247 more)`; a rule with one finding: its message."""
    if len(rows) == 1:
        return i18n.t("finding.group_one", title=title, message=rows[0][2])
    firsts = list(dict.fromkeys(r[1][0] for r in rows if r[1]))
    shown = ", ".join(firsts[:FIRST_NODES])
    more = i18n.t("finding.more", n=len(firsts) - FIRST_NODES) if len(firsts) > FIRST_NODES else ""
    line = i18n.t("finding.group_line", n=len(rows), title=title)
    return f"{line} — {shown}{more}" if shown else line
