"""The user's quantizer as pt2e-lens runs it on its own: checked, and copied so annotate keeps no state on it."""

from __future__ import annotations

import copy
import warnings
from typing import Any

from .. import i18n
from .._torchao import Quantizer
from ..errors import Pt2eLensError


def check_quantizer(q: Any, what: str) -> Quantizer:
    if not isinstance(q, Quantizer):
        raise Pt2eLensError(i18n.t("error.needs_quantizers", what=what, cls=type(q).__name__))
    return q


def quantizer_copy(q: Quantizer) -> Quantizer:
    """A copy to run, so annotate() can keep no state on the user's quantizer; the quantizer itself if it won't copy."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return copy.deepcopy(q)
    except Exception:
        return q
