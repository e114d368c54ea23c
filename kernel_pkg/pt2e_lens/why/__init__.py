"""Analyses that explain a quantization result: sharing groups, quantizer order, checks, findings, accuracy."""

from ..analyses.quantization import findings  # the rules run below capture: every Stage carries them
from ..prepare.keep_fp32 import KeepFp32
from .accuracy import Accuracy, accuracy
from .blame import blame
from .check import check
from .orders import OrderComparison, compare_orders
from .ranges import observer_ranges
from .recipe import Recipe, recipe
from .sensitivity import Sensitivity, sensitivity
from .sharing import sharing
from .why_not import why_not

__all__ = ["Accuracy", "OrderComparison", "accuracy", "blame", "check", "compare_orders", "findings", "sharing"]
__all__ += ["why_not"]
__all__ += ["KeepFp32", "Recipe", "Sensitivity", "observer_ranges", "recipe", "sensitivity"]
