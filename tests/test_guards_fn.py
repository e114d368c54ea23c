"""torch.export's `_guards_fn` node and quantizers that reject it (as ExecuTorch's Arm and Cortex-M passes do):
pl.capture / pl.Run(ep) annotate `ep.module(check_guards=False)` when the quantizer fails on the node, exactly
as torchao does on that graph; a GraphModule the user gave is taken as it is, and failing on its node is one
line that names the graph to pass (not the export mode). Runs without ExecuTorch's extras."""

import warnings
from collections import Counter

import pytest
import torch
from _fingerprint import fingerprint
from torch import nn

import pt2e_lens as pl
from pt2e_lens._torchao import convert_pt2e, prepare_pt2e
from pt2e_lens.capture.guards import from_executorch
from pt2e_lens.examples import ConvQuantizer


class RejectsCallModule(ConvQuantizer):
    """ConvQuantizer, plus what ExecuTorch's quantizer passes do: refuse any call_module node."""

    def annotate(self, model):
        for node in model.graph.nodes:
            if node.op == "call_module":
                raise RuntimeError(f"call_module is not supported: {node.target}")
        return super().annotate(model)


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.a = nn.Conv2d(3, 8, 3, padding=1)
        self.b = nn.Conv2d(8, 3, 1)

    def forward(self, x):
        return torch.relu(self.b(torch.relu(self.a(x)))) + x


X = (torch.randn(2, 3, 8, 8),)
BATCHES = [(torch.randn(2, 3, 8, 8),) for _ in range(2)]


def _counts(gm: torch.fx.GraphModule) -> Counter:
    modules = dict(gm.named_modules())
    out = Counter(str(n.target) for n in gm.graph.nodes if n.op == "call_function" and "quantize" in str(n.target))
    out["observers"] = sum(1 for n in gm.graph.nodes if n.op == "call_module" and "activation_post_process" in n.target)
    out["_guards_fn"] = sum(1 for n in gm.graph.nodes if n.op == "call_module" and n.target == "_guards_fn")
    assert all(n.target in modules for n in gm.graph.nodes if n.op == "call_module")
    return out


def _torchao(gm: torch.fx.GraphModule) -> tuple[Counter, Counter]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prepared = prepare_pt2e(gm, RejectsCallModule())
        before = _counts(prepared)
        for b in BATCHES:
            prepared(*b)
        return before, _counts(convert_pt2e(prepared))


@pytest.fixture(scope="module")
def model():
    torch.manual_seed(0)
    return Net().eval()


def test_torchao_itself_fails_on_guards_and_works_without(model):
    with pytest.raises(RuntimeError, match="call_module"):
        _torchao(torch.export.export(model, X).module())
    prepared, converted = _torchao(torch.export.export(model, X).module(check_guards=False))
    assert prepared["observers"] > 0 and converted["_guards_fn"] == 0


@pytest.mark.parametrize("start", ["model", "program", "graph without guards"])
def test_every_starting_point_equals_torchao_on_check_guards_false(model, start):
    ep = torch.export.export(model, X)
    prepared, converted = _torchao(ep.module(check_guards=False))
    if start == "model":
        run = pl.capture(model, X, RejectsCallModule(), calibration=BATCHES)
    else:
        source = ep if start == "program" else ep.module(check_guards=False)
        run = pl.Run(source).prepare(RejectsCallModule()).calibrate(BATCHES).convert()
    assert _counts(run["prepared"].graph_module) == prepared
    assert _counts(run["converted"].graph_module) == converted
    # pl re-made the program's module without the node: it says so; a graph without it needed nothing
    assert run["prepared"].info.get("check_guards", True) is (start == "graph without guards")


def test_a_quantizer_that_accepts_guards_keeps_the_graph_a_notebook_gets(model):
    run = pl.capture(model, X, ConvQuantizer(), calibration=BATCHES)
    assert "check_guards" not in run["prepared"].info
    assert _counts(run["prepared"].graph_module)["_guards_fn"] == 1


def test_user_graph_with_guards_is_taken_as_it_is_and_the_error_names_the_graph_to_pass(model):
    ep = torch.export.export(model, X)
    gm = ep.module()
    before = (fingerprint(model), fingerprint(ep), fingerprint(gm))
    run = pl.Run(gm)
    with pytest.raises(pl.Pt2eLensError) as e:
        run.prepare(RejectsCallModule())
    msg = str(e.value)
    assert "\n" not in msg and "call_module is not supported" in msg  # the quantizer's own words stay
    assert "check_guards=False" in msg and "_guards_fn" in msg and "strict" not in msg
    assert run.stages == ["exported"]
    pl.capture(model, X, RejectsCallModule(), calibration=BATCHES)
    pl.Run(ep).prepare(RejectsCallModule()).calibrate(BATCHES).convert()
    assert (fingerprint(model), fingerprint(ep), fingerprint(gm)) == before


def test_a_failure_that_is_not_the_node_keeps_its_own_error(model):
    class Broken(ConvQuantizer):
        def annotate(self, model):
            raise ValueError("broken for its own reasons")

    with pytest.raises(pl.Pt2eLensError) as e:
        pl.Run(model, X, strict=True).prepare(Broken())
    assert "broken for its own reasons" in str(e.value) and "check_guards" not in str(e.value)


def test_executorch_quantizers_are_recognised_also_inside_wrappers():
    from pt2e_lens._torchao import ComposableQuantizer

    class Fake(ConvQuantizer):
        pass

    Fake.__module__ = "executorch.backends.fake.quantizer"
    assert from_executorch(Fake())
    assert from_executorch(ComposableQuantizer([ConvQuantizer(), Fake()]))
    assert from_executorch(pl.KeepFp32(Fake(), edges=[]))
    assert not from_executorch(ComposableQuantizer([ConvQuantizer()]))
