"""Annotate a private copy exactly as prepare_pt2e would (batch norms folded first), then stop."""
from __future__ import annotations

import warnings

import torch

from .._copy import private_copy
from .._torchao import Quantizer, prepare_pt2e
from ..capture._recorder import RecordingQuantizer
from ._base import quantizer_copy


class _Annotated(Exception):
    """Raised from the recorder's validate hook: the annotated graph is all we want from prepare_pt2e."""


class Annotation:
    """The graph right after annotate+validate, who annotated what, and what annotate raised (if it did)."""

    def __init__(self, gm: torch.fx.GraphModule, quantizer: Quantizer):
        self.graph_module: torch.fx.GraphModule | None = None
        self.error: BaseException | None = None

        def keep(m):
            self.graph_module = private_copy(m)
            raise _Annotated

        self.recorder = RecordingQuantizer(quantizer_copy(quantizer), on_annotated=keep)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                prepare_pt2e(private_copy(gm), self.recorder)
        except _Annotated:
            pass
        except Exception as e:  # annotate or validate raised: report it, never re-raise
            self.error = e

    @property
    def blame(self) -> dict[str, str]:
        return self.recorder.blame

    @property
    def skipped_by(self) -> dict[str, list[str]]:
        return self.recorder.skipped_by
