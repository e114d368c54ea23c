"""run.lower("xnnpack") on the course's `tiny` model: the lowered stage, pl.backend, the contract, the runner
(the ExecuTorch program run through ExecuTorch's runtime), and one-line refusals that leave the Run usable."""

import re

import pytest
import torch

import pt2e_lens as pl
from pt2e_lens.examples import calibration_batches, example_inputs, get_model
from pt2e_lens.schema import VIEW_SCHEMA
from pt2e_lens.schema.check import schema_error

pytest.importorskip("executorch", reason="the executorch extra: pip install 'pt2e-lens[executorch]'")

from executorch.devtools.backend_debug import get_delegation_info  # noqa: E402
from torchao.testing.pt2e._xnnpack_quantizer import (  # noqa: E402
    XNNPACKQuantizer,
    get_symmetric_quantization_config,
)


def _quantizer():
    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))


@pytest.fixture(scope="module")
def run():
    r = pl.capture(get_model("tiny").eval(), example_inputs(2), _quantizer(), calibration=calibration_batches(2, 2))
    return r.lower("xnnpack")


def _sqnr(ref, act):
    return (10 * torch.log10(ref.pow(2).mean() / (ref - act).pow(2).mean())).item()


def test_lowered_stage_carries_xnnpack_outcomes(run):
    assert run.stages[-2:] == ["converted", "lowered"]
    record = run["lowered"].backend
    assert record.backend == "xnnpack" and run["lowered"].info["backend"] == "xnnpack"
    snap = run["lowered"].snapshot
    assert schema_error(snap.data, VIEW_SCHEMA, "Snapshot") is None
    assert snap.data["backend"]["counts"] == record.counts()
    for name, o in record.nodes.items():
        entry = snap.data["backend"]["nodes"][name]
        assert entry["outcome"] == o.outcome and entry.get("partition") == o.partition
    # ExecuTorch's own count of delegated nodes is what our delegated outcomes' ExecuTorch nodes add up to
    info = get_delegation_info(record.runner.edge.exported_program().graph_module)
    delegated = sum(len(record.records["became"][n]) for n, o in record.nodes.items() if o.partition is not None)
    delegated += sum(1 for p in record.records["unattributed"].values() if p is not None)
    assert delegated == info.num_delegated_nodes > 0
    # every conv the quantizer annotated runs in an int8 XNNPACK partition
    convs = [n["id"] for n in snap.nodes if n["target"] == "conv2d"]
    assert convs and all(record.nodes[c].outcome == "delegated-int8" for c in convs)


def test_pl_backend_lists_every_outcome(run):
    t = pl.backend(run)
    record = run["lowered"].backend
    assert {r[0] for r in t.rows} == set(record.nodes) and t.counts == record.counts()
    assert t.backend == "xnnpack"


def test_runner_runs_the_executorch_program_close_to_the_converted_module(run):
    record = run["lowered"].backend
    (x,) = example_inputs(2)
    out = record.runner(x)
    ref = run["converted"].graph_module(x)
    assert out.shape == ref.shape and _sqnr(ref, out) > 30  # int8 kernels: rounding differs, not the maths
    with pytest.raises(pl.Pt2eLensError) as e:
        record.runner(torch.randn(3, 3, 32, 32))  # lowered for batch 2: static shapes
    assert "\n" not in str(e.value) and "(3, 3, 32, 32)" in str(e.value)


def test_lower_without_converted_stage_is_one_line_and_the_run_goes_on():
    r = pl.Run(get_model("tiny").eval(), example_inputs(2))
    with pytest.raises(pl.Pt2eLensError, match=r"run\.convert\(\)") as e:
        r.lower("xnnpack")
    assert "\n" not in str(e.value) and r.stages == ["exported"]
    r.prepare(_quantizer())  # still usable
    assert r.stages[-1] == "prepared"


class _Complex(torch.nn.Module):
    """A linear, then a complex view: ExecuTorch's edge dialect refuses complex tensors."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        return torch.view_as_complex(self.fc(x).reshape(2, 4, 2)).abs()


def test_a_model_executorch_cannot_lower_is_one_line_and_the_run_stays():
    x = (torch.randn(2, 8),)
    r = pl.capture(_Complex().eval(), x, _quantizer(), calibration=[x])
    with pytest.raises(pl.Pt2eLensError, match="XNNPACK") as e:
        r.lower("xnnpack")
    assert "\n" not in str(e.value) and r.stages[-1] == "converted"
    with pytest.raises(pl.Pt2eLensError) as e:  # inputs the converted module cannot take: export refuses
        r.lower("xnnpack", example_inputs=(torch.randn(2, 5),))
    assert "\n" not in str(e.value) and re.search("torch.export", str(e.value))
    assert r.stages[-1] == "converted" and r["converted"].snapshot.nodes


def test_three_way_accuracy_runs_the_executorch_program(run):
    from torch.ao.ns.fx.utils import compute_sqnr

    stage = run["lowered"]
    g = torch.Generator().manual_seed(3)
    batches = [(torch.randn(2, 3, 32, 32, generator=g),) for _ in range(2)]
    t = pl.accuracy(run, batches, backend="xnnpack")
    assert run["lowered"] is stage  # already lowered with xnnpack: not lowered again
    assert len(t.rows) == 1 and t.rows[0][4] == 2
    with torch.no_grad():
        flt = [run["exported"].graph_module(*b) for b in batches]
        conv = [run["converted"].graph_module(*b) for b in batches]
    got = [stage.backend.runner(*b) for b in batches]  # the ExecuTorch program, through ExecuTorch's runtime

    def mean(pairs):
        vals = [compute_sqnr(a, b).item() for a, b in pairs]
        finite = [v for v in vals if v != float("inf")]
        return sum(finite) / len(finite) if finite else vals[0]

    want = [mean(zip(flt, conv)), mean(zip(flt, got)), mean(zip(conv, got))]
    assert t.rows[0][1:4] == pytest.approx(want, rel=1e-3)
    assert t.rows[0][3] > 30  # XNNPACK computes what the converted module computes, to int8 rounding
