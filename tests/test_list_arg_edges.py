"""Edges from list arguments (issue 25): `aten.cat([expand, transpose])` takes its inputs in an fx
`immutable_list`; the snapshot's inputs and users of every node are torch's own `node.all_input_nodes` and
`node.users` at every stage, and the fp32 islands see those edges (oracle: torch's graph, `real_fp32_ops`)."""

import pytest
import torch
from _corpus_models import real_fp32_ops
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

import pt2e_lens as pl


class ClsTokenCat(torch.nn.Module):
    """A ViT's class token: `cat([cls.expand(b, -1, -1), patches.transpose(1, 2)])`, then a head."""

    def __init__(self):
        super().__init__()
        self.cls = torch.nn.Parameter(torch.randn(1, 1, 8))
        self.proj, self.head = torch.nn.Linear(8, 8), torch.nn.Linear(8, 8)

    def forward(self, x):
        patches = self.proj(x).transpose(1, 2).transpose(1, 2)
        tokens = torch.cat([self.cls.expand(x.shape[0], -1, -1), patches], 1)
        return self.head(torch.nn.functional.gelu(tokens))


@pytest.fixture(scope="module")
def run():
    torch.manual_seed(0)
    x = (torch.randn(2, 4, 8),)
    q = XNNPACKQuantizer().set_global(get_symmetric_quantization_config())
    return pl.capture(ClsTokenCat().eval(), x, q, calibration=[x])


def test_every_node_has_torchs_inputs_and_users_at_every_stage(run):
    for stage in run.stages:
        snap, gm = pl.snapshot(run[stage]), run[stage].graph_module
        cats = [n for n in gm.graph.nodes if n.target == torch.ops.aten.cat.default]
        assert cats and all(len(c.all_input_nodes) == 2 for c in cats), stage
        for n in gm.graph.nodes:
            assert snap.inputs[n.name] == [a.name for a in n.all_input_nodes], (stage, n.name)
            assert sorted(snap.users[n.name]) == sorted(u.name for u in n.users), (stage, n.name)


def test_islands_follow_the_list_edges(run):
    for stage in ("prepared", "converted"):
        snap = pl.snapshot(run[stage])
        named = {n for f in snap.findings if f["kind"] == "fp32-island" for n in f["nodes"]}
        reported = {n for n in named if snap.node[n]["role"] == "compute"}
        assert reported == real_fp32_ops(run[stage].graph_module), stage
