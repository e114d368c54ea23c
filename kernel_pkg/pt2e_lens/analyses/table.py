"""Small result tables: readable in a terminal (`str`), a notebook (its MIME bundle) and as JSON."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from typing import Any

from .. import i18n
from ..display_hook import Displayable
from ..schema import TABLE_NAMES
from ..schema.numbers import json_number


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        if not math.isfinite(v):  # as the viewer draws them: an exact match ∞, 0/0 (NaN) a dash
            return "—" if math.isnan(v) else "∞" if v > 0 else "−∞"
        return f"{v:.6g}"
    if isinstance(v, (list, tuple)):
        return ", ".join(_cell(x) for x in v) if len(v) <= 4 else f"{_cell(v[0])}, … ({len(v)})"
    return str(v)


def _width(s: str) -> int:
    """Columns a terminal gives `s`: a CJK character takes two (so a zh-TW table still lines up)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def _pad(s: str, width: int) -> str:
    return s + " " * (width - _width(s))


def _jsonable(v: Any) -> Any:
    if isinstance(v, float):
        return json_number(v)  # an exact match's SQNR is inf: the contract writes "Infinity"
    if v is None or isinstance(v, (str, int, bool)):
        return v
    if isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v):
        return list(v)  # node ids stay a list (the contract's Cell): no reader splits "a, b, c" back
    return _cell(v)


class Table(Displayable):
    """Rows of plain values with named columns. `name` says which analysis made it."""

    def __init__(self, name: str, columns: Sequence[str], rows: Sequence[Sequence[Any]], title: str | None = None):
        self.name, self.title = name, title
        self.columns = list(columns)
        self.rows = [tuple(r) for r in rows]

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self):
        return iter(self.rows)

    def __getitem__(self, i):
        return self.rows[i]

    def column(self, name: str) -> list[Any]:
        i = self.columns.index(name)
        return [r[i] for r in self.rows]

    def to_dict(self) -> dict:
        """The contract's Table: {name, title, columns, rows}. `name` is one of the schema's TableName (the front
        ends pick a tab label and column order by it); a table named otherwise (`pl.Table` of your own rows) is
        written as `table`, its name kept as the title it shows under."""
        known = self.name in TABLE_NAMES
        return {
            "name": self.name if known else "table",
            "title": self.title if known or self.title else self.name,
            "columns": self.columns,
            "rows": [[_jsonable(v) for v in r] for r in self.rows],
        }

    def headers(self) -> list[str]:
        """The column headers shown to people, in the current locale (`columns` stay the data's keys)."""
        return [i18n.named("col.", c) for c in self.columns]

    def to_markdown(self) -> str:
        def esc(s: str) -> str:
            return s.replace("|", "\\|").replace("\n", " ")

        lines = ["| " + " | ".join(esc(c) for c in self.headers()) + " |", "|" + "---|" * len(self.columns)]
        lines += ["| " + " | ".join(esc(_cell(v)) for v in r) + " |" for r in self.rows]
        return "\n".join(([f"**{esc(self.title)}**", ""] if self.title else []) + lines)

    def to_text(self) -> str:
        cells = [self.headers()] + [[_cell(v) for v in r] for r in self.rows]
        widths = [max(_width(row[i]) for row in cells) for i in range(len(self.columns))]
        fmt = lambda row: "  ".join(_pad(c, w) for c, w in zip(row, widths)).rstrip()  # noqa: E731
        lines = [fmt(cells[0]), "  ".join("-" * w for w in widths)] + [fmt(r) for r in cells[1:]]
        return "\n".join(([self.title] if self.title else []) + lines)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return self.to_text()
