"""Read a `torch.export.save` archive with one-line errors."""

from __future__ import annotations

import io
from pathlib import Path

import torch

from . import i18n
from .errors import Pt2eLensError, first_line


def load_exported(path: str | Path, trust: bool = False, how: str = "trust=True") -> torch.export.ExportedProgram:
    """The program in a torch.export.save archive. Unless `trust`, an archive that would run code when loaded
    (a pickle beyond tensors, a shared library, a symbolic shape that is not an expression) is refused in one line naming `how` to trust it (`--trust` in the CLI)."""
    from ._pt2_trust import Untrusted, check_archive

    if not isinstance(trust, bool):
        raise Pt2eLensError(i18n.t("trust.type", got=repr(trust)))
    path = Path(path)
    if path.is_dir():
        raise Pt2eLensError(i18n.t("error.guard_load_folder", path=path))
    if path.exists() and not path.is_file():  # a FIFO would block the read, /dev/zero never end it
        raise Pt2eLensError(i18n.t("error.guard_load_not_regular", path=path))
    if not path.is_file():
        raise Pt2eLensError(i18n.t("error.load_missing", path=path))
    try:
        data = path.read_bytes()  # checked and loaded from the same bytes: the file may change in between
    except OSError as e:
        raise Pt2eLensError(i18n.t("error.load_unreadable", path=path, reason=e.strerror or e), original=e) from None
    try:
        if not trust:
            check_archive(data)
    except Untrusted as e:
        raise Pt2eLensError(i18n.t("trust.refused", path=path, where=e.where, what=e.what, how=how)) from None
    try:
        return torch.export.load(io.BytesIO(data))
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
