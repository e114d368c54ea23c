"""Analyses that explain a quantization result: sharing groups, quantizer order, checks, findings, accuracy."""
from .sharing import sharing

__all__ = ["sharing"]
