"""A Run's stages share the weights instead of one copy each (capture/_shared.py), and stay exact when code
writes into them in place: the user's model keeps its values, each stage holds what torchao's own flow has
at that step, and a graph handed to the user is its own."""

import copy
import warnings

import torch
from _relu_mlp import BATCHES, INPUTS, seeded_mlp, state_copy
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

import pt2e_lens as pl


class Doubling(XNNPACKQuantizer):
    """Writes into lin1's weight in place before annotating (as a smoothing transform might)."""

    def transform_for_annotation(self, model):
        for name, p in model.named_parameters():
            if name.endswith("lin1.weight"):
                with torch.no_grad():
                    p.mul_(2)
        return super().transform_for_annotation(model)


def _config(q):
    return q.set_global(get_symmetric_quantization_config())


def _weights(gm: torch.fx.GraphModule) -> dict[str, torch.Tensor]:
    return {k: v for k, v in gm.state_dict().items() if k.endswith("weight")}


def test_stages_share_the_weights_the_user_model_keeps_its_own():
    model = seeded_mlp()
    before = state_copy(model)
    run = pl.capture(model, INPUTS, _config(XNNPACKQuantizer()), calibration=BATCHES)
    mine = {t.untyped_storage().data_ptr() for t in model.parameters()}
    prepared = run["prepared"].own_graph()
    weights = [t for k, t in prepared.state_dict().items() if k.endswith("weight")]
    assert weights and all(t.untyped_storage().data_ptr() in mine for t in weights)  # no copy of its own
    assert not run["calibrated"].handed_out
    calibrated = run["calibrated"].own_graph()
    assert all(
        t.untyped_storage().data_ptr() in mine for k, t in calibrated.state_dict().items() if k.endswith("weight")
    )
    after = state_copy(model)
    assert before.keys() == after.keys() and all(torch.equal(before[k], after[k]) for k in before)


def test_a_handed_out_program_has_its_own_weights():
    model = seeded_mlp()
    before = state_copy(model)
    run = pl.capture(model, INPUTS, _config(XNNPACKQuantizer()), calibration=BATCHES)
    ep = run["exported"].exported_program
    mine = {t.untyped_storage().data_ptr() for t in model.parameters()}
    assert not mine & {t.untyped_storage().data_ptr() for t in ep.state_dict.values()}
    m = ep.module()
    with torch.no_grad():
        for p in m.parameters():
            p.zero_()
    after = state_copy(model)
    assert all(torch.equal(before[k], after[k]) for k in before)
    kept = _weights(run["prepared"].own_graph())
    assert torch.equal(kept["lin1.weight"], before["lin1.weight"])


def test_a_quantizer_writing_a_weight_in_place_reaches_only_the_prepared_stage():
    model = seeded_mlp()
    before = state_copy(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = prepare_pt2e(torch.export.export(copy.deepcopy(model), INPUTS).module(), _config(Doubling()))
    run = pl.Run(model, INPUTS).prepare(_config(Doubling()))
    for k, t in state_copy(model).items():
        assert torch.equal(t, before[k])  # the user's model as it was
    exported = _weights(run["exported"].own_graph())
    assert torch.equal(exported["lin1.weight"], before["lin1.weight"])  # the exported stage as exported
    prepared = _weights(run["prepared"].own_graph())
    assert torch.equal(prepared["lin1.weight"], theirs.state_dict()["lin1.weight"])  # what torchao's prepare has
    assert torch.equal(prepared["lin1.weight"], before["lin1.weight"] * 2)
    run.calibrate(BATCHES).convert()  # and the steps after it still run on the written weight
    for k, t in state_copy(model).items():
        assert torch.equal(t, before[k])


def test_a_calibration_callable_writing_a_weight_stays_in_the_working_module():
    model = seeded_mlp()
    before = state_copy(model)

    def calibrate(m):
        m(*INPUTS)
        with torch.no_grad():
            m.lin2.weight.add_(1)

    run = pl.Run(model, INPUTS).prepare(_config(XNNPACKQuantizer())).calibrate(calibrate)
    assert torch.equal(_weights(run["prepared"].own_graph())["lin2.weight"], before["lin2.weight"])
    assert torch.equal(_weights(run["calibrated"].own_graph())["lin2.weight"], before["lin2.weight"] + 1)
    assert torch.equal(_weights(run["exported"].own_graph())["lin2.weight"], before["lin2.weight"])
    assert torch.equal(model.lin2.weight, before["lin2.weight"])


def test_a_handed_out_graph_is_its_own():
    model = seeded_mlp()
    run = pl.capture(model, INPUTS, _config(XNNPACKQuantizer()), calibration=BATCHES)
    gm = run["prepared"].graph_module
    with torch.no_grad():
        gm.lin1.weight.zero_()
    assert run["prepared"].graph_module is gm  # the same object on every ask
    kept = _weights(run["exported"].own_graph())["lin1.weight"]
    assert torch.equal(kept, model.lin1.weight) and kept.abs().sum() > 0
    again = pl.Run(model, INPUTS).prepare(_config(XNNPACKQuantizer()))
    assert torch.equal(_weights(again["prepared"].own_graph())["lin1.weight"], model.lin1.weight)


def test_counts_equal_torchaos_with_shared_weights():
    model = seeded_mlp()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prepared = prepare_pt2e(torch.export.export(copy.deepcopy(model), INPUTS).module(), _config(XNNPACKQuantizer()))
        for b in BATCHES:
            prepared(*b)
        theirs = convert_pt2e(prepared)
    run = pl.capture(model, INPUTS, _config(XNNPACKQuantizer()), calibration=BATCHES)
    ours = run["converted"].own_graph()
    assert [str(n.target) for n in ours.graph.nodes] == [str(n.target) for n in theirs.graph.nodes]
    mine, real = ours.state_dict(), theirs.state_dict()
    assert mine.keys() == real.keys() and all(torch.equal(mine[k], real[k]) for k in real)


def test_a_write_into_the_users_own_model_is_followed_with_one_warning_as_torchaos_flow_does():
    # torch.export's program and torchao's prepared module share the model's Parameters: a weight the user
    # changes after export reaches what convert_pt2e makes. The Run's stages share them too, so they follow
    # it, and one warning names the weight (not an error that would stop every later step).
    model, theirs = seeded_mlp(), seeded_mlp()
    run = pl.capture(model, INPUTS, _config(XNNPACKQuantizer()))
    prepared = prepare_pt2e(torch.export.export(theirs, INPUTS).module(), _config(XNNPACKQuantizer()))
    for m in (model, theirs):
        with torch.no_grad():
            m.lin1.weight.add_(0.5)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        run.calibrate(BATCHES)
        run.convert()
    changed = [
        str(w.message) for w in seen if issubclass(w.category, pl.Pt2eLensWarning) and "lin1.weight" in str(w.message)
    ]
    assert len(changed) == 1, [str(w.message) for w in seen]
    for b in BATCHES:
        prepared(*b)
    converted = convert_pt2e(prepared)
    assert torch.equal(run["converted"].graph_module(*INPUTS), converted(*INPUTS))
