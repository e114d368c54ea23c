"""Analyses that explain a quantization result: sharing groups, quantizer order, checks, findings, accuracy."""
from .blame import blame
from .orders import OrderComparison, compare_orders
from .sharing import sharing

__all__ = ["OrderComparison", "blame", "compare_orders", "sharing"]
