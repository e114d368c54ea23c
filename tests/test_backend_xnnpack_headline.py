"""XNNPACK's headline is ExecuTorch's own count of its ops, not our per-node rows: a converted node may become
several ExecuTorch ops (a BERT-like encoder's linear on a 3-d input: view, mm, add, view) or none, and the
lowered program has ops no converted node made. `pl.backend(run)`'s title and the lowered snapshot's
`backend.ops` say what `get_delegation_info` says, on a small BERT-like encoder and a CNN."""

import json
from importlib.resources import files

import jsonschema
import pytest
import torch
from _xnnpack_models import ResBlock
from torch import nn

import pt2e_lens as pl

pytest.importorskip("executorch", reason="the executorch extra: pip install 'pt2e-lens[executorch]'")

from executorch.devtools.backend_debug import get_delegation_info  # noqa: E402
from torchao.testing.pt2e._xnnpack_quantizer import (  # noqa: E402
    XNNPACKQuantizer,
    get_symmetric_quantization_config,
)


class Encoder(nn.Module):
    """One BERT layer, small: self-attention (2 heads), residual + layer norm, GELU feed-forward."""

    def __init__(self, d: int = 16, heads: int = 2) -> None:
        super().__init__()
        self.heads = heads
        self.qkv, self.out = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff1, self.ff2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        att = torch.softmax(q @ k.transpose(-1, -2) / (d // self.heads) ** 0.5, dim=-1)
        y = self.ln1(x + self.out((att @ v).transpose(1, 2).reshape(b, t, d)))
        return self.ln2(y + self.ff2(nn.functional.gelu(self.ff1(y))))


CASES = {"bert_like": (Encoder, (1, 6, 16)), "cnn": (ResBlock, (1, 8, 8, 8))}


@pytest.fixture(scope="module")
def lowered():
    cache = {}

    def get(name):
        if name not in cache:
            model_cls, shape = CASES[name]
            torch.manual_seed(0)
            x = (torch.randn(*shape),)
            quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
            run = pl.capture(model_cls().eval(), x, quantizer, calibration=[x]).lower("xnnpack")
            cache[name] = run
        return cache[name]

    return get


@pytest.mark.parametrize("name", sorted(CASES))
def test_headline_is_executorchs_own_count(lowered, name):
    run = lowered(name)
    record = run["lowered"].backend
    info = get_delegation_info(record.runner.edge.exported_program().graph_module)
    theirs = {
        "delegated": info.num_delegated_nodes,
        "not_delegated": info.num_non_delegated_nodes,
        "partitions": info.num_delegated_subgraphs,
    }
    # ExecuTorch's totals are its per-op table's sums
    assert theirs["delegated"] == sum(b.delegated for b in info.delegation_by_operator.values())
    assert theirs["not_delegated"] == sum(b.non_delegated for b in info.delegation_by_operator.values())
    t = pl.backend(run)
    assert t.ops == theirs == run["lowered"].snapshot.data["backend"]["ops"]
    assert f"{theirs['delegated']} ExecuTorch ops delegated in {theirs['partitions']} partitions" in t.title
    assert f"{theirs['not_delegated']} not delegated" in t.title
    assert t.counts == record.counts()  # the rows still count converted nodes, and the title says so
    assert "converted nodes:" in t.title


def test_the_headline_survives_the_json_contract(lowered):
    run = lowered("bert_like")
    data = json.loads(run["lowered"].snapshot.to_json())
    schema = json.loads(files("pt2e_lens").joinpath("schema/view.schema.json").read_text())
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(data))
    assert not errors, errors[0].message
    loaded = pl.backend(pl.Snapshot.from_json(json.dumps(data)))
    assert loaded.ops == pl.backend(run).ops and loaded.title == pl.backend(run).title
