"""Models for sensitivity and recipes: one with an outlier weight channel, and a deep stack with many sites.

`OutlierNet`: conv-relu, conv-relu, pool, linear. One output channel of `conv2` has weights `scale`× the
others: quantized per tensor, its scale leaves the other channels of conv2 almost no int8 levels, so that
one site ruins the output SQNR and keeping it fp32 restores it. `DeepNet(blocks)`: `blocks` conv-relu pairs,
two sites each under the XNNPACK-style quantizer (the weight, the fused conv-relu output).
"""

from __future__ import annotations

import torch
from torch import nn

from .._quiet import quiet_import


class OutlierNet(nn.Module):
    def __init__(self, scale: float = 100.0, seed: int = 0):
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16, 10)
        with torch.no_grad():
            for p in self.parameters():
                p.copy_(torch.randn(p.shape, generator=g) * 0.3)
            # the outlier channel: huge, and negative so that relu zeroes its output (its range downstream is normal)
            self.conv2.weight[0] = -self.conv2.weight[0].abs() * scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        return self.fc(x.mean(dim=(2, 3)))


class DeepNet(nn.Module):
    def __init__(self, blocks: int = 25, channels: int = 8, seed: int = 0):
        super().__init__()
        torch.manual_seed(seed)
        self.stem = nn.Conv2d(3, channels, 3, padding=1)
        self.body = nn.Sequential(
            *[m for _ in range(blocks - 1) for m in (nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU())]
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(torch.relu(self.stem(x)))


def image_batches(n: int = 4, batch: int = 4, size: int = 8, seed: int = 0) -> list[tuple[torch.Tensor]]:
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(batch, 3, size, size, generator=g),) for _ in range(n)]


def xnnpack_quantizer(per_channel: bool = False):
    """torchao's testing XNNPACKQuantizer, symmetric int8, per-tensor weights unless `per_channel`."""
    with quiet_import():
        from torchao.testing.pt2e._xnnpack_quantizer import (
            XNNPACKQuantizer,
            get_symmetric_quantization_config,
        )
    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=per_channel))
