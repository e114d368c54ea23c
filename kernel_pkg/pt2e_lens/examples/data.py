"""Deterministic example inputs and calibration batches for the course's models."""

from __future__ import annotations

import torch

from .models import IN_CHANNELS

IMAGE_SIZE = 32


def example_inputs(batch: int = 8) -> tuple[torch.Tensor]:
    """One image batch, as a tuple (what torch.export and prepare expect)."""
    gen = torch.Generator().manual_seed(1234)
    return (torch.randn(batch, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE, generator=gen),)


def calibration_batches(n: int = 8, batch_size: int = 8, seed: int = 0) -> list[tuple[torch.Tensor]]:
    """n input tuples, the same for the same arguments."""
    gen = torch.Generator().manual_seed(seed)
    return [(torch.randn(batch_size, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE, generator=gen),) for _ in range(n)]
