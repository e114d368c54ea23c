"""The torchao names pt2e-lens uses, imported once (quietly: torchao logs CUDA load noise on CPU)."""

from __future__ import annotations

from ._quiet import quiet_import

with quiet_import():
    import torchao  # noqa: F401
    from torchao.quantization.pt2e import (
        AffineQuantizedObserverBase,
        FakeQuantizeBase,
        ObserverBase,
        compare_results,
        extract_results_from_loggers,
        move_exported_model_to_eval,
        move_exported_model_to_train,
        prepare_for_propagation_comparison,
    )
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e, prepare_qat_pt2e
    from torchao.quantization.pt2e.quantizer import (
        ComposableQuantizer,
        DerivedQuantizationSpec,
        FixedQParamsQuantizationSpec,
        QuantizationAnnotation,
        QuantizationSpec,
        QuantizationSpecBase,
        Quantizer,
        SharedQuantizationSpec,
        annotate_input_qspec_map,
        annotate_output_qspec,
        get_module_name_filter,
    )
    from torchao.quantization.pt2e.quantizer.quantizer import Q_ANNOTATION_KEY


def is_observer_module(module) -> bool:
    """What prepare_pt2e inserts: an observer, a fake-quantize or an affine observer."""
    return isinstance(module, (ObserverBase, FakeQuantizeBase, AffineQuantizedObserverBase))


def is_fake_quant_module(module) -> bool:
    """What prepare inserts for a QAT spec (`is_qat=True` configs): it fake-quantizes in forward."""
    return isinstance(module, FakeQuantizeBase)


__all__ = [
    "ComposableQuantizer",
    "DerivedQuantizationSpec",
    "FixedQParamsQuantizationSpec",
    "Q_ANNOTATION_KEY",
    "QuantizationAnnotation",
    "QuantizationSpecBase",
    "QuantizationSpec",
    "Quantizer",
    "SharedQuantizationSpec",
    "annotate_input_qspec_map",
    "annotate_output_qspec",
    "compare_results",
    "convert_pt2e",
    "extract_results_from_loggers",
    "get_module_name_filter",
    "is_fake_quant_module",
    "is_observer_module",
    "move_exported_model_to_eval",
    "move_exported_model_to_train",
    "prepare_for_propagation_comparison",
    "prepare_pt2e",
    "prepare_qat_pt2e",
]
