"""`pl.findings(x)`: the findings as a Table whose text is grouped — one line per rule with its count and
first nodes (`251 × fp32 island — gelu, layer_norm, add_3, …`), not a paragraph per finding.

`.rows` keep every finding (kind, nodes, message, title); the front end and the no-JS HTML group by `title`.
"""

from __future__ import annotations

from .. import i18n
from ..finding_groups import group_line, groups
from .table import Table


class FindingsTable(Table):
    """The findings table; prints grouped by rule."""

    def group_lines(self) -> list[str]:
        return [group_line(title, rows) for _, title, rows in groups(self.rows)]

    def to_text(self) -> str:
        if not self.rows:
            return super().to_text()
        lines = [self.title] if self.title else []
        lines += [f"⚠ {line}" for line in self.group_lines()]
        if any(len(rows) > 1 for _, _, rows in groups(self.rows)):
            lines.append(i18n.t("finding.more_groups"))
        return "\n".join(lines)
