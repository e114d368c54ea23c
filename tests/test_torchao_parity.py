"""torchao's own PT2E test setups, rebuilt and run through pl.capture: the converted stage holds exactly the
nodes torchao's tests expect (their `node_occurrence` dicts, copied with the test's name), and every q/dq
node among them is recognised as quantize / dequantize in our snapshot.

Sources: pytorch/ao test/quantization/pt2e/test_quantize_pt2e.py (TestQuantizePT2E) and
test/quantization/pt2e/test_x86inductor_quantizer.py (TestQuantizePT2EX86Inductor). Like torchao's
`_test_quantizer`, each case exports (strict where torchao does), prepares, calibrates once on the example
inputs and converts.
"""

import warnings
from collections import Counter

import pytest
import torch
from _torchao_models import (
    ConvLinearWPermute,
    ConvWithBNRelu,
    EmbeddingConvLinearModule,
    EmbeddingModule,
)
from torch import nn

import pt2e_lens as pl
from pt2e_lens._torchao import ComposableQuantizer, QuantizationAnnotation, QuantizationSpec, Quantizer

ops = torch.ops.quantized_decomposed
aten = torch.ops.aten


def _xnnpack(**config):
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(**config))


def _x86(**config):
    from torchao.quantization.pt2e.quantizer import x86_inductor_quantizer as xiq

    return xiq.X86InductorQuantizer().set_global(xiq.get_default_x86_inductor_quantization_config(**config))


class SimpleBackendA(Quantizer):
    """test_simple_quantizer's BackendAQuantizer: conv2d input uint8, weight int8, bias fp32 placeholder."""

    def annotate(self, model):
        from torchao.quantization.pt2e import observer

        act = QuantizationSpec(
            dtype=torch.uint8,
            quant_min=0,
            quant_max=255,
            qscheme=torch.per_tensor_affine,
            is_dynamic=False,
            observer_or_fake_quant_ctr=observer.default_observer,
        )
        weight = QuantizationSpec(
            dtype=torch.int8,
            quant_min=-128,
            quant_max=127,
            qscheme=torch.per_tensor_affine,
            is_dynamic=False,
            observer_or_fake_quant_ctr=observer.default_weight_observer,
        )
        bias = QuantizationSpec(
            dtype=torch.float32, is_dynamic=False, observer_or_fake_quant_ctr=observer.PlaceholderObserver
        )
        for node in model.graph.nodes:
            if node.op == "call_function" and node.target == aten.conv2d.default:
                inp, w, b = node.args[:3]
                node.meta["quantization_annotation"] = QuantizationAnnotation(
                    input_qspec_map={inp: act, w: weight, b: bias}, output_qspec=act, _annotated=True
                )
        return model

    def validate(self, model):
        pass


class ConvTransposeReluBackend(Quantizer):
    """test_conv_transpose_bn_relu's BackendAQuantizer: OP_TO_ANNOTATOR["conv_transpose_relu"], int8 per-tensor."""

    def annotate(self, model):
        from torchao.quantization.pt2e import observer
        from torchao.testing.pt2e._xnnpack_quantizer_utils import OP_TO_ANNOTATOR, QuantizationConfig

        spec = QuantizationSpec(
            dtype=torch.int8,
            quant_min=-128,
            quant_max=127,
            qscheme=torch.per_tensor_symmetric,
            is_dynamic=False,
            observer_or_fake_quant_ctr=observer.default_weight_observer,
        )
        OP_TO_ANNOTATOR["conv_transpose_relu"](model, QuantizationConfig(spec, spec, spec, None))
        return model

    def validate(self, model):
        pass


class ConvTWithBNRelu(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.convt = nn.ConvTranspose2d(3, 3, 3)
        self.bn = nn.BatchNorm2d(3)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.relu(self.bn(self.convt(x)))


class OneLinear(nn.Module):
    def __init__(self, n: int = 2, bias: bool = True) -> None:
        super().__init__()
        self.linear = nn.Linear(n, n, bias=bias)

    def forward(self, x):
        return self.linear(x)


class DontFoldMe(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(2, 2)
        self.dont_fold_me = nn.Parameter(torch.randn(2, 2))

    def forward(self, x):
        return self.linear(x) + self.dont_fold_me.t()


class FoldAllBefore(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.weight = torch.randn(2, 2)

    def forward(self, x):
        return nn.functional.linear(x, self.weight.t())


class SingleConv2d(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 6, (2, 2), stride=(1, 1), padding=(1, 1))

    def forward(self, x):
        return self.conv(x)


class Conv2dAdd(nn.Module):
    """x86 TestHelperModules.Conv2dAddModule: conv(x) + relu(x) ("left") or conv(x) + conv2(x) ("both")."""

    def __init__(self, both: bool) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 3, 3, 1, 1, bias=False)
        self.conv2 = nn.Conv2d(3, 3, 3, 1, 1, bias=False)
        self.relu = nn.ReLU()
        self.both = both

    def forward(self, x):
        return self.conv(x) + (self.conv2(x) if self.both else self.relu(x))


class SelfAttnLike(nn.Module):
    def __init__(self, dim: int = 64) -> None:
        super().__init__()
        self.dim = dim
        self.q_proj = nn.Linear(dim, dim, bias=False)
        self.k_proj = nn.Linear(dim, dim, bias=False)
        self.v_proj = nn.Linear(dim, dim, bias=False)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x):
        q, k, v = self.q_proj(x), self.k_proj(x), self.v_proj(x)
        scores = torch.matmul(q, k.transpose(-1, -2)) / (self.dim**0.5)
        return torch.matmul(self.softmax(scores), v)


def _composable_linear_conv():
    return ComposableQuantizer([_xnnpack(is_per_channel=False, is_dynamic=True), _xnnpack(is_per_channel=True)])


def _embedding_conv_linear():
    from torchao.quantization.pt2e.quantizer.embedding_quantizer import EmbeddingQuantizer

    return ComposableQuantizer(
        [EmbeddingQuantizer(), _xnnpack(is_per_channel=True, is_dynamic=True), _xnnpack(is_per_channel=True)]
    )


def _embedding():
    from torchao.quantization.pt2e.quantizer.embedding_quantizer import EmbeddingQuantizer

    return EmbeddingQuantizer()


def _dont_fold():
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    return XNNPACKQuantizer().set_module_type(nn.Linear, get_symmetric_quantization_config(is_per_channel=False))


def _x86_fp16_linear():
    from torchao.quantization.pt2e.quantizer import x86_inductor_quantizer as xiq

    q = _x86()
    q.set_module_type_qconfig(nn.Linear, xiq.get_x86_inductor_linear_dynamic_fp16_config())
    return q


_INDICES = torch.tensor(
    [9, 6, 5, 7, 8, 8, 9, 2, 8, 6, 6, 9, 1, 6, 8, 8, 3, 2, 3, 6, 3, 6, 5, 7, 0, 8, 4, 6, 5, 8, 2, 3]
)

# (torchao test, model, example inputs, quantizer, strict export, expected node occurrence)
CASES = [
    (
        "test_quantize_pt2e.py::test_simple_quantizer",
        lambda: ConvWithBNRelu(relu=False, bn=False),
        (torch.randn(1, 3, 5, 5),),
        SimpleBackendA,
        True,
        {ops.quantize_per_tensor.default: 2, ops.dequantize_per_tensor.default: 3},
    ),
    (
        "test_quantize_pt2e.py::test_composable_quantizer_linear_conv",
        ConvLinearWPermute,
        (torch.randn(2, 3, 4, 4),),
        _composable_linear_conv,
        True,
        {
            ops.quantize_per_tensor.tensor: 1,
            ops.dequantize_per_tensor.tensor: 1,
            ops.quantize_per_tensor.default: 3,
            ops.dequantize_per_tensor.default: 4,
            ops.quantize_per_channel.default: 0,
            ops.dequantize_per_channel.default: 1,
        },
    ),
    (
        "test_quantize_pt2e.py::test_embedding_quantizer",
        EmbeddingModule,
        (_INDICES,),
        _embedding,
        True,
        {ops.quantize_per_channel.default: 0, ops.dequantize_per_channel.default: 1},
    ),
    (
        "test_quantize_pt2e.py::test_embedding_conv_linear_quantization",
        EmbeddingConvLinearModule,
        (torch.unsqueeze(_INDICES, 0),),
        _embedding_conv_linear,
        True,
        {
            ops.quantize_per_tensor.default: 4,
            ops.dequantize_per_tensor.default: 4,
            ops.quantize_per_tensor.tensor: 1,
            ops.dequantize_per_tensor.tensor: 1,
            ops.quantize_per_channel.default: 0,
            ops.dequantize_per_channel.default: 3,
        },
    ),
    (
        "test_quantize_pt2e.py::test_fold_quantize",
        OneLinear,
        (torch.randn(2, 2),),
        lambda: _xnnpack(is_per_channel=False),
        False,
        {ops.quantize_per_tensor.default: 2, ops.dequantize_per_tensor.default: 3},
    ),
    (
        "test_quantize_pt2e.py::test_fold_quantize_per_channel",
        OneLinear,
        (torch.randn(2, 2),),
        lambda: _xnnpack(is_per_channel=True),
        False,
        {
            ops.quantize_per_tensor.default: 2,
            ops.dequantize_per_channel.default: 1,
            ops.dequantize_per_tensor.default: 2,
        },
    ),
    (
        "test_quantize_pt2e.py::test_dont_fold_other_constant",
        DontFoldMe,
        (torch.randn(2, 2),),
        _dont_fold,
        False,
        {ops.quantize_per_tensor.default: 2, ops.dequantize_per_tensor.default: 3, aten.t.default: 1},
    ),
    (
        "test_quantize_pt2e.py::test_fold_all_ops_before_quantize",
        FoldAllBefore,
        (torch.randn(2, 2),),
        lambda: _xnnpack(is_per_channel=False),
        False,
        {ops.quantize_per_tensor.default: 2, ops.dequantize_per_tensor.default: 3},
    ),
    (
        "test_quantize_pt2e.py::test_conv_transpose_bn_relu",
        ConvTWithBNRelu,
        (torch.randn(1, 3, 5, 5),),
        ConvTransposeReluBackend,
        True,
        {ops.quantize_per_tensor.default: 2, ops.dequantize_per_tensor.default: 3},
    ),
    (
        "test_x86inductor_quantizer.py::test_conv2d",
        SingleConv2d,
        (torch.randn(2, 3, 16, 16),),
        _x86,
        True,
        {
            ops.quantize_per_tensor.default: 1,
            ops.dequantize_per_tensor.default: 1,
            ops.quantize_per_channel.default: 0,
            ops.dequantize_per_channel.default: 1,
        },
    ),
    (
        "test_x86inductor_quantizer.py::test_conv2d_binary[left]",
        lambda: Conv2dAdd(both=False),
        (torch.randn(2, 3, 6, 6),),
        _x86,
        True,
        {
            ops.quantize_per_tensor.default: 2,
            ops.dequantize_per_tensor.default: 2,
            ops.quantize_per_channel.default: 0,
            ops.dequantize_per_channel.default: 1,
        },
    ),
    (
        "test_x86inductor_quantizer.py::test_conv2d_binary[both]",
        lambda: Conv2dAdd(both=True),
        (torch.randn(2, 3, 6, 6),),
        _x86,
        True,
        {
            ops.quantize_per_tensor.default: 2,
            ops.dequantize_per_tensor.default: 3,
            ops.quantize_per_channel.default: 0,
            ops.dequantize_per_channel.default: 2,
        },
    ),
    (
        "test_x86inductor_quantizer.py::test_dynamic_quant_linear",
        SelfAttnLike,
        (torch.randn(1, 4, 64),),
        lambda: _x86(is_dynamic=True),
        True,
        {
            ops.choose_qparams.tensor: 1,
            ops.quantize_per_tensor.tensor: 1,
            ops.dequantize_per_tensor.tensor: 1,
            ops.quantize_per_channel.default: 0,
            ops.dequantize_per_channel.default: 3,
        },
    ),
    (
        "test_x86inductor_quantizer.py::test_linear_dynamic_fp16",
        lambda: OneLinear(4),
        (torch.randn(2, 4),),
        _x86_fp16_linear,
        True,
        {
            ops.quantize_per_tensor.default: 0,
            ops.dequantize_per_tensor.default: 0,
            ops.quantize_per_channel.default: 0,
            ops.dequantize_per_channel.default: 0,
            ops.convert_element_type.no_fuse: 2,
        },
    ),
]

_QDQ_NAMES = ("quantize_per_tensor", "quantize_per_channel", "dequantize_per_tensor", "dequantize_per_channel")


@pytest.mark.parametrize("case", CASES, ids=[c[0].split("::")[1] for c in CASES])
def test_torchao_expected_node_occurrence(case):
    name, make_model, inputs, make_quantizer, strict, expected = case
    torch.manual_seed(0)
    torch._dynamo.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.capture(make_model().eval(), inputs, make_quantizer(), calibration=[inputs], strict=strict)
    snap = run["converted"].snapshot
    counts = Counter(n["target_full"] for n in snap.nodes if n["op"] == "call_function")
    got = {op: counts[str(op)] for op in expected}
    assert got == expected, f"{name}: {got}"
    # and our roles agree with torchao's op names on every q/dq node it inserted
    for n in snap.nodes:
        short = n["target"]
        if n["op"] == "call_function" and short in _QDQ_NAMES:
            assert n["role"] == ("dequantize" if short.startswith("dequantize") else "quantize"), (name, n["id"])
    # exactly torchao's q/dq (and fp16 cast) nodes are listed by pl.qdq: nothing missed, nothing extra
    inserted = {
        node.name
        for node in run["converted"].graph_module.graph.nodes
        if node.op == "call_function"
        and getattr(node.target, "namespace", "") == "quantized_decomposed"
        and node.target._overloadpacket.__name__ in (*_QDQ_NAMES, "convert_element_type")
    }
    assert {q["node"] for q in snap.qdq} == inserted, name
