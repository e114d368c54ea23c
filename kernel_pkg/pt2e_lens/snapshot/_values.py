"""Tensor values (observer statistics, qparams) as the contract's plain lists."""

from __future__ import annotations

from typing import Any

import torch


def flat(t: Any) -> list | None:
    if t is None:
        return None
    if isinstance(t, torch.Tensor):
        return [float(v) if t.is_floating_point() else int(v) for v in t.detach().reshape(-1).tolist()]
    if isinstance(t, (int, float)):
        return [t]
    return None
