"""The lowering framework without a compile: the registry, Run.lower's refusals, the lowered stage's contract.

A hand-made BackendRecord stands in for a backend here: what is tested is how a Run, its snapshot and
pl.backend carry ANY backend's outcomes (the Inductor outcomes themselves: test_backend_inductor.py)."""

import json

import pytest
import torch
from torchao.quantization.pt2e.quantizer import ComposableQuantizer

import pt2e_lens as pl
from pt2e_lens.backends import BACKENDS, BackendRecord, NodeOutcome, backend_module
from pt2e_lens.capture.lowered import lowered_stage
from pt2e_lens.examples import ConvQuantizer, calibration_batches, example_inputs, get_model
from pt2e_lens.schema import VIEW_SCHEMA
from pt2e_lens.schema.check import schema_error


@pytest.fixture(scope="module")
def run():
    return pl.capture(
        get_model("tiny").eval(), example_inputs(2), ConvQuantizer(), calibration=calibration_batches(1, 2)
    )


def _record(run) -> BackendRecord:
    """Every conv int8, its q/dq folded, the rest fp32 (with a reason on the annotated ones)."""
    snap = run["converted"].snapshot
    annotated = {a["node"] for a in snap.annotations}
    nodes = {}
    for n in snap.nodes:
        if n["role"] in ("quantize", "dequantize"):
            nodes[n["id"]] = NodeOutcome("folded", "qconv_pointwise → uint8")
        elif n["target"] == "conv2d":
            nodes[n["id"]] = NodeOutcome("int8", "qconv_pointwise <b>&amp;")
        elif n["role"] == "compute":
            nodes[n["id"]] = NodeOutcome("fp32", n["target"], "no pattern" if n["id"] in annotated else None)
    return BackendRecord("inductor", nodes, {"counters": {}}, {"freezing": True})


def test_unknown_backend_is_one_line_naming_the_known_ones(run):
    with pytest.raises(pl.Pt2eLensError) as e:
        run.lower("tensorrt")
    msg = str(e.value)
    assert "\n" not in msg and "'tensorrt'" in msg
    assert all(name in msg for name in BACKENDS)
    assert run.stages[-1] == "converted"  # nothing changed


def test_a_backend_module_not_in_this_package_is_one_line():
    if "xnnpack" not in BACKENDS:
        pytest.skip("no xnnpack entry")
    try:
        backend_module("xnnpack")
    except pl.Pt2eLensError as e:
        assert "\n" not in str(e) and "xnnpack" in str(e)


def test_lower_needs_a_converted_stage():
    r = pl.Run(get_model("tiny").eval(), example_inputs(2))
    with pytest.raises(pl.Pt2eLensError, match=r"run\.convert\(\)") as e:
        r.lower("inductor")
    assert "\n" not in str(e.value)
    assert r.stages == ["exported"] and r["exported"].snapshot.nodes  # still usable


def test_pl_backend_before_lower_says_what_to_call(run):
    with pytest.raises(pl.Pt2eLensError, match=r"run\.lower\(\"inductor\"\)"):
        pl.backend(run)


def test_lowered_stage_carries_the_outcomes_in_the_contract(run):
    rec = _record(run)
    stage = lowered_stage(run["converted"], rec)
    snap = stage.snapshot
    assert snap.stage == "lowered" and stage.backend is rec
    assert schema_error(snap.data, VIEW_SCHEMA, "Snapshot") is None
    again = pl.Snapshot.from_json(snap.to_json())  # a saved lowered snapshot loads
    assert again.data["backend"]["nodes"] == snap.data["backend"]["nodes"]
    assert snap.data["backend"]["counts"] == rec.counts()
    # the converted snapshot itself is unchanged: no backend field, its own stage name
    assert "backend" not in run["converted"].snapshot.data and run["converted"].snapshot.stage == "converted"
    old = json.loads(run["converted"].snapshot.to_json())  # a document from before the backend field
    assert pl.Snapshot.from_json(json.dumps(old)).stage == "converted"


def test_pl_backend_table_one_row_per_outcome(run):
    rec = _record(run)
    stage = lowered_stage(run["converted"], rec)
    t = pl.backend(stage)
    assert t.columns == ["node", "op", "outcome", "kernel", "reason"]
    assert {r[0] for r in t.rows} == set(rec.nodes)
    assert t.counts == rec.counts()
    for node, op, outcome, kernel, reason in t.rows:
        assert (outcome, kernel, reason) == (rec.nodes[node].outcome, rec.nodes[node].kernel, rec.nodes[node].reason)
        assert op == run["converted"].snapshot.node[node]["target"]
    assert all(str(n) in t.title for n in rec.counts().values())


def test_unknown_outcome_is_refused():
    with pytest.raises(ValueError, match="unknown backend outcome"):
        NodeOutcome("int4")


def test_compare_converted_with_lowered_aligns_every_node(run):
    stage = lowered_stage(run["converted"], _record(run))
    d = pl.stage_diff(run["converted"], stage)
    assert {a for a, _ in d.kept} == {n["id"] for n in run["converted"].snapshot.nodes}
    assert all(a == b for a, b in d.kept) and not d.removed and not d.added
    view = pl.compare([run["converted"], stage])
    # a lowered stage's pane is named by its backend (two lowerings then read "Inductor" / "XNNPACK")
    assert [p["label"] for p in view.view["panes"]] == ["converted", "Inductor"]


class _NoGrad(torch.nn.Module):
    """executorch#22069: a forward under no_grad exports as a wrap_with_set_grad_enabled region."""

    def __init__(self) -> None:
        super().__init__()
        self.c = torch.nn.Conv2d(3, 4, 3)

    @torch.no_grad()
    def forward(self, x):
        return torch.relu(self.c(x))


def _all_fp32(run, **options) -> BackendRecord:
    snap = run["converted"].snapshot
    nodes = {
        n["id"]: NodeOutcome("fp32", n["target"])
        for n in snap.nodes
        if n["role"] in ("compute", "quantize", "dequantize")
    }
    return BackendRecord("inductor", nodes, {}, {"freezing": True, **options})


def _kinds(stage) -> list[str]:
    return [f["kind"] for f in stage.snapshot.findings if f["kind"].startswith("backend-")]


def test_findings_a_forward_under_no_grad_prepared_nothing():
    x = torch.randn(1, 3, 8, 8)
    run = pl.capture(_NoGrad().eval(), (x,), ConvQuantizer(), calibration=[(x,)])
    stage = lowered_stage(run["converted"], _all_fp32(run))
    assert _kinds(stage) == ["backend-no-grad"]
    f = next(f for f in stage.snapshot.findings if f["kind"] == "backend-no-grad")
    assert "torch.no_grad()" in f["message"] and "executorch#22069" in f["message"] and f["nodes"]
    assert all(stage.snapshot.node[n]["target"] == "wrap_with_set_grad_enabled" for n in f["nodes"])


def test_findings_nothing_annotated_and_nothing_int8(run):
    x = example_inputs(2)
    bare = pl.capture(get_model("tiny").eval(), x, ComposableQuantizer([]), calibration=[x])
    assert _kinds(lowered_stage(bare["converted"], _all_fp32(bare))) == ["backend-nothing-annotated"]
    stage = lowered_stage(run["converted"], _all_fp32(run))
    annotated = {a["node"] for a in run["converted"].snapshot.annotations}
    f = [f for f in stage.snapshot.findings if f["kind"] == "backend-nothing-int8"]
    assert len(f) == 1 and set(f[0]["nodes"]) == annotated and "pl.backend(run)" in f[0]["message"]
    off = lowered_stage(run["converted"], _all_fp32(run, freezing=False))
    assert _kinds(off) == ["backend-freezing-off"]  # the one cause, with what to set
    assert "freezing=True" in off.snapshot.findings[-1]["message"]


def test_findings_some_annotated_ops_fp32_name_their_reason(run):
    rec = _record(run)  # every conv int8; one of them now fp32, with the backend's reason
    convs = [n for n, o in rec.nodes.items() if o.outcome == "int8"]
    assert len(convs) > 1
    rec.nodes[convs[0]] = NodeOutcome("fp32", "convolution", "no fusion pattern for conv2d")
    stage = lowered_stage(run["converted"], rec)
    f = [f for f in stage.snapshot.findings if f["kind"] == "backend-annotated-fp32"]
    assert len(f) == 1 and f[0]["nodes"] == [convs[0]] and "no fusion pattern for conv2d" in f[0]["message"]
    assert "\n" not in f[0]["message"] and "backend-nothing-int8" not in _kinds(stage)
