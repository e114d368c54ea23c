"""Inductor's int8 outcomes are Inductor's own: a node is `int8` only when Inductor lowered a quantized kernel
for it (its pattern counters and the oneDNN calls of its generated code say so), never because an fp32 kernel
reads an int8 tensor Inductor dequantizes inside it. Checked on a resnet-like model (conv-bn-relu blocks, a
residual add, adaptive avg pool, linear) under X86InductorQuantizer (uint8 activations: qconv/qlinear) and
torchao's XNNPACKQuantizer (signed int8 activations), and on an MLP under XNNPACKQuantizer, where oneDNN's
qlinear does take signed int8. Each case compiles once (module-scoped)."""

from __future__ import annotations

import re

import pytest
import torch
from torch._dynamo.utils import counters
from torch._inductor.utils import run_and_get_code

import pt2e_lens as pl


class Block(torch.nn.Module):
    def __init__(self, c: int) -> None:
        super().__init__()
        self.c1, self.b1 = torch.nn.Conv2d(c, c, 3, padding=1), torch.nn.BatchNorm2d(c)
        self.c2, self.b2 = torch.nn.Conv2d(c, c, 3, padding=1), torch.nn.BatchNorm2d(c)

    def forward(self, x):
        y = torch.relu(self.b1(self.c1(x)))
        return torch.relu(self.b2(self.c2(y)) + x)


class ResNet(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem, self.bn = torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8)
        self.block = Block(8)
        self.pool, self.fc = torch.nn.AdaptiveAvgPool2d(1), torch.nn.Linear(8, 4)

    def forward(self, x):
        y = self.block(torch.relu(self.bn(self.stem(x))))
        return self.fc(torch.flatten(self.pool(y), 1))


class MLP(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.l1, self.l2 = torch.nn.Linear(16, 32), torch.nn.Linear(32, 8)

    def forward(self, x):
        return self.l2(torch.relu(self.l1(x)))


def _x86():
    from torchao.quantization.pt2e.quantizer.x86_inductor_quantizer import (
        X86InductorQuantizer,
        get_default_x86_inductor_quantization_config,
    )

    return X86InductorQuantizer().set_global(get_default_x86_inductor_quantization_config())


def _xnnpack():
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))


# name -> (model, input shape, quantizer, freezing)
CASES = {
    "resnet-x86": (ResNet, (2, 3, 8, 8), _x86, True),
    "resnet-xnnpack-no-freezing": (ResNet, (2, 3, 8, 8), _xnnpack, False),
    "mlp-xnnpack": (MLP, (4, 16), _xnnpack, True),
}


@pytest.fixture(scope="module")
def lowered():
    cache: dict = {}

    def get(name):
        if name not in cache:
            model_cls, shape, quantizer, freezing = CASES[name]
            torch.manual_seed(0)
            x = torch.randn(*shape)
            run = pl.capture(model_cls().eval(), (x,), quantizer(), calibration=[(x,), (x * 0.5,)])
            torch._dynamo.reset()
            counters.clear()
            _, code = run_and_get_code(lambda: run.lower("inductor", freezing=freezing))
            cache[name] = (run, "\n".join(code))
        return cache[name]

    return get


def _lowered_kernels(c: dict) -> int:
    """Inductor's count of the qconv / qlinear kernels it lowered (unary and binary post-ops alike)."""
    return sum(n for k, n in c.items() if re.fullmatch(r"q(conv|linear)\w*_lower_count", k))


def _onednn_calls(code: str) -> list[str]:
    return re.findall(r"torch\.ops\.onednn\.(q(?:conv|linear)\w*)\.", code)


def _is_qdq(node: dict) -> bool:
    return node["role"] in ("quantize", "dequantize")


@pytest.mark.parametrize("name", sorted(CASES))
def test_int8_conv_and_linear_are_the_kernels_inductor_lowered(lowered, name):
    run, code = lowered(name)
    rec = run["lowered"].backend
    c = rec.records["counters"]
    snap = run["converted"].snapshot
    int8_ops = [
        n["id"] for n in snap.nodes if n["target"] in ("conv2d", "linear") and rec.nodes[n["id"]].outcome == "int8"
    ]
    # one int8 conv/linear per kernel Inductor lowered and per oneDNN call in its code
    assert len(int8_ops) == _lowered_kernels(c) == len(_onednn_calls(code)), (int8_ops, c)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_int8_node_is_inside_a_kernel_inductor_counted(lowered, name):
    run, _ = lowered(name)
    rec = run["lowered"].backend
    c = rec.records["counters"]
    for node in run["converted"].snapshot.nodes:
        o = rec.nodes.get(node["id"])
        if o is None or o.outcome != "int8":
            continue
        assert not _is_qdq(node), node["id"]  # a q/dq is folded or real work, never an int8 kernel of its own
        pattern = (o.kernel or "").split("_pointwise")[0].split(" ")[0]
        # qconv / qlinear: the lowering counters; any other int8 pattern (qreshape, qmaxpool2d, qcat): its matcher's
        counted = _lowered_kernels(c) if pattern in ("qconv", "qlinear") else c.get(f"{pattern}_matcher_count", 0)
        assert pattern.startswith("q") and counted > 0, (node["id"], o.kernel, c)
        assert "dequantize" not in o.kernel  # an fp32 kernel that reads a promoted dequantize is not int8


@pytest.mark.parametrize("name", sorted(CASES))
def test_headline_counts_are_the_per_node_outcomes(lowered, name):
    run, _ = lowered(name)
    t = pl.backend(run)
    rec = run["lowered"].backend
    assert t.counts == rec.counts() and t.counts.get("int8", 0) == t.column("outcome").count("int8")
    assert t.ops is None  # Inductor gives no op table of its own: the headline counts converted nodes


def test_x86_runs_every_conv_and_linear_int8(lowered):
    run, _ = lowered("resnet-x86")
    rec = run["lowered"].backend
    snap = run["converted"].snapshot
    ops = [n["id"] for n in snap.nodes if n["target"] in ("conv2d", "linear")]
    assert len(ops) == 4 and all(rec.nodes[n].outcome == "int8" for n in ops)
    assert rec.nodes["adaptive_avg_pool2d"].outcome == "fp32"


def test_signed_int8_convs_without_a_qconv_are_not_int8(lowered):
    """XNNPACKQuantizer (signed int8) with freezing off: Inductor lowered no qconv/qlinear, so no conv, linear,
    pool or add is int8 — whatever int8 tensors its fp32 kernels read."""
    run, code = lowered("resnet-xnnpack-no-freezing")
    rec = run["lowered"].backend
    assert _lowered_kernels(rec.records["counters"]) == 0 and not _onednn_calls(code)
    for n in run["converted"].snapshot.nodes:
        if n["target"] in ("conv2d", "linear", "add", "relu", "adaptive_avg_pool2d"):
            assert rec.nodes[n["id"]].outcome == "fp32", (n["id"], rec.nodes[n["id"]])
    kinds = {f["kind"] for f in run["lowered"].snapshot.findings}
    assert "backend-freezing-off" in kinds


def test_signed_int8_linears_are_int8_where_onednn_took_them(lowered):
    run, _ = lowered("mlp-xnnpack")
    rec = run["lowered"].backend
    assert _lowered_kernels(rec.records["counters"]) == 2
    assert [rec.nodes[n].outcome for n in ("linear", "linear_1")] == ["int8", "int8"]
    assert "→ int8" in rec.nodes["linear_1"].kernel  # signed output, as oneDNN's call says
