"""run.lower("inductor") against Inductor's own records: its pattern-matcher counters and the kernel calls in
the code it generated, on a resnet-like + mobilenet-like block with an op Inductor does not quantize (cumsum),
and a linear/GELU MLP (static and dynamic X86InductorQuantizer). Each model compiles once per module (~15 s)."""

from __future__ import annotations

import errno
import re

import pytest
import torch
from torch._dynamo.utils import counters
from torch._inductor.utils import run_and_get_code

import pt2e_lens as pl
from pt2e_lens._torchao import Q_ANNOTATION_KEY
from pt2e_lens.backends import OUTCOMES


class Net(torch.nn.Module):
    """conv-bn-relu, conv-bn + residual add + relu, depthwise conv + hardswish, pointwise conv, mean, linear, cumsum."""

    def __init__(self) -> None:
        super().__init__()
        self.c1, self.bn1 = torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8)
        self.c2, self.bn2 = torch.nn.Conv2d(8, 8, 3, padding=1), torch.nn.BatchNorm2d(8)
        self.dw, self.hs = torch.nn.Conv2d(8, 8, 3, padding=1, groups=8), torch.nn.Hardswish()
        self.pw = torch.nn.Conv2d(8, 16, 1)
        self.fc = torch.nn.Linear(16, 4)

    def forward(self, x):
        y = torch.relu(self.bn1(self.c1(x)))
        y = torch.relu(self.bn2(self.c2(y)) + y)
        y = self.pw(self.hs(self.dw(y)))
        return torch.cumsum(self.fc(y.mean((2, 3))), 1)


class MLP(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.l1, self.act, self.l2 = torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 8)

    def forward(self, x):
        return self.l2(self.act(self.l1(x)))


def _x86(dynamic: bool = False):
    from torchao.quantization.pt2e.quantizer.x86_inductor_quantizer import (
        X86InductorQuantizer,
        get_default_x86_inductor_quantization_config,
    )

    return X86InductorQuantizer().set_global(get_default_x86_inductor_quantization_config(is_dynamic=dynamic))


def _lowered(model: torch.nn.Module, x: torch.Tensor, dynamic: bool = False, **options):
    """A Run lowered with Inductor, the code Inductor generated, and its counters read the documented way."""
    torch.manual_seed(0)
    run = pl.capture(model.eval(), (x,), _x86(dynamic), calibration=[(x,), (x * 0.5,)])
    torch._dynamo.reset()
    counters.clear()
    counters["untouched"]["mark"] = 1  # a count of the user's own: lower() must leave it where it was
    freezing_before = torch._inductor.config.freezing
    _, code = run_and_get_code(lambda: run.lower("inductor", **options))
    assert dict(counters) == {"untouched": {"mark": 1}}, "lower() left Inductor's counters changed"
    assert torch._inductor.config.freezing == freezing_before
    assert torch._inductor.config.post_grad_custom_post_pass is None
    return run, "\n".join(code)


@pytest.fixture(scope="module")
def net():
    torch.manual_seed(0)
    return _lowered(Net(), torch.randn(2, 3, 8, 8))


@pytest.fixture(scope="module")
def mlp():
    torch.manual_seed(0)
    return _lowered(MLP(), torch.randn(4, 16))


def _onednn_calls(code: str) -> list[str]:
    """Each oneDNN int8 kernel call in the generated code, with its arguments (post-ops are string literals)."""
    return re.findall(r"torch\.ops\.onednn\.(q\w+\.\w+)\(([^\n]*)\)", code)


def _by_op(run, op: str) -> list[str]:
    return [n["id"] for n in run["converted"].snapshot.nodes if n["target"] == op]


def test_every_conv_and_linear_runs_int8_as_inductor_counted(net):
    run, code = net
    rec = run["lowered"].backend
    c = rec.records["counters"]
    convs, linears = _by_op(run, "conv2d"), _by_op(run, "linear")
    assert len(convs) == 4 and len(linears) == 1
    assert all(rec.nodes[n].outcome == "int8" for n in convs + linears)
    # one weight prepack per conv/linear, one lowering per fused kernel: Inductor's own counts
    assert c["qconv_weight_prepack_matcher_count"] == len(convs)
    assert c["qlinear_weight_prepack_matcher_count"] == len(linears)
    conv_kernels = {rec.nodes[n].kernel for n in convs}
    lowered_convs = c.get("qconv_unary_lower_count", 0) + c.get("qconv2d_binary_lower_count", 0)
    assert lowered_convs == len(convs) == len([k for k, _ in _onednn_calls(code) if k.startswith("qconv")])
    assert len([k for k, _ in _onednn_calls(code) if k.startswith("qlinear")]) == c["qlinear_unary_lower_count"] == 1
    assert len(conv_kernels) == 4  # relu, sum+relu, hardswish, none: four different fused kernels


def test_fused_post_ops_match_the_generated_calls(net):
    run, code = net
    rec = run["lowered"].backend
    calls = _onednn_calls(code)
    # post-op names are the string literals of each call; the last one is the post-op algorithm
    posts = sorted(tuple(re.findall(r"'(\w*)'", args)[:-1]) for _, args in calls)
    # the post-op names Inductor passed to each oneDNN call ('none' for a bare conv), in the kernels we report
    ours = sorted(
        tuple(p for p in re.findall(r"\+ (\w+)", rec.nodes[n].kernel)) or ("none",)
        for n in _by_op(run, "conv2d") + _by_op(run, "linear")
    )
    assert posts == ours
    for op, post in (("relu", "relu"), ("hardswish", "hardswish"), ("add", "sum")):
        for n in _by_op(run, op):
            assert rec.nodes[n].outcome == "int8" and f"+ {post}" in rec.nodes[n].kernel, n


def test_cumsum_mean_run_fp32_and_weights_fold(net):
    run, code = net
    rec = run["lowered"].backend
    assert rec.nodes["cumsum"].outcome == "fp32" and "cumsum" in code
    assert rec.nodes["mean"].outcome == "fp32"
    snap = run["converted"].snapshot
    weight_dqs = [q["node"] for q in snap.qdq if q["kind"] == "dequantize" and q["granularity"] == "per_channel"]
    assert weight_dqs and all(rec.nodes[n].outcome == "folded" for n in weight_dqs)
    # every q/dq is either folded into a fused kernel or left as real work, never "int8"
    for q in snap.qdq:
        o = rec.nodes[q["node"]]
        assert o.outcome in ("folded", "fp32"), q["node"]
        assert (o.outcome == "fp32") == (o.reason is not None)
        if o.outcome == "fp32":
            assert q["kind"] in o.reason


def test_why_not_on_the_lowered_stage_ends_with_what_the_backend_did(net):
    run, _ = net
    ran = run["lowered"].backend.nodes["cumsum"]
    converted = pl.why_not(run["converted"], "cumsum").column("why")
    lowered = pl.why_not(run["lowered"], "cumsum").column("why")
    assert lowered[:-1] == converted and lowered[-1].startswith("inductor runs it fp32"), lowered
    assert (ran.reason or "") in lowered[-1] and (ran.kernel or "") in lowered[-1]
    assert pl.why_not(run["converted"], "cumsum").column("why") == converted  # the stage's own lines untouched


def test_real_quantize_work_is_what_the_code_still_quantizes(net):
    run, code = net
    rec = run["lowered"].backend
    left = [n for n, o in rec.nodes.items() if o.outcome == "fp32" and o.kernel == "quantize_per_tensor"]
    # the generated code quantizes in its own C++ kernels (cpp_fused_..._quantize_per_tensor...)
    fused_quantize = set(
        re.findall(r"def (cpp_fused\w*quantize_per_tensor\w*)|(cpp_fused\w*quantize_per_tensor\w*) =", code)
    )
    assert left and fused_quantize


def test_lowered_stage_in_the_run_table_and_contract(net):
    run, _ = net
    assert run.stages[-1] == "lowered"
    t = pl.backend(run)
    rec = run["lowered"].backend
    assert [r[0] for r in t.rows] == [n for n in (x["id"] for x in run["converted"].snapshot.nodes) if n in rec.nodes]
    assert set(t.column("outcome")) <= set(OUTCOMES)
    assert t.counts == rec.counts()
    snap = pl.Snapshot.from_json(run["lowered"].snapshot.to_json())
    assert snap.data["backend"]["options"] == {"freezing": True}
    kinds = {f["kind"] for f in run["lowered"].snapshot.findings}
    assert not kinds & {"backend-freezing-off", "backend-nothing-int8", "backend-nothing-annotated"}


def test_the_compiled_module_computes_what_the_converted_one_does(net):
    run, _ = net
    x = torch.randn(2, 3, 8, 8)
    with torch.no_grad():
        ref = run["converted"].graph_module(x)
    got = run["lowered"].backend.runner(x)
    assert torch.allclose(ref, got, atol=0.1)


def test_mlp_linears_int8_gelu_as_inductor_counted(mlp):
    run, code = mlp
    rec = run["lowered"].backend
    c = rec.records["counters"]
    linears = _by_op(run, "linear")
    assert all(rec.nodes[n].outcome == "int8" for n in linears)
    calls = [k for k, _ in _onednn_calls(code) if k.startswith("qlinear")]
    assert len(calls) == c.get("qlinear_unary_lower_count", 0) + c.get("qlinear_binary_lower_count", 0) == 2
    gelu = rec.nodes["gelu"]
    fused_gelu = any("'gelu'" in args for _, args in _onednn_calls(code))
    assert (gelu.outcome == "int8" and "+ gelu" in gelu.kernel) == fused_gelu


def test_dynamic_linear():
    torch.manual_seed(0)
    run, code = _lowered(MLP(), torch.randn(4, 16), dynamic=True)
    rec = run["lowered"].backend
    c = rec.records["counters"]
    lowered = c.get("qlinear_unary_lower_count", 0) + c.get("qlinear_binary_lower_count", 0)
    int8 = [n for n in _by_op(run, "linear") if rec.nodes[n].outcome == "int8"]
    assert len(int8) == lowered == len([k for k, _ in _onednn_calls(code) if k.startswith("qlinear")])
    for n in _by_op(run, "linear"):
        if rec.nodes[n].outcome != "int8":
            assert rec.nodes[n].reason  # an annotated linear that runs fp32 says why


def test_freezing_off_runs_fp32_and_says_what_to_set():
    torch.manual_seed(0)
    run, code = _lowered(MLP(), torch.randn(4, 16), freezing=False)
    rec = run["lowered"].backend
    assert not _onednn_calls(code)
    assert not any(k.startswith("qlinear") and k.endswith("lower_count") for k in rec.records["counters"])
    gm = run["converted"].graph_module
    annotated = [n.name for n in gm.graph.nodes if n.name in rec.nodes and Q_ANNOTATION_KEY in n.meta]
    for n in _by_op(run, "linear"):
        assert rec.nodes[n].outcome == "fp32" and "freezing=True" in rec.nodes[n].reason
    assert annotated
    f = [f for f in run["lowered"].snapshot.findings if f["kind"] == "backend-freezing-off"]
    assert len(f) == 1 and "freezing=True" in f[0]["message"] and "\n" not in f[0]["message"]


@pytest.fixture(scope="module")
def converted_run():
    torch.manual_seed(0)
    x = torch.randn(4, 16)
    return pl.capture(MLP().eval(), (x,), _x86(), calibration=[(x,)])


def _raising(exc):
    def compile_fx(*args, **kwargs):
        raise exc

    return compile_fx


@pytest.mark.parametrize(
    "make, says",
    [
        (lambda: _exc().InvalidCxxCompiler(), "C++ compiler"),
        (lambda: _exc().LoweringException(RuntimeError("no lowering"), "aten.foo", [], {}), "could not compile"),
        # a full disk under Inductor's cache folder, where it writes the C++ of its kernels
        (lambda: OSError(errno.ENOSPC, "No space left on device", _in_cache("tmp0/c.cpp")), "No space left on device"),
    ],
    ids=["no C++ compiler", "cannot compile", "full cache disk"],
)
def test_a_failed_compile_is_one_line_and_the_run_stays_usable(converted_run, monkeypatch, make, says):
    import torch._inductor.compile_fx as cfx

    run = converted_run
    monkeypatch.setattr(cfx, "compile_fx", _raising(make()))
    torch._dynamo.reset()
    with pytest.raises(pl.Pt2eLensError) as e:
        run.lower("inductor")
    msg = str(e.value)
    assert says in msg and "\n" not in msg and "earlier stages are kept" in msg
    assert run.stages[-1] == "converted"
    assert pl.qdq(run["converted"]).rows and pl.show(run)._repr_mimebundle_()
    assert torch._inductor.config.post_grad_custom_post_pass is None


def test_unknown_option_is_one_line(converted_run):
    with pytest.raises(pl.Pt2eLensError, match="freezing=True") as e:
        converted_run.lower("inductor", freezng=False)
    assert "freezng" in str(e.value) and converted_run.stages[-1] == "converted"


def _in_cache(name: str) -> str:
    from torch._inductor.runtime.cache_dir_utils import cache_dir

    return f"{cache_dir()}/{name}"


def _exc():
    import torch._inductor.exc as exc

    return exc


def test_magic_lower_shows_the_table_and_does_not_compile_twice(net):
    from IPython.testing.globalipapp import get_ipython

    run, _ = net
    ip = get_ipython()
    ip.user_ns["lowered_net"] = run
    ip.run_line_magic("load_ext", "pt2e_lens")
    stage = run["lowered"]
    t = ip.run_line_magic("pt2e", "lower inductor lowered_net")
    assert run["lowered"] is stage  # the same lowering is not compiled again
    assert t.rows == pl.backend(run).rows


def test_cli_report_with_backend_writes_the_lowered_stage(tmp_path, capsys):
    from pt2e_lens.cli import main

    out = tmp_path / "out"
    assert main(["report", "--example", "tiny", "--quantizer", "x86", "--backend", "inductor", "--out", str(out)]) == 0
    snap = pl.Snapshot.from_json((out / "lowered.json").read_text())
    assert snap.stage == "lowered" and snap.data["backend"]["name"] == "inductor"
    assert "int8" in snap.data["backend"]["counts"]
    printed = capsys.readouterr().out
    assert "what inductor runs" in printed


def test_signed_int8_activations_do_not_compile_and_say_why():
    """A real compile that fails: oneDNN prepacks only uint8 activations (ConvQuantizer quantizes to int8)."""
    from pt2e_lens.examples import ConvQuantizer, calibration_batches, example_inputs, get_model

    run = pl.capture(
        get_model("tiny").eval(), example_inputs(2), ConvQuantizer(), calibration=calibration_batches(1, 2)
    )
    with pytest.raises(pl.Pt2eLensError, match="uint8 activations") as e:
        run.lower("inductor")
    assert "\n" not in str(e.value) and "freezing=False" in str(e.value)
    assert run.stages[-1] == "converted" and pl.show(run)._repr_mimebundle_()


def test_three_way_accuracy_float_converted_backend(net):
    from torch.ao.ns.fx.utils import compute_sqnr

    run, _ = net
    stage = run["lowered"]
    g = torch.Generator().manual_seed(3)
    batches = [(torch.randn(2, 3, 8, 8, generator=g),) for _ in range(2)]
    t = pl.accuracy(run, batches, backend="inductor")
    assert run["lowered"] is stage  # already lowered with inductor: not compiled again
    assert t.columns[:4] == ["output", "sqnr_converted_db", "sqnr_backend_db", "sqnr_backend_vs_converted_db"]
    assert len(t.rows) == 1 and t.rows[0][4] == 2
    with torch.no_grad():
        flt = [run["exported"].graph_module(*b) for b in batches]
        conv = [run["converted"].graph_module(*b) for b in batches]
    got = [stage.backend.runner(*b) for b in batches]
    mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
    want = [
        mean([compute_sqnr(a, b).item() for a, b in zip(flt, conv)]),
        mean([compute_sqnr(a, b).item() for a, b in zip(flt, got)]),
        mean([compute_sqnr(a, b).item() for a, b in zip(conv, got)]),
    ]
    assert t.rows[0][1:4] == pytest.approx(want, rel=1e-3)
