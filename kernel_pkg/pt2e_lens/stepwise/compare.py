"""`wb.rerun()`'s answer: the previous run beside the new one — counts, output SQNR, backend outcomes, graphs."""

from __future__ import annotations

import math
from typing import Any

from .. import i18n
from ..analyses.counts import diff_ops
from ..analyses.table import Table
from ..capture import Run
from ..display import View, compare


def _delta(a: Any, b: Any) -> Any:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isfinite(a) and math.isfinite(b):
        return b - a
    return None


class RunComparison(Table):
    """Rows (measure, previous, current, delta); `.graph` the two converted graphs side by side (added and
    removed nodes marked), `.ops` op counts before and after, `.previous` / `.current` the two runs."""

    def __init__(self, previous: Run, current: Run, before: dict, after: dict):
        rows: list[tuple] = []
        for key in ("observers", "qdq", "nodes"):
            a, b = before["counts"].get(key), after["counts"].get(key)
            if a is not None or b is not None:
                rows.append((i18n.t(f"workbench.measure.{key}"), a, b, _delta(a, b)))
        if before["sqnr"] is not None or after["sqnr"] is not None:
            a, b = before["sqnr"], after["sqnr"]
            rows.append((i18n.t("workbench.measure.sqnr"), a, b, _delta(a, b)))
        for outcome in sorted(set(before["outcomes"]) | set(after["outcomes"])):
            a, b = before["outcomes"].get(outcome, 0), after["outcomes"].get(outcome, 0)
            rows.append((i18n.t("workbench.measure.outcome", outcome=outcome), a, b, b - a))
        columns = ["measure", "previous", "current", "delta"]
        super().__init__("workbench_rerun", columns, rows, title=i18n.t("workbench.rerun_title"))
        self.previous, self.current = previous, current
        self.before, self.after = before, after

    def _common(self) -> str:
        """The newest graph stage both runs have (lowered stages hold the converted graph)."""
        for name in ("converted", "calibrated", "prepared", "exported"):
            if name in self.previous and name in self.current:
                return name
        return "exported"

    @property
    def graph(self) -> View:
        name = self._common()
        a, b = self.previous[name], self.current[name]
        return compare((a, i18n.t("workbench.previous")), (b, i18n.t("workbench.current")))

    @property
    def ops(self) -> Table:
        name, prev, cur = self._common(), i18n.t("workbench.previous"), i18n.t("workbench.current")
        return diff_ops(self.previous[name], self.current[name], prev, cur)
