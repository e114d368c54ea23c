"""pl.workbench: each step equals torchao's own (observers in the prepared graph, q/dq in the converted one, the
output SQNR), fp32 picks are pl.KeepFp32's, a rerun compares with the run before it, and nothing the user
handed in changes."""

import copy
import pickle
import warnings

import pytest
import torch
from _fingerprint import fingerprint
from _xnnpack_models import ResBlock

import pt2e_lens as pl
from pt2e_lens._torchao import convert_pt2e, is_observer_module, prepare_pt2e
from pt2e_lens.examples import OutlierNet, image_batches, xnnpack_quantizer
from pt2e_lens.prepare.presets import PRESETS
from pt2e_lens.why.sensitivity import sqnr_db

QDQ = ("quantize_per_tensor", "quantize_per_channel", "dequantize_per_tensor", "dequantize_per_channel")


def _batches(n=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(2, 8, 8, 8, generator=g),) for _ in range(n)]


def _observers(gm):
    modules = dict(gm.named_modules())
    return sum(1 for n in gm.graph.nodes if n.op == "call_module" and is_observer_module(modules.get(n.target)))


def _qdq(gm):
    return sum(1 for n in gm.graph.nodes if n.op == "call_function" and any(q in str(n.target) for q in QDQ))


def _torchao(model, inputs, quantizer, batches):
    """torchao's own flow on a copy of the model: (prepared observer count, converted q/dq count, output SQNR)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ep = torch.export.export(copy.deepcopy(model), inputs)
        prepared = prepare_pt2e(ep.module(check_guards=False), quantizer)
        observers = _observers(prepared)
        with torch.no_grad():
            for b in batches:
                prepared(*b)
        converted = convert_pt2e(prepared)
        with torch.no_grad():
            ref = [ep.module()(*b) for b in batches]
            out = [converted(*b) for b in batches]
    return observers, _qdq(converted), sqnr_db(ref, out)


@pytest.fixture(scope="module")
def through_convert():
    model, batches = ResBlock().eval(), _batches()
    wb = pl.workbench(model, batches[0], calibration=batches)
    for _ in range(4):
        wb.advance()
    return model, batches, wb


def test_the_steps_are_torchaos_steps(through_convert):
    model, batches, wb = through_convert
    assert wb.done == ["export", "prepare", "calibrate", "convert"] and wb.next_step == "lower"
    assert wb.run.stages == ["exported", "annotated", "prepared", "calibrated", "converted"]
    observers, qdq, sqnr = _torchao(model, batches[0], PRESETS["xnnpack"].build(), batches)
    assert observers > 0 and qdq > 0
    assert _observers(wb.run["prepared"].graph_module) == observers
    assert _qdq(wb.run["converted"].graph_module) == qdq
    assert wb.run["calibrated"].info["batches"] == len(batches) == wb.seen
    assert wb.sqnr == pytest.approx(sqnr, abs=1e-6)


def test_a_preset_is_executorchs_xnnpack_quantizer_and_the_cli_x86_is_the_preset():
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import XNNPACKQuantizer

    from pt2e_lens.examples import quantizer_by_name

    assert isinstance(PRESETS["xnnpack_dynamic"].build(), XNNPACKQuantizer)
    assert PRESETS["xnnpack_dynamic"].build().global_config.input_activation.is_dynamic
    assert not PRESETS["xnnpack"].build().global_config.input_activation.is_dynamic
    assert type(quantizer_by_name("x86")) is type(PRESETS["x86"].build())


def test_keep_fp32_of_a_module_is_pl_keepfp32_and_rerun_compares(through_convert):
    model, batches, wb = through_convert
    wb = pl.workbench(model, batches[0], calibration=batches)
    for _ in range(4):
        wb.advance()
    before_observers = _observers(wb.run["prepared"].graph_module)
    wb.keep_fp32(model.conv2)  # the module instance: every node inside it
    assert [p.label for p in wb.picks] == ["conv2"]
    result = wb.rerun()
    assert wb.previous is result.previous and wb.run is result.current and wb.run is not wb.previous
    keep = wb.run.quantizer
    assert isinstance(keep, pl.KeepFp32) and keep.outputs
    observers, qdq, sqnr = _torchao(
        model, batches[0], pl.KeepFp32(PRESETS["xnnpack"].build(), keep.edges, keep.outputs), batches
    )
    assert _observers(wb.run["prepared"].graph_module) == observers < before_observers
    assert _qdq(wb.run["converted"].graph_module) == qdq
    assert wb.sqnr == pytest.approx(sqnr, abs=1e-6)
    # the conv inside conv2 has an fp32 weight and no quantize after it in the converted graph
    conv = next(
        n
        for n in wb.run["converted"].graph_module.graph.nodes
        if n.target == torch.ops.aten.conv2d.default and "conv2" in str(n.meta.get("nn_module_stack"))
    )
    weight = conv.args[1]
    assert not (weight.op == "call_function" and "dequantize" in str(weight.target))
    assert not any("quantize" in str(u.target) for u in conv.users)
    rows = {r[0]: r[1:] for r in result.rows}
    assert rows["observers (prepared)"] == (before_observers, observers, observers - before_observers)
    assert rows["output SQNR (dB)"][1] == pytest.approx(sqnr, abs=1e-6)
    wb.quantize("conv2")
    assert wb.picks == []


def test_keep_fp32_of_a_node_name_drops_its_inputs_and_output(through_convert):
    model, batches, wb = through_convert
    wb = pl.workbench(model, batches[0], calibration=batches)
    wb.advance().advance()
    linear = next(n["id"] for n in wb.run["annotated"].snapshot.nodes if n["target"].startswith("linear"))
    wb.keep_fp32(linear)
    wb.rerun()
    prepared = wb.run["prepared"].graph_module
    node = next(n for n in prepared.graph.nodes if n.name == linear)
    modules = dict(prepared.named_modules())
    assert not any(is_observer_module(modules.get(a.target)) for a in node.all_input_nodes if a.op == "call_module")
    assert not any(is_observer_module(modules.get(u.target)) for u in node.users if u.op == "call_module")


def test_nothing_the_user_handed_in_changes():
    model, batches = ResBlock().eval(), _batches()
    quantizer = xnnpack_quantizer(per_channel=True)
    before = (fingerprint(model), pickle.dumps(quantizer), [fingerprint_tensor(b[0]) for b in batches])
    wb = pl.workbench(model, batches[0], quantizer=quantizer, calibration=batches)
    for _ in range(4):
        wb.advance()
    wb.keep_fp32(model.fc)
    wb.rerun()
    assert wb.run.quantizer.quantizer is quantizer  # wrapped, not changed
    assert (fingerprint(model), pickle.dumps(quantizer), [fingerprint_tensor(b[0]) for b in batches]) == before


def fingerprint_tensor(t):
    return (t.dtype, tuple(t.shape), bytes(t.contiguous().view(torch.uint8).reshape(-1).tolist()))


def test_recipe_offers_picks_that_accept_takes_and_rerun_applies():
    batches = image_batches(3)
    model = OutlierNet().eval()
    wb = pl.workbench(model, batches[0], quantizer=xnnpack_quantizer(), calibration=batches)
    for _ in range(4):
        wb.advance()
    offered = wb.recipe(target_sqnr=30.0)
    assert [s.tensor for s in offered.sites] == ["conv2_weight"]
    wb.accept()
    result = wb.rerun()
    assert wb.run.quantizer.edges == offered.quantizer.edges and wb.run.quantizer.outputs == offered.quantizer.outputs
    assert wb.sqnr == pytest.approx(offered.verified_db, abs=1e-6) and wb.sqnr >= 30.0
    sqnr_row = next(r for r in result.rows if r[0] == "output SQNR (dB)")
    assert sqnr_row[1] < 30.0 <= sqnr_row[2]
