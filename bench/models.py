"""Model builders for the benchmarks: deterministic weights, eval mode, sized by block/layer count.

Pure torch (no pt2e_lens import) so the Model Explorer worker can build the very same graphs in its
own venv. Node counts are of `torch.export.export(model, inputs).module()` on torch 2.13:
  convnet(n)      n × conv-bn-relu (8 channels)                 200 → ~3k nodes (the capture benchmark)
  resnet(n)       n × conv-bn-relu-conv-bn-add-relu (8 channels)   250 → ~5k, 1000 → ~20k
  transformer(n)  n × nn.TransformerEncoderLayer(d=32, 4 heads)    ~106 → ~5k, ~425 → ~20k
"""

from __future__ import annotations

import torch
from torch import nn

CHANNELS = 8


def _init(model: nn.Module, seed: int = 0) -> nn.Module:
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=gen) * 0.3)
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.copy_(torch.randn(m.num_features, generator=gen) * 0.1)
                m.running_var.copy_(torch.rand(m.num_features, generator=gen) + 0.5)
    return model.eval()


def _conv(cin: int, cout: int) -> nn.Conv2d:
    return nn.Conv2d(cin, cout, 3, padding=1, bias=False)


class ConvNet(nn.Module):
    """A stem conv to CHANNELS, then n-1 conv-bn-relu blocks: n convs in all."""

    def __init__(self, n: int):
        super().__init__()
        blocks = [nn.Sequential(_conv(3, CHANNELS), nn.BatchNorm2d(CHANNELS), nn.ReLU())]
        blocks += [nn.Sequential(_conv(CHANNELS, CHANNELS), nn.BatchNorm2d(CHANNELS), nn.ReLU()) for _ in range(n - 1)]
        self.blocks = nn.Sequential(*blocks)

    def forward(self, x):
        return self.blocks(x)


class Block(nn.Module):
    def __init__(self, c: int):
        super().__init__()
        self.conv1, self.bn1, self.relu1 = _conv(c, c), nn.BatchNorm2d(c), nn.ReLU()
        self.conv2, self.bn2, self.relu2 = _conv(c, c), nn.BatchNorm2d(c), nn.ReLU()

    def forward(self, x):
        y = self.relu1(self.bn1(self.conv1(x)))
        return self.relu2(self.bn2(self.conv2(y)) + x)


class ResNet(nn.Module):
    def __init__(self, n: int):
        super().__init__()
        self.stem = _conv(3, CHANNELS)
        self.blocks = nn.Sequential(*[Block(CHANNELS) for _ in range(n)])

    def forward(self, x):
        return self.blocks(self.stem(x))


class Transformer(nn.Module):
    def __init__(self, n: int, d: int = 32):
        super().__init__()
        self.layers = nn.Sequential(
            *[nn.TransformerEncoderLayer(d, 4, dim_feedforward=2 * d, dropout=0.0, batch_first=True) for _ in range(n)]
        )

    def forward(self, x):
        return self.layers(x)


def build(kind: str, n: int) -> tuple[nn.Module, tuple]:
    """(model in eval mode, example inputs)."""
    gen = torch.Generator().manual_seed(1234)
    if kind == "convnet":
        return _init(ConvNet(n)), (torch.randn(8, 3, 32, 32, generator=gen),)
    if kind == "resnet":
        return _init(ResNet(n)), (torch.randn(2, 3, 16, 16, generator=gen),)
    if kind == "transformer":
        return _init(Transformer(n)), (torch.randn(2, 8, 32, generator=gen),)
    raise ValueError(f"unknown model kind {kind!r}: convnet, resnet or transformer")


def calibration(kind: str, n_batches: int, like: tuple) -> list[tuple]:
    gen = torch.Generator().manual_seed(7)
    return [tuple(torch.randn(t.shape, generator=gen) for t in like) for _ in range(n_batches)]


def export(kind: str, n: int) -> torch.export.ExportedProgram:
    model, inputs = build(kind, n)
    return torch.export.export(model, inputs)
