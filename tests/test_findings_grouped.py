"""Findings grouped by rule (issue 15.1): `pl.findings(x)` prints one line per rule with its count and first
nodes, the no-JS HTML shows one closed <details> per rule, and every finding carries its rule's `title`."""

import re

import pytest
import torch
from torch import nn
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

import pt2e_lens as pl
from pt2e_lens.display import mimebundle, pane_findings_html

BLOCKS = 6


class Stack(nn.Module):
    """BLOCKS × (Linear → GELU → Linear): XNNPACK leaves every GELU an fp32 island."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Sequential(nn.Linear(8, 8), nn.GELU(), nn.Linear(8, 8)) for _ in range(BLOCKS))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


@pytest.fixture(scope="module")
def run():
    torch.manual_seed(0)
    q = XNNPACKQuantizer().set_global(get_symmetric_quantization_config())
    x = (torch.randn(2, 8),)
    return pl.Run(Stack().eval(), x).prepare(q)


def test_the_text_is_one_line_per_rule_and_rows_keep_every_finding(run):
    gm = run["prepared"].graph_module
    gelus = [n.name for n in gm.graph.nodes if n.target == torch.ops.aten.gelu.default]
    assert len(gelus) == BLOCKS and all(g.args[0].op == "call_module" for g in gm.graph.nodes if g.name in gelus)
    table = pl.findings(run["prepared"])
    assert [r[0] for r in table.rows] == ["fp32-island"] * BLOCKS
    assert {r[3] for r in table.rows} == {"fp32 island"}
    text = table.to_text().splitlines()
    warned = [line for line in text if line.startswith("⚠")]
    assert warned == [f"⚠ {BLOCKS} × fp32 island — {', '.join(gelus[:4])} … (+{BLOCKS - 4} more)"]
    assert len(text) == 3  # title, the rule's line, where the full messages are


def test_every_finding_carries_its_rules_title(run):
    for f in run["prepared"].snapshot.findings:
        assert f["title"] == "fp32 island"


def test_the_no_js_html_is_one_details_per_rule(run):
    html = mimebundle(pl.findings(run["prepared"]))["text/html"]
    fallback = html[: html.index("<script")]
    assert fallback.count("<details") == 1
    summary = re.search(r"<summary>(.*?)</summary>", fallback).group(1)
    assert summary.startswith(f"⚠ {BLOCKS} × fp32 island — gelu")
    assert fallback.count("<tr>") == BLOCKS  # opened, every finding of the rule
    pane = pane_findings_html({"label": "prepared", "snapshot": run["prepared"].snapshot.data})
    assert pane.count("<details") == 1 and pane.count("<tr>") == BLOCKS  # a graph pane's, grouped the same way


def test_grouped_in_zh_tw(run):
    try:
        pl.set_locale("zh-TW")
        snap = pl.Run(Stack().eval(), (torch.randn(2, 8),)).prepare(
            XNNPACKQuantizer().set_global(get_symmetric_quantization_config())
        )["prepared"]
        line = next(x for x in pl.findings(snap).to_text().splitlines() if x.startswith("⚠"))
        assert line.startswith(f"⚠ {BLOCKS} 項fp32 孤島 — gelu")
    finally:
        pl.set_locale("en")
