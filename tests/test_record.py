"""`pl.record()`: the user's own PT2E code, imported by name before the block, recorded without changing it."""

import copy

import pytest
import torch

# imported by name before any block: the trampolines must reach these very function objects
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

import pt2e_lens as pl
from pt2e_lens._torchao import is_observer_module
from pt2e_lens.examples import calibration_batches, example_inputs, get_model

QDQ = ("quantize_per_tensor", "dequantize_per_tensor", "quantize_per_channel", "dequantize_per_channel")


def targets():
    """Every function pl.record swaps, with its code now; and the class dicts it reaches."""
    import torchao.quantization.pt2e.quantize_pt2e as q

    fns = [q.prepare_pt2e, q.prepare_qat_pt2e, q.convert_pt2e, torch.export.export, torch.compile]
    fns += [
        torch.export.ExportedProgram.__dict__["module"],
        torch.export.ExportedProgram.__dict__["run_decompositions"],
    ]
    # copyreg caches `__slotnames__` on a class the first time any instance is deep-copied or pickled (the
    # private copies of a program do that): Python's own cache, not a change of the class's behaviour
    cls = {k: v for k, v in torch.export.ExportedProgram.__dict__.items() if k != "__slotnames__"}
    return [(f, f.__code__) for f in fns], cls


def quantizer():
    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config())


def pipeline(model, batches, log=None):
    """What a user writes: export, ep.module(), prepare, a calibration loop, convert."""
    ep = torch.export.export(model, example_inputs(2))
    prepared = prepare_pt2e(ep.module(), quantizer())
    if log is not None:
        log["observers"] = sum(is_observer_module(m) for m in prepared.modules())
        log["prepared"] = prepared
    for (x,) in batches:
        prepared(x)
    converted = convert_pt2e(prepared)
    if log is not None:
        log["converted_is_prepared"] = converted is prepared
        log["qdq"] = sum(
            n.op == "call_function" and any(k in str(n.target) for k in QDQ) for n in converted.graph.nodes
        )
    return converted


@pytest.fixture(scope="module")
def recorded():
    model = get_model("tiny").eval()
    batches = calibration_batches(4, 2)
    before = targets()
    torch.manual_seed(0)
    plain_log: dict = {}
    plain = pipeline(copy.deepcopy(model), batches, plain_log)
    state = {k: v.clone() for k, v in model.state_dict().items()}
    torch.manual_seed(0)
    log: dict = {}
    with pl.record() as rec:
        converted = pipeline(model, batches, log)
        rng_inside = torch.rand(4)
    torch.manual_seed(0)
    pipeline(copy.deepcopy(model), batches)
    rng_plain = torch.rand(4)
    return {
        "rec": rec, "plain": plain, "plain_log": plain_log, "converted": converted, "log": log, "model": model,
        "state": state, "before": before, "rng": (rng_inside, rng_plain),
    }  # fmt: skip


def test_results_are_bit_identical_and_the_users_own(recorded):
    x = example_inputs(2)[0]
    assert torch.equal(recorded["converted"](x), recorded["plain"](x))
    sd, plain_sd = recorded["converted"].state_dict(), recorded["plain"].state_dict()
    assert sd.keys() == plain_sd.keys() and all(torch.equal(sd[k], plain_sd[k]) for k in sd)
    # convert_pt2e's own answer about identity is the same with and without the recording
    assert recorded["log"]["converted_is_prepared"] == recorded["plain_log"]["converted_is_prepared"]
    assert all(torch.equal(v, recorded["state"][k]) for k, v in recorded["model"].state_dict().items())
    assert torch.equal(*recorded["rng"])  # the side work left the random generator where the user's code had it


def test_functions_restored_after_the_block(recorded):
    (fns, cls_dict), (now_fns, now_dict) = recorded["before"], targets()
    assert [(id(f), c) for f, c in fns] == [(id(f), c) for f, c in now_fns]
    assert cls_dict == now_dict
    assert prepare_pt2e.__code__ is fns[0][1] and convert_pt2e.__code__ is fns[2][1]


def test_stages_match_the_users_own_graphs(recorded):
    run = recorded["rec"].run
    assert run.stages == ["exported", "annotated", "prepared", "calibrated", "converted"]
    assert recorded["rec"].runs == [run] and recorded["rec"].problems == []
    assert len(run["prepared"].snapshot.observers) == recorded["log"]["observers"] > 0
    assert len(run["converted"].snapshot.qdq) == recorded["log"]["qdq"] > 0
    # the annotation came through the quantizer's public annotate: every annotated node names who did it
    assert run["annotated"].snapshot.annotations and run["annotated"].record.blame
    assert run.quantizer is not None and type(run.quantizer) is XNNPACKQuantizer


def test_calibrated_stage_holds_the_users_observer_statistics(recorded):
    run, prepared = recorded["rec"].run, recorded["log"]["prepared"]
    ours = dict(run["calibrated"].graph_module.named_modules())
    # the user's prepared module was converted in place or replaced; its observers were read before that
    first = next(n for n, m in ours.items() if is_observer_module(m))
    assert torch.isfinite(ours[first].min_val).all() and ours[first].min_val.numel() > 0
    assert prepared is not None


@pytest.mark.parametrize("stop", [ValueError("boom"), KeyboardInterrupt()])
def test_restored_after_an_exception_or_ctrl_c(stop):
    before = targets()
    model = get_model("tiny").eval()
    with pytest.raises(type(stop)):
        with pl.record() as rec:
            ep = torch.export.export(model, example_inputs(2))
            prepare_pt2e(ep.module(), quantizer())
            raise stop
    now = targets()
    assert [(id(f), c) for f, c in before[0]] == [(id(f), c) for f, c in now[0]] and before[1] == now[1]
    assert rec.run.stages[-1] == "prepared"  # what was recorded up to there is kept


def test_block_that_never_quantizes_says_so_in_one_line():
    with pytest.warns(pl.Pt2eLensWarning) as caught:
        with pl.record() as rec:
            torch.export.export(get_model("tiny").eval(), example_inputs(2))
    assert len(caught) == 1 and "never called prepare_pt2e" in str(caught[0].message)
    with pytest.raises(pl.Pt2eLensError, match="never called prepare_pt2e") as e:
        _ = rec.run
    assert "\n" not in str(e.value)


def test_nested_record_is_refused_in_one_line():
    before = targets()
    with pl.record():
        with pytest.raises(pl.Pt2eLensError, match="already recording"):
            with pl.record():
                pass
        assert prepare_pt2e.__code__ is not before[0][0][1]  # the outer block is still recording
    assert [c for _, c in targets()[0]] == [c for _, c in before[0]]


def test_one_run_per_prepare_and_decomposed_stage():
    model = get_model("tiny").eval()
    with pl.record() as rec:
        ep = torch.export.export(model, example_inputs(2))
        a = prepare_pt2e(ep.module(), quantizer())
        b = prepare_pt2e(ep.run_decompositions({}).module(), quantizer())
    assert len(rec.runs) == 2 and rec.run is rec.runs[1]
    assert rec.runs[0].stages == ["exported", "annotated", "prepared"]
    assert rec.runs[1].stages == ["exported", "decomposed", "annotated", "prepared"]
    assert rec.runs[1]["decomposed"].info == {"table": "{}"}
    for run, gm in zip(rec.runs, (a, b)):
        assert len(run["prepared"].snapshot.observers) == sum(is_observer_module(m) for m in gm.modules())
