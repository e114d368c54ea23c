"""Analyses that explain a quantization result: sharing groups, quantizer order, checks, findings, accuracy."""

from ..analyses.quantization import findings  # the rules run below capture: every Stage carries them
from .accuracy import Accuracy, accuracy
from .blame import blame
from .check import check
from .orders import OrderComparison, compare_orders
from .sharing import sharing
from .why_not import why_not

__all__ = [
    "Accuracy",
    "OrderComparison",
    "accuracy",
    "blame",
    "check",
    "compare_orders",
    "findings",
    "sharing",
    "why_not",
]
