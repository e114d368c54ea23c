"""Analyses that explain a quantization result: sharing groups, quantizer order, checks, findings, accuracy."""

from .accuracy import Accuracy, accuracy
from .blame import blame
from .check import check
from .findings import findings
from .orders import OrderComparison, compare_orders
from .sharing import sharing

__all__ = ["Accuracy", "OrderComparison", "accuracy", "blame", "check", "compare_orders", "findings", "sharing"]
