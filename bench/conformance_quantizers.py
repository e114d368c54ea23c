"""Every PT2E quantizer that installs without a vendor SDK, built as its vendor documents it.

Each `QuantizerCase.make()` returns a freshly built quantizer, or raises `Missing` with one line when its
package is not installed. `flow` says how the vendor's own flow gets the graph it hands to `prepare_pt2e`:
  "export"          torch.export.export(model, inputs).module()       (torchao's tests, XNNPACK, X86, Vulkan)
  "export_strict"   torch.export.export(model, inputs, strict=True).module()     (Cortex-M's tests)
  "strict_no_guards" torch.export.export(model, inputs, strict=True).module(check_guards=False): Samsung's tester
                    (backends/samsung/test/tester/samsung_tester.py) calls `.module()` from ExecuTorch's own code,
                    where torch leaves `_guards_fn` out (`_ok_to_generate_guards_fn` in torch/export/_unlift.py)
  "no_guards"       torch.export.export(model, inputs).module(check_guards=False)  (Arm's public-API tests,
                    OpenVINO's example: `.module()` from ExecuTorch's code leaves `_guards_fn` out alike)
  "qat"             torchao's QAT flow: export(model.train()).module(), prepare_qat_pt2e, train, to eval
  "cadence"         Cadence's `trace`: strict export, run_decompositions(default table minus the ops its
                    quantizer keeps), then .module()      (executorch/backends/cadence/aot/compiler_funcs.py)
`light=True` cases run in tests/test_conformance.py; the others only in bench/conformance.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from torch import nn


class Missing(Exception):
    """The quantizer's package (or a vendor SDK it needs) is not importable here."""


@dataclasses.dataclass(frozen=True)
class QuantizerCase:
    name: str
    make: Callable[[], Any]
    flow: str = "export"
    light: bool = False
    note: str = ""  # why a torchao case is not in the light test, or what the flow follows


def _need(module: str, pip: str):
    import importlib

    try:
        return importlib.import_module(module)
    except Exception as e:  # an SDK-less import may raise anything, not only ImportError
        raise Missing(f"{module} does not import ({type(e).__name__}: {str(e).splitlines()[0][:80]}); {pip}") from None


# -- torchao


def _torchao_xnnpack(**config):
    x = _need("torchao.testing.pt2e._xnnpack_quantizer", "pip install torchao==0.18.0")
    return x.XNNPACKQuantizer().set_global(x.get_symmetric_quantization_config(**config))


def _torchao_xnnpack_module_type():
    x = _need("torchao.testing.pt2e._xnnpack_quantizer", "pip install torchao==0.18.0")
    return x.XNNPACKQuantizer().set_module_type(nn.Linear, x.get_symmetric_quantization_config(is_per_channel=True))


def _x86(**config):
    xiq = _need("torchao.quantization.pt2e.quantizer.x86_inductor_quantizer", "pip install torchao==0.18.0")
    return xiq.X86InductorQuantizer().set_global(xiq.get_default_x86_inductor_quantization_config(**config))


def _x86_module_type():
    xiq = _need("torchao.quantization.pt2e.quantizer.x86_inductor_quantizer", "pip install torchao==0.18.0")
    return xiq.X86InductorQuantizer().set_module_type_qconfig(
        nn.Linear, xiq.get_default_x86_inductor_quantization_config()
    )


# the first submodule of each model family whose name the X86 quantizer is told to leave fp32
SKIP_NAMES = ("stem", "attn", "fc1", "left", "fc")


def _x86_name_none():
    q = _x86()
    for name in SKIP_NAMES:
        q.set_module_name_qconfig(name, None)
    return q


def _arm_inductor():
    aiq = _need("torchao.quantization.pt2e.quantizer.arm_inductor_quantizer", "pip install torchao==0.18.0")
    return aiq.ArmInductorQuantizer().set_global(aiq.get_default_arm_inductor_quantization_config())


def _embedding():
    e = _need("torchao.quantization.pt2e.quantizer.embedding_quantizer", "pip install torchao==0.18.0")
    return e.EmbeddingQuantizer()


def _composed():
    """torchao's test_embedding_conv_linear_quantization pattern: embedding first, then XNNPACK."""
    c = _need("torchao.quantization.pt2e.quantizer", "pip install torchao==0.18.0")
    return c.ComposableQuantizer([_embedding(), _torchao_xnnpack(is_per_channel=True)])


# -- ExecuTorch 1.5.1


def _et_xnnpack():
    x = _need("executorch.backends.xnnpack.quantizer.xnnpack_quantizer", "pip install executorch==1.5.1")
    return x.XNNPACKQuantizer().set_global(x.get_symmetric_quantization_config(is_per_channel=True))


def _tosa():
    arm = _need("executorch.backends.arm.quantizer", "pip install executorch==1.5.1 tosa-tools")
    tosa = _need("executorch.backends.arm.tosa", "pip install executorch==1.5.1 tosa-tools")
    q = arm.TOSAQuantizer(tosa.TosaSpecification.create_from_string("TOSA-1.0+INT"))
    q.set_global(arm.get_symmetric_quantization_config())
    return q


def _ethos_u():
    arm = _need("executorch.backends.arm", "pip install executorch==1.5.1 tosa-tools")
    q = arm.EthosUQuantizer(arm.EthosUCompileSpec("ethos-u55-128"))
    q.set_global(arm.get_symmetric_quantization_config())
    return q


def _cortex_m():
    cm = _need("executorch.backends.cortex_m.quantizer.quantizer", "pip install executorch==1.5.1")
    return cm.CortexMQuantizer()


def _vulkan():
    v = _need("executorch.backends.vulkan.quantizer.vulkan_quantizer", "pip install executorch==1.5.1")
    return v.VulkanQuantizer().set_global(v.get_symmetric_quantization_config(is_dynamic=False))


def _cadence():
    c = _need("executorch.backends.cadence.aot.quantizer.quantizer", "pip install executorch==1.5.1")
    return c.CadenceDefaultQuantizer()


def _samsung():
    s = _need("executorch.backends.samsung.quantizer", "pip install executorch==1.5.1")
    q = s.EnnQuantizer()
    q.setup_quant_params(s.Precision.A8W8)
    return q


def _openvino(mode: str):
    _need("nncf", "pip install nncf openvino")
    ov = _need("executorch.backends.openvino.quantizer", "pip install executorch==1.5.1 openvino nncf")
    return ov.OpenVINOQuantizer(mode=getattr(ov.QuantizationMode, mode))


def _sdk(module: str, why: str):
    def make():
        raise Missing(why)

    return make


CASES: list[QuantizerCase] = [
    QuantizerCase("torchao XNNPACK static per-channel", lambda: _torchao_xnnpack(is_per_channel=True), light=True),
    QuantizerCase("torchao XNNPACK static per-tensor", lambda: _torchao_xnnpack(is_per_channel=False), light=True),
    QuantizerCase(
        "torchao XNNPACK dynamic", lambda: _torchao_xnnpack(is_per_channel=True, is_dynamic=True), light=True
    ),
    QuantizerCase("torchao XNNPACK set_module_type(Linear)", _torchao_xnnpack_module_type, light=True),
    QuantizerCase("torchao X86Inductor default", _x86, light=True),
    QuantizerCase("torchao X86Inductor set_module_type_qconfig(Linear)", _x86_module_type, light=True),
    QuantizerCase("torchao X86Inductor set_module_name_qconfig(name, None)", _x86_name_none, light=True),
    QuantizerCase(
        "torchao X86Inductor is_qat=True config (plain prepare_pt2e)",
        lambda: _x86(is_qat=True),
        note="torchao's own tests prepare QAT configs with plain prepare_pt2e",
    ),
    QuantizerCase("torchao X86Inductor is_qat=True (prepare_qat_pt2e)", lambda: _x86(is_qat=True), flow="qat"),
    QuantizerCase("torchao ArmInductor default", _arm_inductor, light=True),
    QuantizerCase("torchao Embedding", _embedding, light=True),
    QuantizerCase("torchao Composable[Embedding, XNNPACK]", _composed, light=True),
    QuantizerCase("ExecuTorch XNNPACK", _et_xnnpack),
    QuantizerCase("ExecuTorch Arm TOSA-1.0+INT", _tosa, flow="no_guards"),
    QuantizerCase("ExecuTorch Arm Ethos-U55", _ethos_u, flow="no_guards"),
    QuantizerCase("ExecuTorch Cortex-M", _cortex_m, flow="export_strict"),
    # the same with the graph Arm's flow hands over: torch.export's `_guards_fn` call_module node left out
    QuantizerCase("ExecuTorch Cortex-M (.module(check_guards=False))", _cortex_m, flow="no_guards"),
    QuantizerCase("ExecuTorch Vulkan", _vulkan),
    QuantizerCase("ExecuTorch Cadence default", _cadence, flow="cadence"),
    QuantizerCase("ExecuTorch Samsung Enn A8W8", _samsung, flow="strict_no_guards"),
    # OpenVINO's example (examples/models/yolo26/export_and_validate.py) calls `.module()` from ExecuTorch's code:
    # torch leaves `_guards_fn` out there, as check_guards=False does
    QuantizerCase("ExecuTorch OpenVINO INT8_SYM", lambda: _openvino("INT8_SYM"), flow="no_guards"),
    QuantizerCase("ExecuTorch OpenVINO INT8_TRANSFORMER", lambda: _openvino("INT8_TRANSFORMER"), flow="no_guards"),
    QuantizerCase(
        "ExecuTorch Qualcomm QNN",
        _sdk("executorch.backends.qualcomm.quantizer", "importing it downloads the QNN SDK (no network here)"),
    ),
    QuantizerCase("ExecuTorch MediaTek", _sdk("executorch.backends.mediatek", "needs the mtk_converter vendor SDK")),
    QuantizerCase("ExecuTorch NXP Neutron", _sdk("executorch.backends.nxp", "needs the eIQ Neutron vendor SDK")),
]
