"""A model whose submodule name is an HTML injection attempt: every surface must show it as text."""

import torch
from torch import nn

HOSTILE = "<img src=x onerror=alert(1)>"


class Hostile(nn.Module):
    def __init__(self):
        super().__init__()
        self.add_module(HOSTILE, nn.Conv2d(3, 4, 3, padding=1, bias=False))
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.relu(getattr(self, HOSTILE)(x))


def hostile_ep():
    return torch.export.export(Hostile().eval(), (torch.randn(2, 3, 8, 8),))
