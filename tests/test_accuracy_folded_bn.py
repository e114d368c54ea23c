"""pl.accuracy on a linear bottleneck (conv → bn → conv, no activation, as in mobilenet_v2): the q/dq on the
edge after the folded batch norm is compared with the batch norm's float output, also under strict export."""

import warnings

import pytest
import torch
from torch import nn

import pt2e_lens as pl


class LinearBottleneck(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.expand = nn.Conv2d(8, 32, 1)
        self.bn0 = nn.BatchNorm2d(32)
        self.project = nn.Conv2d(32, 8, 1)
        self.bn1 = nn.BatchNorm2d(8)
        self.head = nn.Conv2d(8, 4, 3)

    def forward(self, x):
        y = torch.relu(self.bn0(self.expand(x)))
        return self.head(self.bn1(self.project(y)))  # project's batch norm feeds the next conv directly


def _model() -> nn.Module:
    torch.manual_seed(0)
    m = LinearBottleneck()
    with torch.no_grad():  # batch norms far from identity, so comparing before/after them shows
        for bn in (m.bn0, m.bn1):
            bn.running_mean.uniform_(-2, 2)
            bn.running_var.uniform_(0.1, 4)
            bn.weight.uniform_(0.5, 3)
            bn.bias.uniform_(-1, 1)
    return m.eval()


def _x86():
    from torchao.quantization.pt2e.quantizer import x86_inductor_quantizer as xiq

    return xiq.X86InductorQuantizer().set_global(xiq.get_default_x86_inductor_quantization_config())


@pytest.mark.parametrize("strict", [False, True])
def test_edge_qdq_after_a_folded_bn_is_compared_with_the_bn_output(strict):
    g = torch.Generator().manual_seed(0)
    batches = [(torch.randn(4, 8, 8, 8, generator=g),) for _ in range(4)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.capture(_model(), batches[0], _x86(), calibration=batches, strict=strict)
        acc = pl.accuracy(run, batches)
    rows = {r[0]: r for r in acc.rows}
    edge = [r for name, r in rows.items() if name.startswith("conv2d_1 (q/dq")]
    assert len(edge) == 1, rows.keys()
    assert "batch_norm_1" in edge[0][4] or "bn" in edge[0][4]
    # the truth, computed here with plain torch: that q/dq's own error against the float bn1 output
    model = _model()
    with torch.no_grad():
        ref = [model.bn1(model.project(torch.relu(model.bn0(model.expand(b[0]))))) for b in batches]
    noise = sum(float(r.pow(2).mean()) for r in ref) / len(ref)
    assert edge[0][3] is not None and edge[0][3] < noise / 1000  # MSE three orders below the signal
    assert edge[0][2] > 30  # dB; compared with the conv output before the bn it was ~1 dB
    # nothing with a float counterpart scores like a wrong pairing
    scored = [r for r in rows.values() if r[2] is not None]
    assert scored and min(r[2] for r in scored) > 25
