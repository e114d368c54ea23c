"""Small models for the XNNPACK lowering tests: one of each shape XNNPACK meets on a phone."""

import torch
from torch import nn


class ResBlock(nn.Module):
    """conv-bn-relu, conv-bn, skip add, relu, pool, linear."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1, self.bn1 = nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8)
        self.conv2, self.bn2 = nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8)
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = torch.relu(self.bn2(self.conv2(y)) + x)
        return self.fc(torch.flatten(nn.functional.adaptive_avg_pool2d(y, 1), 1))


class MobileBlock(nn.Module):
    """Pointwise expand, depthwise 3x3 (groups = channels), hardswish, pointwise project."""

    def __init__(self) -> None:
        super().__init__()
        self.expand = nn.Conv2d(4, 16, 1)
        self.depthwise = nn.Conv2d(16, 16, 3, padding=1, groups=16)
        self.bn = nn.BatchNorm2d(16)
        self.project = nn.Conv2d(16, 8, 1)

    def forward(self, x):
        y = nn.functional.hardswish(self.expand(x))
        y = nn.functional.hardswish(self.bn(self.depthwise(y)))
        return self.project(y)


class Mlp(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(16, 32), nn.Linear(32, 8)

    def forward(self, x):
        return self.fc2(nn.functional.gelu(self.fc1(x)))


class NotDelegated(nn.Module):
    """cumsum (no XNNPACK config) and mean over (2, 3) without keepdim (XNNPACK's mean rejects it)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv, self.fc = nn.Conv2d(3, 8, 3), nn.Linear(8, 4)

    def forward(self, x):
        y = torch.cumsum(torch.relu(self.conv(x)), 1)
        return torch.sigmoid(self.fc(y.mean((2, 3))))


CASES = {
    # name: (model, input shape, dynamic quantization)
    "resnet_static": (ResBlock, (1, 8, 8, 8), False),
    "mobilenet_static": (MobileBlock, (1, 4, 8, 8), False),
    "mlp_static": (Mlp, (2, 16), False),
    "mlp_dynamic": (Mlp, (2, 16), True),
    "not_delegated_static": (NotDelegated, (1, 3, 8, 8), False),
}
