"""The lowering framework without a compile: the registry, Run.lower's refusals, the lowered stage's contract.

A hand-made BackendRecord stands in for a backend here: what is tested is how a Run, its snapshot and
pl.backend carry ANY backend's outcomes (the Inductor outcomes themselves: test_backend_inductor.py)."""

import json

import pytest

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
    assert [p["label"] for p in view.view["panes"]] == ["converted", "lowered"]
