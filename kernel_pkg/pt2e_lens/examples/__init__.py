"""The course's helpers: example models, inputs, calibration data, specs and rule quantizers.

Imported by tests, docs and the CLI's `--example`; nothing else in pt2e_lens depends on it.
"""

from .course import draw, draw_stages, export_module, observer_nodes, qdq_nodes, short, table
from .data import calibration_batches, example_inputs
from .models import MODELS, get_model
from .qspecs import act_spec, weight_spec
from .quantizers import (
    AddQuantizer,
    ConvQuantizer,
    ConvReluQuantizer,
    RuleQuantizer,
    quantizer_by_name,
)

__all__ = [
    "MODELS",
    "AddQuantizer",
    "ConvQuantizer",
    "ConvReluQuantizer",
    "RuleQuantizer",
    "act_spec",
    "calibration_batches",
    "draw",
    "draw_stages",
    "export_module",
    "observer_nodes",
    "qdq_nodes",
    "short",
    "table",
    "example_inputs",
    "get_model",
    "quantizer_by_name",
    "weight_spec",
]
