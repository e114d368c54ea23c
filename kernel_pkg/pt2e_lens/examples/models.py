"""The course's models: `tiny` (TinyConvNet), `residual` and `conv_relu`.

Their shapes are what the chapters' numbers depend on: `tiny` has four conv-bn-relu groups in `stem`,
`block` (a residual pair) and `head_conv`, bias-free convs (47 nodes under `ep.module()`).
"""

from __future__ import annotations

import torch
from torch import nn

IN_CHANNELS = 3


def _conv(cin: int, cout: int) -> nn.Conv2d:
    return nn.Conv2d(cin, cout, 3, padding=1, bias=False)  # a batch norm follows: no bias


class ConvBnReLU(nn.Sequential):
    def __init__(self, cin: int, cout: int):
        super().__init__(_conv(cin, cout), nn.BatchNorm2d(cout), nn.ReLU())


class ResidualBlock(nn.Module):
    """conv-bn-relu, conv-bn, + input, relu."""

    def __init__(self, channels: int):
        super().__init__()
        self.conv1 = _conv(channels, channels)
        self.bn1 = nn.BatchNorm2d(channels)
        self.relu1 = nn.ReLU()
        self.conv2 = _conv(channels, channels)
        self.bn2 = nn.BatchNorm2d(channels)
        self.relu2 = nn.ReLU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.relu1(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return self.relu2(y + x)


class TinyConvNet(nn.Module):
    def __init__(self, num_classes: int = 10):
        super().__init__()
        self.stem = nn.Sequential(ConvBnReLU(IN_CHANNELS, 8), nn.MaxPool2d(2))
        self.block = nn.Sequential(ResidualBlock(8), nn.MaxPool2d(2))
        self.head_conv = ConvBnReLU(8, 16)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.head_conv(self.block(self.stem(x)))
        return self.fc(self.pool(x).flatten(1))


class Residual(nn.Module):
    """x → conv-bn-relu → conv-bn → + x → relu: the add's two inputs are conv2d_1 and x."""

    def __init__(self, channels: int = 8):
        super().__init__()
        self.conv1 = _conv(IN_CHANNELS, channels)
        self.bn1 = nn.BatchNorm2d(channels)
        self.relu1 = nn.ReLU()
        self.conv2 = _conv(channels, IN_CHANNELS)
        self.bn2 = nn.BatchNorm2d(IN_CHANNELS)
        self.relu2 = nn.ReLU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.relu1(self.bn1(self.conv1(x)))
        return self.relu2(self.bn2(self.conv2(y)) + x)


class ConvReLU(nn.Module):
    def __init__(self, channels: int = 8):
        super().__init__()
        self.conv = _conv(IN_CHANNELS, channels)
        self.bn = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.relu(self.bn(self.conv(x)))


MODELS = {"tiny": TinyConvNet, "residual": Residual, "conv_relu": ConvReLU}


def get_model(name: str, seed: int = 0) -> nn.Module:
    """A fresh model with deterministic weights and batch-norm statistics (in train mode; call .eval())."""
    if name not in MODELS:
        from .. import i18n
        from ..errors import Pt2eLensError

        raise Pt2eLensError(i18n.t("error.unknown_example_model", name=repr(name), choices=", ".join(MODELS)))
    return deterministic_init(MODELS[name](), seed)


def deterministic_init(model: nn.Module, seed: int = 0) -> nn.Module:
    """Weights and batch-norm statistics from a seeded generator: the same model for the same seed."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=gen) * 0.3)
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d) and m.running_mean is not None and m.running_var is not None:
                m.running_mean.copy_(torch.randn(m.num_features, generator=gen) * 0.1)
                m.running_var.copy_(torch.rand(m.num_features, generator=gen) + 0.5)
    return model
