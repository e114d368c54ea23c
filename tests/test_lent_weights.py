"""The module a quantizer prepares holds aliases of the user's weights, not copies (capture/_lent.py): whatever
the quantizer writes into them, and however (an aten in-place op, `.data.copy_()`, numpy), the user's model
stays bit-identical, pt2e-lens's stages hold what torchao's own flow has, and nothing written stays shared."""

import copy
import warnings

import pytest
import torch
from _relu_mlp import BATCHES, INPUTS, seeded_mlp, state_copy
from torch import nn
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

import pt2e_lens as pl
from pt2e_lens.capture import _lent


@pytest.fixture(autouse=True, params=["file", "memory"])
def _kept_in(request, monkeypatch):
    """Every test with the lent bytes kept in the temp file and in memory (small weights' way, _lent.IN_MEMORY)."""
    monkeypatch.setattr(_lent, "IN_MEMORY", 0 if request.param == "file" else 1 << 40)


def _write_aten(p: torch.Tensor) -> None:
    with torch.no_grad():
        p.mul_(2)


def _write_data(p: torch.Tensor) -> None:
    p.data.copy_(p.data * 2)  # moves no version counter of the Parameter's


def _write_numpy(p: torch.Tensor) -> None:
    p.detach().numpy()[...] *= 2  # moves no version counter at all


WRITES = {"aten": _write_aten, "data": _write_data, "numpy": _write_numpy}


def _writing(write, when: str) -> XNNPACKQuantizer:
    """An XNNPACKQuantizer that doubles lin1's weight in place in transform_for_annotation or annotate."""

    class Writing(XNNPACKQuantizer):
        def transform_for_annotation(self, model):
            if when == "transform":
                write(model.get_parameter("lin1.weight"))
            return super().transform_for_annotation(model)

        def annotate(self, model):
            if when == "annotate":
                write(model.get_parameter("lin1.weight"))
            return super().annotate(model)

    return Writing().set_global(get_symmetric_quantization_config())


def _same(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def _torchaos(model: nn.Module, quantizer) -> tuple[torch.fx.GraphModule, torch.fx.GraphModule]:
    """torchao's own prepared (its state taken right after prepare) and converted modules."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prepared = prepare_pt2e(torch.export.export(copy.deepcopy(model), INPUTS).module(), quantizer)
        at_prepare = copy.deepcopy(prepared)
        for b in BATCHES:
            prepared(*b)
        return at_prepare, convert_pt2e(prepared)


@pytest.mark.parametrize("when", ["transform", "annotate"])
@pytest.mark.parametrize("how", list(WRITES))
def test_a_quantizer_writing_a_lent_weight_never_reaches_the_users_model(how, when):
    model = seeded_mlp()
    before = state_copy(model)
    theirs_prepared, theirs = _torchaos(model, _writing(WRITES[how], when))
    run = pl.Run(model, INPUTS).prepare(_writing(WRITES[how], when))
    assert _same(state_copy(model), before)  # bit-identical, right after prepare
    prepared = run["prepared"].own_graph().state_dict()
    assert torch.equal(prepared["lin1.weight"], before["lin1.weight"] * 2)  # what the quantizer wrote
    assert _same({k: prepared[k] for k in theirs_prepared.state_dict()}, theirs_prepared.state_dict())
    mine = {p.untyped_storage().data_ptr() for p in model.parameters()}
    assert prepared["lin1.weight"].untyped_storage().data_ptr() not in mine  # written: its own copy
    assert prepared["lin2.weight"].untyped_storage().data_ptr() in mine  # not written: the user's, no copy
    exported = run["exported"].own_graph().state_dict()
    assert torch.equal(exported["lin1.weight"], before["lin1.weight"])
    run.calibrate(BATCHES).convert()
    ours = run["converted"].own_graph()
    assert [str(n.target) for n in ours.graph.nodes] == [str(n.target) for n in theirs.graph.nodes]
    assert _same(ours.state_dict(), theirs.state_dict())
    assert _same(state_copy(model), before)


class Failing(XNNPACKQuantizer):
    """Writes lin1's weight through numpy, then fails while annotating."""

    def annotate(self, model):
        _write_numpy(model.get_parameter("lin1.weight"))
        raise RuntimeError("this quantizer fails")


def test_a_quantizer_that_writes_and_fails_leaves_the_users_model_as_it_was():
    model = seeded_mlp()
    before = state_copy(model)
    run = pl.Run(model, INPUTS)
    with pytest.raises(pl.Pt2eLensError):
        run.prepare(Failing().set_global(get_symmetric_quantization_config()))
    assert _same(state_copy(model), before)
    run.prepare(XNNPACKQuantizer().set_global(get_symmetric_quantization_config()))  # and the next prepare works
    assert torch.equal(run["prepared"].own_graph().state_dict()["lin1.weight"], before["lin1.weight"])


class Rewrapping(XNNPACKQuantizer):
    """Puts a new Parameter on lin2's weight's storage in its place (as a pass re-registering weights might)."""

    def transform_for_annotation(self, model):
        owner = model.get_submodule(next(n for n, _ in model.named_parameters() if n.endswith("lin2.weight"))[:-7])
        owner.weight = nn.Parameter(owner.weight.detach().view_as(owner.weight))
        return super().transform_for_annotation(model)


def test_a_new_tensor_the_quantizer_keeps_on_a_lent_storage_gets_its_own():
    model = seeded_mlp()
    before = state_copy(model)
    run = pl.Run(model, INPUTS).prepare(Rewrapping().set_global(get_symmetric_quantization_config()))
    kept = run._working.get_parameter("lin2.weight")  # the module prepare returned, calibrated next
    assert torch.equal(kept, before["lin2.weight"])
    assert kept.untyped_storage().data_ptr() not in {p.untyped_storage().data_ptr() for p in model.parameters()}
    with torch.no_grad():
        kept.zero_()  # later code writing it reaches no one else
    assert _same(state_copy(model), before)


class Replacing(XNNPACKQuantizer):
    """Gives lin1's weight other values by `.data =` (not in place): its alias leaves the user's storage."""

    def transform_for_annotation(self, model):
        p = model.get_parameter("lin1.weight")
        p.data = p.data * 3
        return super().transform_for_annotation(model)


def test_a_weight_the_quantizer_replaces_by_data_stays_its_own():
    model = seeded_mlp()
    before = state_copy(model)
    quantizer = Replacing().set_global(get_symmetric_quantization_config())
    theirs_prepared, _ = _torchaos(model, Replacing().set_global(get_symmetric_quantization_config()))
    run = pl.Run(model, INPUTS).prepare(quantizer)
    assert _same(state_copy(model), before)
    prepared = run["prepared"].own_graph().state_dict()
    assert torch.equal(prepared["lin1.weight"], theirs_prepared.state_dict()["lin1.weight"])
    assert torch.equal(prepared["lin1.weight"], before["lin1.weight"] * 3)
