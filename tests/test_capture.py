"""pl.Run / pl.capture: every stage recorded, the user's objects never touched."""

import copy
import io
import warnings

import pytest
import torch

import pt2e_lens as pl
from pt2e_lens._torchao import Q_ANNOTATION_KEY
from pt2e_lens.examples import ConvQuantizer, calibration_batches, example_inputs, get_model


def fingerprint_module(m: torch.nn.Module) -> tuple:
    buf = io.BytesIO()
    torch.save(m.state_dict(), buf)
    return buf.getvalue(), repr(m)


def fingerprint_graph(gm: torch.fx.GraphModule) -> tuple:
    meta = [(n.name, sorted(n.meta), id(n.meta.get(Q_ANNOTATION_KEY))) for n in gm.graph.nodes]
    return gm.code, meta, fingerprint_module(gm)[0]


def test_capture_records_all_stages_in_order():
    run = pl.capture(
        get_model("tiny").eval(), example_inputs(8), ConvQuantizer(), calibration=calibration_batches(2, 8)
    )
    assert run.stages == ["exported", "annotated", "prepared", "calibrated", "converted"]
    for name in run.stages:
        assert run[name].name == name and run[name].snapshot.stage == name
    # stages are private copies, not one graph seen five times
    graphs = {id(run[s].graph_module.graph) for s in run.stages}
    assert len(graphs) == len(run.stages)


def test_user_model_and_graphs_are_untouched():
    model = get_model("tiny").eval()
    before_model = fingerprint_module(model)
    ep = torch.export.export(model, example_inputs(8))
    gm = ep.module()
    before_gm = fingerprint_graph(gm)
    before_ep = (str(ep.graph), {k: v.clone() for k, v in ep.state_dict.items()})

    pl.capture(model, example_inputs(8), ConvQuantizer(), calibration=calibration_batches(2, 8))
    run = pl.Run(gm)
    run.prepare(ConvQuantizer()).calibrate(calibration_batches(2, 8)).convert()
    pl.Run(ep).decompose("core")
    for fn in (pl.snapshot, pl.observers, pl.annotations, pl.qdq, pl.op_counts):
        fn(gm)

    assert fingerprint_module(model) == before_model
    assert fingerprint_graph(gm) == before_gm
    assert str(ep.graph) == before_ep[0]
    assert all(torch.equal(ep.state_dict[k], v) for k, v in before_ep[1].items())


def test_prepared_user_graph_annotations_untouched_by_run():
    """A user's own prepared graph (annotations included) survives pt2e-lens preparing a copy of it."""
    from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e

    gm = torch.export.export(get_model("conv_relu").eval(), example_inputs(2)).module()
    prepared = prepare_pt2e(copy.deepcopy(gm), ConvQuantizer())
    before = fingerprint_graph(prepared)
    ann_before = {
        n.name: (dict(a.input_qspec_map), a.output_qspec, a._annotated)
        for n in prepared.graph.nodes
        if (a := n.meta.get(Q_ANNOTATION_KEY))
    }
    run = pl.Run(prepared)
    run.prepare(ConvQuantizer())  # annotates and prepares its private copy
    assert fingerprint_graph(prepared) == before
    ann_after = {
        n.name: (dict(a.input_qspec_map), a.output_qspec, a._annotated)
        for n in prepared.graph.nodes
        if (a := n.meta.get(Q_ANNOTATION_KEY))
    }
    assert ann_after == ann_before


def test_stages_keep_their_own_observer_state():
    run = pl.capture(
        get_model("conv_relu").eval(), example_inputs(4), ConvQuantizer(), calibration=calibration_batches(2, 4)
    )
    prepared = pl.snapshot(run["prepared"]).observers
    calibrated = pl.snapshot(run["calibrated"]).observers
    assert all(o["min"] is None for o in prepared)
    assert all(o["min"] is not None and o["scale"] is not None for o in calibrated)
    # the recorded scale is the one torchao's observer computes
    mods = dict(run["calibrated"].graph_module.named_modules())
    for o in calibrated:
        scale, _ = mods[o["names"][0]].calculate_qparams()
        assert o["scale"] == pytest.approx(scale.reshape(-1).tolist())


def test_qdq_scales_match_convert_and_observers():
    run = pl.capture(
        get_model("conv_relu").eval(), example_inputs(4), ConvQuantizer(), calibration=calibration_batches(2, 4)
    )
    obs = {o["names"][0]: o for o in pl.snapshot(run["calibrated"]).observers}
    rows = pl.snapshot(run["converted"]).qdq
    assert rows, "convert produced q/dq nodes"
    for q in rows:
        assert q["from_observer"] in obs
        assert q["scale"] == pytest.approx(obs[q["from_observer"]]["scale"])
    gm = run["converted"].graph_module
    for q in (r for r in rows if r["granularity"] == "per_tensor"):
        node = next(n for n in gm.graph.nodes if n.name == q["node"])
        assert q["scale"] == [pytest.approx(node.args[1])] and q["zero_point"] == [node.args[2]]


def test_dynamic_batch_allows_other_calibration_sizes():
    run = pl.Run(get_model("conv_relu").eval(), example_inputs(4), dynamic_batch=True)
    run.prepare(ConvQuantizer()).calibrate(calibration_batches(2, 16)).calibrate([example_inputs(3)])
    # every batch its observers saw: 2 + 1 over both calls
    assert run.stages[-1] == "calibrated" and run["calibrated"].info["batches"] == 3


def test_calibrate_accepts_a_callable():
    seen = []
    run = pl.Run(get_model("conv_relu").eval(), example_inputs(4)).prepare(ConvQuantizer())
    run.calibrate(lambda m: seen.append(m(*example_inputs(4))))
    assert len(seen) == 1 and "calibrated" in run


def test_decompose_then_prepare_uses_the_decomposed_graph():
    run = pl.Run(get_model("conv_relu").eval(), example_inputs(4)).decompose("core").prepare(ConvQuantizer())
    assert run.stages == ["exported", "decomposed", "annotated", "prepared"]
    # ConvQuantizer matches aten.conv2d only: after Core ATen it finds nothing to quantize
    assert len(pl.observers(run["prepared"])) == 0
    assert pl.op_counts(run["decomposed"])["convolution"] == 1


def test_convert_without_calibration_warns():
    run = pl.Run(get_model("conv_relu").eval(), example_inputs(4)).prepare(ConvQuantizer())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run.convert()
    assert any("without calibration" in str(w.message) for w in caught)
    assert "converted" in run


def test_snapshot_round_trips_through_json():
    run = pl.capture(
        get_model("residual").eval(), example_inputs(4), ConvQuantizer(), calibration=calibration_batches(1, 4)
    )
    for stage in run:
        snap = stage.snapshot
        again = pl.Snapshot.from_json(snap.to_json())
        assert again.data == snap.data


def test_calibrated_snapshot_reuses_convert_qparams(monkeypatch):
    """HistogramObserver.calculate_qparams costs ~0.3 s each: after convert the snapshot must not redo it."""
    from torchao.quantization.pt2e.observer import HistogramObserver, PerChannelMinMaxObserver

    run = pl.capture(
        get_model("conv_relu").eval(), example_inputs(4), ConvQuantizer(), calibration=calibration_batches(2, 4)
    )
    calls = []
    for cls in (HistogramObserver, PerChannelMinMaxObserver):
        original = cls.calculate_qparams
        monkeypatch.setattr(cls, "calculate_qparams", lambda self, _o=original: calls.append(1) or _o(self))
    observers = pl.snapshot(run["calibrated"]).observers
    assert calls == []
    assert all(o["scale"] is not None for o in observers)


def test_calibrate_and_convert_again_after_convert():
    """convert consumes the working module: calibrating on afterwards continues from the calibrated stage."""
    run = pl.Run(get_model("conv_relu").eval(), example_inputs(4)).prepare(ConvQuantizer())
    run.calibrate(calibration_batches(1, 4)).convert()
    first = pl.snapshot(run["converted"]).qdq
    run.calibrate([(example_inputs(4)[0] * 10,)])  # much wider range: scales must grow
    assert run.stages[-1] == "calibrated"
    run.convert()
    second = pl.snapshot(run["converted"]).qdq
    x_scale = lambda rows: next(r["scale"][0] for r in rows if r["kind"] == "quantize" and r["tensor"] == "x")  # noqa: E731
    assert x_scale(second) > x_scale(first) * 5


def test_annotated_graph_rebuilt_from_prepared_matches_the_live_snapshot():
    """The annotated stage is snapshotted live; its GraphModule is re-made (prepared minus observers)."""
    from torchao.quantization.pt2e.quantizer import ComposableQuantizer

    from pt2e_lens.analyses.why_lines import with_why
    from pt2e_lens.examples import AddQuantizer
    from pt2e_lens.snapshot import build

    run = pl.Run(get_model("tiny").eval(), example_inputs(8)).prepare(
        ComposableQuantizer([ConvQuantizer(), AddQuantizer()])
    )
    live = run["annotated"].snapshot
    record = run["annotated"].record
    rebuilt = with_why(build(run["annotated"].graph_module, "annotated", record), record.annotators)
    strip = lambda s: {k: s.data[k] for k in ("nodes", "edges", "specs", "annotations")}  # noqa: E731
    assert strip(rebuilt) == strip(live)
    assert not pl.observers(run["annotated"].graph_module).rows
    assert run["annotated"].graph_module is not run["prepared"].graph_module


def test_exported_stage_graph_is_made_on_demand_and_private():
    model = get_model("conv_relu").eval()
    run = pl.Run(model, example_inputs(2))
    a, b = run["exported"].graph_module, run["exported"].graph_module
    assert a is b and pl.node_count(run["exported"]) == len(a.graph.nodes)
    run.prepare(ConvQuantizer())  # prepares a fresh module, not the stage's
    assert not any(n.op == "call_module" and "activation_post_process" in str(n.target) for n in a.graph.nodes)
