"""The course's helpers: example models, inputs, calibration data, specs and rule quantizers.

One place for everything the chapters import from their `common.*` modules, torchao's names included:
`from pt2e_lens.examples import ANNOTATION_KEY, ComposableQuantizer, prepare_pt2e, find, done, ...`.
Imported by tests, docs, notebooks and the CLI's `--example`; nothing else in pt2e_lens depends on it.
"""

from .._quiet import quiet
from .._torchao import (
    Q_ANNOTATION_KEY as ANNOTATION_KEY,
)
from .._torchao import (
    ComposableQuantizer,
    QuantizationAnnotation,
    Quantizer,
    annotate_input_qspec_map,
    annotate_output_qspec,
    convert_pt2e,
    get_module_name_filter,
    prepare_pt2e,
)
from ..analyses.focus import module
from .course import diff_ops, draw, draw_stages, export_module, observer_nodes, qdq_nodes, short, table
from .data import calibration_batches, example_inputs
from .models import MODELS, get_model
from .outlier import DeepNet, OutlierNet, image_batches, xnnpack_quantizer
from .qspecs import act_spec, weight_spec
from .quantizers import (
    ADD,
    CONV2D,
    RELU,
    AddQuantizer,
    ConvQuantizer,
    ConvReluQuantizer,
    RuleQuantizer,
    done,
    find,
    label_conv,
    quantizer_by_name,
)

__all__ = [
    "ADD",
    "ANNOTATION_KEY",
    "CONV2D",
    "MODELS",
    "RELU",
    "AddQuantizer",
    "ComposableQuantizer",
    "ConvQuantizer",
    "ConvReluQuantizer",
    "DeepNet",
    "OutlierNet",
    "QuantizationAnnotation",
    "Quantizer",
    "RuleQuantizer",
    "act_spec",
    "annotate_input_qspec_map",
    "annotate_output_qspec",
    "calibration_batches",
    "convert_pt2e",
    "diff_ops",
    "done",
    "draw",
    "draw_stages",
    "example_inputs",
    "export_module",
    "find",
    "get_model",
    "get_module_name_filter",
    "image_batches",
    "label_conv",
    "module",
    "observer_nodes",
    "prepare_pt2e",
    "qdq_nodes",
    "quantizer_by_name",
    "quiet",
    "short",
    "table",
    "weight_spec",
    "xnnpack_quantizer",
]
