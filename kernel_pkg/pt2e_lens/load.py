"""Read a `torch.export.save` archive with one-line errors."""

from __future__ import annotations

from pathlib import Path

import torch

from . import i18n
from .errors import Pt2eLensError, first_line


def load_exported(path: str | Path) -> torch.export.ExportedProgram:
    path = Path(path)
    if path.is_dir():
        raise Pt2eLensError(i18n.t("error.guard_load_folder", path=path))
    if path.exists() and not path.is_file():  # a FIFO would block the read, /dev/zero never end it
        raise Pt2eLensError(i18n.t("error.guard_load_not_regular", path=path))
    if not path.is_file():
        raise Pt2eLensError(i18n.t("error.load_missing", path=path))
    try:
        return torch.export.load(str(path))
    except Exception as e:
        raise Pt2eLensError(i18n.t("error.load_unreadable", path=path, reason=first_line(e, 120)), original=e) from None


def sample_inputs(ep: torch.export.ExportedProgram, batches: int = 4, seed: int = 0) -> list[tuple]:
    """Random inputs shaped like the program's own example inputs (for calibrating a loaded .pt2)."""
    example = getattr(ep, "example_inputs", None)
    args = example[0] if example else None
    if not args:
        return []
    gen = torch.Generator().manual_seed(seed)

    def like(t):
        if isinstance(t, torch.Tensor) and t.is_floating_point():
            return torch.randn(t.shape, generator=gen, dtype=t.dtype)
        return t

    return [tuple(like(a) for a in args) for _ in range(batches)]
