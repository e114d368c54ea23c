"""The conformance suite's five model families: small, random weights, CPU, a few ms per forward.

Each entry of MODELS is `name -> (make_model, make_inputs)`; `make_inputs(seed)` returns one input tuple of the
batch size the model is exported with (exported shapes are static: calibration batches have the same shape).
"""

from __future__ import annotations

import torch
from torch import nn


class ResidualCNN(nn.Module):
    """conv-bn-relu stem, a residual block (conv-bn-relu, conv-bn, add, relu), pooling, linear head."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.conv1 = nn.Conv2d(8, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(8)
        self.relu2 = nn.ReLU()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        x = self.stem(x)
        y = self.bn2(self.conv2(self.relu1(self.bn1(self.conv1(x)))))
        x = self.relu2(x + y)
        return self.fc(torch.flatten(self.pool(x), 1))


class EncoderMHA(nn.Module):
    """A post-norm transformer encoder block around nn.MultiheadAttention."""

    def __init__(self, dim: int = 16, heads: int = 2) -> None:
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm1 = nn.LayerNorm(dim)
        self.ff1 = nn.Linear(dim, 2 * dim)
        self.act = nn.ReLU()
        self.ff2 = nn.Linear(2 * dim, dim)
        self.norm2 = nn.LayerNorm(dim)

    def forward(self, x):
        a, _ = self.attn(x, x, x, need_weights=False)
        x = self.norm1(x + a)
        return self.norm2(x + self.ff2(self.act(self.ff1(x))))


class MLPNormGelu(nn.Module):
    """linear → LayerNorm → GELU → linear → GELU → linear."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.norm = nn.LayerNorm(32)
        self.act1 = nn.GELU()
        self.fc2 = nn.Linear(32, 32)
        self.act2 = nn.GELU()
        self.fc3 = nn.Linear(32, 8)

    def forward(self, x):
        return self.fc3(self.act2(self.fc2(self.act1(self.norm(self.fc1(x))))))


class CatMean(nn.Module):
    """Two conv branches concatenated on channels, a spatial mean, a linear head."""

    def __init__(self) -> None:
        super().__init__()
        self.left = nn.Conv2d(3, 4, 3, padding=1)
        self.right = nn.Conv2d(3, 4, 1)
        self.relu = nn.ReLU()
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        x = torch.cat([self.relu(self.left(x)), self.right(x)], dim=1)
        return self.fc(x.mean(dim=(2, 3)))


class EmbeddingBag(nn.Module):
    """An embedding table, a mean over the sequence, a linear head."""

    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(32, 16)
        self.fc = nn.Linear(16, 4)

    def forward(self, idx):
        return self.fc(self.emb(idx).mean(dim=1))


def _images(seed: int) -> tuple:
    return (torch.randn(2, 3, 8, 8, generator=torch.Generator().manual_seed(seed)),)


def _tokens(seed: int) -> tuple:
    return (torch.randn(2, 6, 16, generator=torch.Generator().manual_seed(seed)),)


def _features(seed: int) -> tuple:
    return (torch.randn(2, 16, generator=torch.Generator().manual_seed(seed)),)


def _indices(seed: int) -> tuple:
    return (torch.randint(0, 32, (2, 6), generator=torch.Generator().manual_seed(seed)),)


MODELS = {
    "cnn_bn_residual": (ResidualCNN, _images),
    "encoder_mha": (EncoderMHA, _tokens),
    "mlp_layernorm_gelu": (MLPNormGelu, _features),
    "cat_mean": (CatMean, _images),
    "embedding": (EmbeddingBag, _indices),
}
