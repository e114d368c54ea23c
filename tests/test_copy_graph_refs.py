"""Private copies survive observers that hold fx Nodes of the graph they observe (Qualcomm QNN's
ConcatObserver, rebuilt in _concat_observer.py): pl.capture gives the observers, q/dq nodes and qparams of
torchao's own flow (which never copies), every copy's observer refers to the copy's graph, and the user's
objects stay bit-identical."""

import warnings
from collections import Counter

import pytest
import torch
from _concat_observer import ConcatLikeObserver, ConcatLikeQuantizer, TwoBranchCat
from _fingerprint import fingerprint
from _graph_reads import observer_types, qdq_nodes, torchao_flow

import pt2e_lens as pl
from pt2e_lens._copy import private_copy
from pt2e_lens._torchao import QuantizationAnnotation, QuantizationSpec, Quantizer, prepare_pt2e

X = (torch.randn(2, 3, 8, 8),)


def _batches(n: int, seed: int = 0) -> list[tuple]:
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(2, 3, 8, 8, generator=g),) for _ in range(n)]


def _torchao(model: torch.nn.Module, batches: list[tuple]) -> tuple[Counter, list]:
    observers, converted = torchao_flow(torch.export.export(model, X).module(), ConcatLikeQuantizer(), batches)
    return observers, qdq_nodes(converted, "quantize_per")


@pytest.fixture(scope="module")
def model() -> torch.nn.Module:
    torch.manual_seed(0)
    return TwoBranchCat().eval()


def test_capture_equals_torchao_with_an_observer_that_keeps_the_cat_node(model):
    batches = _batches(3)
    observers, qdq = _torchao(model, batches)
    assert observers["ConcatLikeObserver"] == 1  # the pattern is really there
    run = pl.capture(model, X, ConcatLikeQuantizer(), calibration=batches)
    assert observer_types(run["prepared"].graph_module) == observers
    assert qdq_nodes(run["converted"].graph_module, "quantize_per") == qdq  # same nodes, same scales and zero points


def test_calibrating_a_remade_copy_widens_the_copys_own_observers(model):
    """After convert, calibrate() goes on from a copy of the calibrated stage: its ConcatLikeObserver must write
    the cat inputs' ranges into that copy's observers (not the stage's), or the scales differ from torchao's."""
    batches = _batches(4, seed=1)
    _, qdq = _torchao(model, batches)
    run = pl.Run(model, X).prepare(ConcatLikeQuantizer()).calibrate(batches[:2]).convert()
    run.calibrate(batches[2:]).convert()
    assert qdq_nodes(run["converted"].graph_module, "quantize_per") == qdq


def test_copied_observer_refers_to_the_copys_graph(model):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prepared = prepare_pt2e(torch.export.export(model, X).module(), ConcatLikeQuantizer())
    before = fingerprint(prepared)
    copy = private_copy(prepared)
    (obs,) = [m for m in copy.modules() if isinstance(m, ConcatLikeObserver)]
    assert obs.concat_node.graph is copy.graph
    assert all(n.graph is copy.graph for n in obs.input_nodes)
    copy(*X)  # calibrating the copy widens the copy's input observers only
    assert obs.input_observers and all(any(o is m for m in copy.modules()) for o in obs.input_observers)
    assert fingerprint(prepared) == before


def test_user_objects_stay_bit_identical(model):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ep = torch.export.export(model, X)
        gm = ep.module()
    quantizer = ConcatLikeQuantizer()
    prints = [fingerprint(model), fingerprint(ep), fingerprint(gm)]
    pl.capture(model, X, quantizer, calibration=_batches(2))
    for source in (ep, gm):
        run = pl.Run(source).prepare(quantizer).calibrate(_batches(2))
        run["calibrated"].graph_module  # noqa: B018 (made from a copy of the prepared stage)
        run.convert()
    assert [fingerprint(model), fingerprint(ep), fingerprint(gm)] == prints


class _ForeignNodeObserver(ConcatLikeObserver):
    """Keeps a Node of another graph (one deepcopy cannot copy: its meta holds FakeTensors)."""

    def __init__(self, node_name, graph, **kwargs):
        foreign = torch.export.export(TwoBranchCat(), X).module().graph
        super().__init__(node_name, foreign, **kwargs)


class _ForeignQuantizer(Quantizer):
    def annotate(self, model):
        for node in model.graph.nodes:
            if node.op == "call_function" and node.target == torch.ops.aten.cat.default:
                spec = QuantizationSpec(
                    dtype=torch.uint8,
                    quant_min=0,
                    quant_max=255,
                    qscheme=torch.per_tensor_affine,
                    is_dynamic=False,
                    observer_or_fake_quant_ctr=_ForeignNodeObserver.with_args(node_name=node.name, graph=node.graph),
                )
                node.meta["quantization_annotation"] = QuantizationAnnotation(output_qspec=spec, _annotated=True)
        return model

    def validate(self, model):
        pass


def test_a_copy_that_cannot_be_made_is_one_line_and_keeps_the_stages(model):
    run = pl.Run(model, X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(pl.Pt2eLensError) as e:
            run.prepare(_ForeignQuantizer())
    msg = str(e.value)
    assert "\n" not in msg and "activation_post_process" in msg and "_ForeignNodeObserver" in msg
    assert run.stages == ["exported"]
    run.prepare(ConcatLikeQuantizer()).calibrate(_batches(1)).convert()  # the run goes on
    assert "converted" in run


def test_a_copys_tensors_are_what_deepcopy_makes(model):
    """Plain tensors are cloned into deepcopy's memo (_copy.plain_copies): the copy holds equal bytes in the same
    layout on storage of its own, as copy.deepcopy makes them; tensors sharing one storage still share one."""
    import copy

    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config())
        gm = prepare_pt2e(torch.export.export(model, X).module(), quantizer)
        for b in _batches(2):
            gm(*b)
    obs = next(m for m in gm.modules() if hasattr(m, "min_val") and m.min_val.dim() == 0)
    obs.register_buffer("view_of_min", obs.min_val.view(-1))  # shares min_val's storage
    obs.strided = torch.arange(12.0).reshape(3, 4).t()  # not contiguous: left to deepcopy
    ours, theirs = private_copy(gm), copy.deepcopy(gm)
    before = gm.state_dict(keep_vars=True)
    for (name, a), (_, b) in zip(ours.state_dict(keep_vars=True).items(), theirs.state_dict(keep_vars=True).items()):
        assert type(a) is type(b) and a.stride() == b.stride() and a.storage_offset() == b.storage_offset(), name
        assert torch.equal(a, before[name]), name
        assert a.untyped_storage().data_ptr() != before[name].untyped_storage().data_ptr(), name
    copied = next(m for m in ours.modules() if hasattr(m, "view_of_min"))
    assert copied.view_of_min.untyped_storage().data_ptr() == copied.min_val.untyped_storage().data_ptr()
    assert copied.strided.stride() == obs.strided.stride() and torch.equal(copied.strided, obs.strided)
