"""pl.decomposition's "became" table follows `from_node`, not names: run_decompositions renames, so a flatten
that becomes `view` while the graph's own `.view` becomes `view_1` must not read as "(gone)"."""

import warnings

import pytest
import torch
from torch import nn

import pt2e_lens as pl


class Head(nn.Module):
    """conv → batch_norm → relu → adaptive_avg_pool → flatten → reshape → view → linear."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.bn = nn.BatchNorm2d(8)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        y = self.pool(torch.relu(self.bn(self.conv(x))))
        z = torch.flatten(y, 1).reshape(-1, 2, 4)
        return self.fc(z.view(z.shape[0], -1))


def _what_from_node_says(new_ep: torch.export.ExportedProgram) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for node in new_ep.graph.nodes:
        if node.op == "call_function" and node.meta.get("from_node"):
            out.setdefault(node.meta["from_node"][-1].name, []).append(node.name)
    return out


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("table", [{}, "core"])
def test_each_original_node_lists_what_from_node_says_it_became(strict, table):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ep = torch.export.export(Head().eval(), (torch.randn(2, 3, 8, 8),), strict=strict)
        d = pl.decomposition(ep, table)
    says = _what_from_node_says(d.exported_program)
    rows = {r[0]: r for r in d.became.rows}
    assert set(rows) == {n.name for n in ep.graph.nodes if n.op == "call_function"}
    for name, (_, _, became, ops) in rows.items():
        assert became.split(", ") == says[name], name
        assert ops != "(gone)"
    for shape_op in ("flatten", "reshape", "view"):  # each became a view of its own
        assert rows[shape_op][3] == "view"
    assert len({rows[s][2] for s in ("flatten", "reshape", "view")}) == 3
    assert rows["batch_norm"][3].startswith("_native_batch_norm_legit_no_training")
