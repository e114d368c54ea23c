"""`%pt2e lower inductor RUN --no-freezing` (issue 27): the flag reaches Inductor. The lowered stage's record says
freezing off, and Inductor's counters in it are those of Inductor's own compile of the same converted graph with
freezing off (no oneDNN int8 pattern matched), while the magic's default gives those of freezing on. The flag with
a backend that takes no freezing option gets one line, and the Run keeps its stages."""

from __future__ import annotations

import copy
import types
import warnings

import pytest
import torch
from IPython.core.error import UsageError
from torch._dynamo.utils import counters

import pt2e_lens as pl
from pt2e_lens.kernel.magics import Pt2eMagics
from pt2e_lens.kernel.tracker import Tracker


def _x86():
    import torchao.quantization.pt2e.quantizer.x86_inductor_quantizer as xiq

    return xiq.X86InductorQuantizer().set_global(xiq.get_default_x86_inductor_quantization_config())


def _inductor_counters(gm: torch.fx.GraphModule, x: tuple, freezing: bool) -> dict[str, int]:
    """Inductor's own count of what it matched and lowered, compiling a copy of `gm` with that freezing setting."""
    torch._dynamo.reset()
    counters.clear()
    with torch._inductor.config.patch(freezing=freezing, force_disable_caches=True), torch.no_grad():
        torch.compile(copy.deepcopy(gm), backend="inductor")(*x)
    out = dict(counters["inductor"])
    counters.clear()
    torch._dynamo.reset()
    return out


@pytest.fixture(scope="module")
def lowered():
    """The Run lowered by the magic with --no-freezing, then by the magic's default; each lowered stage as made."""
    torch.manual_seed(0)
    x = (torch.randn(4, 16),)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mlp = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 8)).eval()
        run = pl.capture(mlp, x, _x86(), calibration=[x, (x[0] * 0.5,)])
    user_ns = {"run": run}
    magics = Pt2eMagics(types.SimpleNamespace(user_ns=user_ns), Tracker(user_ns))
    torch._dynamo.reset()
    magics.pt2e("lower inductor run --no-freezing")
    off = run["lowered"]
    torch._dynamo.reset()
    magics.pt2e("lower inductor run")
    on = run["lowered"]
    return run, x, magics, off, on


def test_no_freezing_is_in_the_lowered_stage_record(lowered):
    run, _, _, off, on = lowered
    assert off.info == {"backend": "inductor", "options": {"freezing": False}}
    assert off.backend.options == {"freezing": False}
    assert pl.Snapshot.from_json(off.snapshot.to_json()).data["backend"]["options"] == {"freezing": False}
    assert [f["kind"] for f in off.snapshot.findings].count("backend-freezing-off") == 1
    assert on.info == {"backend": "inductor", "options": {"freezing": True}}
    assert "backend-freezing-off" not in [f["kind"] for f in on.snapshot.findings]


def test_no_freezing_reaches_inductor_as_its_own_compile_counts_it(lowered):
    run, x, _, off, on = lowered
    converted = run["converted"].graph_module
    own_off = _inductor_counters(converted, x, freezing=False)
    own_on = _inductor_counters(converted, x, freezing=True)
    # the flag changes what Inductor does here: with freezing its oneDNN patterns lower both linears to qlinear
    assert own_on.get("qlinear_unary_lower_count", 0) + own_on.get("qlinear_binary_lower_count", 0) == 2
    assert not any(k.startswith("qlinear") for k in own_off)
    assert off.backend.records["counters"] == own_off
    assert on.backend.records["counters"] == own_on
    linears = [n.name for n in converted.graph.nodes if n.target == torch.ops.aten.linear.default]
    assert linears and all(off.backend.nodes[n].outcome == "fp32" for n in linears)
    assert all(on.backend.nodes[n].outcome == "int8" for n in linears)


def test_no_freezing_with_xnnpack_is_one_line_and_the_run_keeps_its_stages(lowered):
    run, _, magics, _, on = lowered
    stages = run.stages
    with pytest.raises(UsageError) as e:
        magics.pt2e("lower xnnpack run --no-freezing")
    text = str(e.value)
    assert "\n" not in text and "--no-freezing is an Inductor option" in text and "%pt2e lower inductor" in text
    assert run.stages == stages and run["lowered"] is on
