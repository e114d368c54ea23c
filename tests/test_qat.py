"""QAT through pt2e-lens: prepare_qat_pt2e (not prepare_pt2e), training, move_exported_model_to_eval, convert.

The oracle is torchao itself: its test_qat_conv2d (test/quantization/pt2e/test_x86inductor_quantizer.py,
TestQuantizePT2EX86Inductor) expects, after prepare_qat → one forward → convert of SingleConv2dModule(with_bn),
the `node_occurrence` copied below; and the prepared stage must be exactly what torchao's prepare_qat_pt2e
makes of the same export. torchao's QAT convert re-traces ~100 patterns, so the module converts once.
"""

import copy
import operator
import warnings
from collections import Counter

import pytest
import torch
from _fingerprint import fingerprint
from _torchao_models import SingleConv2dModule
from _vision_blocks import TinyResNet, seeded

import pt2e_lens as pl
from pt2e_lens._torchao import is_fake_quant_module, prepare_qat_pt2e

ops = torch.ops.quantized_decomposed
aten = torch.ops.aten

# test_x86inductor_quantizer.py::test_qat_conv2d
QAT_CONV2D_OCCURRENCE = {
    ops.quantize_per_tensor.default: 2,
    ops.dequantize_per_tensor.default: 2,
    ops.quantize_per_channel.default: 0,
    ops.dequantize_per_channel.default: 1,
    aten._native_batch_norm_legit.default: 0,
}
QAT_CONV2D_ORDER = [
    ops.quantize_per_tensor.default,
    ops.dequantize_per_tensor.default,
    aten.conv2d.default,
    ops.quantize_per_tensor.default,
    ops.dequantize_per_tensor.default,
]


def _x86_qat():
    from torchao.quantization.pt2e.quantizer import x86_inductor_quantizer as xiq

    return xiq.X86InductorQuantizer().set_global(xiq.get_default_x86_inductor_quantization_config(is_qat=True))


def _xnnpack_qat():
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True, is_qat=True))


def _targets(gm: torch.fx.GraphModule) -> list:
    return [n.target for n in gm.graph.nodes if n.op == "call_function"]


def _batch_norms(gm: torch.fx.GraphModule) -> list[torch.fx.Node]:
    return [n for n in gm.graph.nodes if n.target is aten.batch_norm.default]


def _is_subsequence(wanted: list, seen: list) -> bool:
    it = iter(seen)
    return all(any(t == w for t in it) for w in wanted)


@pytest.fixture(scope="module")
def conv2d():
    """torchao's test_qat_conv2d through pl.capture(qat=True): the model in eval mode, as torchao's test hands it."""
    torch.manual_seed(0)
    model = SingleConv2dModule(with_bn=True).eval()
    x = (torch.randn(2, 3, 16, 16),)
    before = fingerprint(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.capture(model, x, _x86_qat(), qat=True, strict=True, train=lambda m: m(*x))
    return {"model": model, "x": x, "before": before, "run": run}


def test_qat_conv2d_converts_to_what_torchao_expects(conv2d):
    run = conv2d["run"]
    assert run.stages == ["exported", "annotated", "prepared", "trained", "converted"]
    converted = _targets(run["converted"].graph_module)
    assert {op: Counter(converted)[op] for op in QAT_CONV2D_OCCURRENCE} == QAT_CONV2D_OCCURRENCE
    assert _is_subsequence(QAT_CONV2D_ORDER, converted)
    assert not _batch_norms(run["converted"].graph_module)  # folded into the conv at convert
    kinds = Counter(q["kind"] for q in run["converted"].snapshot.qdq)
    assert kinds == {"quantize": 2, "dequantize": 3}  # the per-channel weight's quantize is constant-folded


def test_qat_prepared_stage_has_the_fused_pattern_and_fake_quants(conv2d):
    run = conv2d["run"]
    prepared = run["prepared"].graph_module
    fake_quants = [m for m in prepared.modules() if is_fake_quant_module(m)]
    assert len(fake_quants) == 3  # conv input, conv weight, batch-norm output
    (bn,) = _batch_norms(prepared)
    assert bn.args[5] is True  # batch norm keeps training (exported in train mode)
    targets = Counter(_targets(prepared))
    assert targets[aten.sqrt.default] == 1 and targets[aten.div.Tensor] == 2  # the QAT pattern's bn scale factor
    assert [o["class"] for o in run["prepared"].snapshot.observers] == [type(m).__name__ for m in fake_quants]
    # annotate ran before the fusion: that stage shows the plain conv → batch_norm the quantizer saw
    assert Counter(_targets(run["annotated"].graph_module))[aten.sqrt.default] == 0
    assert _batch_norms(run["annotated"].graph_module)


def test_a_qat_runs_ranges_read_its_trained_stage(conv2d):
    run = conv2d["run"]
    trained = pl.observer_ranges(run["trained"]).rows
    assert trained and pl.observer_ranges(run).rows == trained  # not the prepared stage's: no data seen there
    assert pl.observer_ranges(run["prepared"]).rows != trained


def test_sensitivity_of_a_qat_run_with_a_folded_weight_is_one_line(conv2d):
    # convert folded the batch norm into the trained weight and kept only its int8: no fp32 side to switch to
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.sensitivity(conv2d["run"], [conv2d["x"]])
    text = str(e.value)
    assert "\n" not in text and "o1 (mul)" in text and "qat=True" in text, text


def test_accuracy_of_a_qat_weight_is_against_the_weight_it_trained():
    from torch.ao.ns.fx.utils import compute_sqnr

    torch.manual_seed(0)
    x = (torch.randn(4, 8),)
    steps = [(x[0], torch.randn(4, 4)) for _ in range(3)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.Run(torch.nn.Sequential(torch.nn.Linear(8, 4)).train(), x).prepare_qat(_xnnpack_qat())
        run.train(steps, loss=torch.nn.functional.mse_loss, optimizer=lambda p: torch.optim.SGD(p, lr=0.5)).convert()
        (row,) = [r for r in pl.accuracy(run, [x]).rows if r[0].startswith("_0_weight")]
    gm = run["converted"].graph_module
    dq = next(n for n in gm.graph.nodes if n.name == row[1])
    args = [operator.attrgetter(a.target)(gm) if isinstance(a, torch.fx.Node) else a for a in dq.args]

    def weight(stage: str) -> torch.Tensor:
        g = run[stage].graph_module
        return operator.attrgetter(next(n.target for n in g.graph.nodes if n.name == "_0_weight"))(g)

    trained = compute_sqnr(weight("trained"), dq.target(*args)).item()
    untrained = compute_sqnr(weight("prepared"), dq.target(*args)).item()
    # the row (torchao's compare_results) is near the trained weight's SQNR, far from the prepared one's
    assert abs(row[2] - trained) < 2 < abs(row[2] - untrained), (row[2], trained, untrained)


def test_qat_capture_leaves_the_eval_model_as_it_was(conv2d):
    model = conv2d["model"]
    assert not model.training and not any(m.training for m in model.modules())
    assert fingerprint(model) == conv2d["before"]
    # it was exported in train mode all the same: batch norm's statistics update (num_batches_tracked += 1)
    exported = conv2d["run"]["exported"].graph_module
    assert aten.add_.Tensor in _targets(exported)


@pytest.fixture(scope="module")
def block():
    """A torchvision-style ResNet (stem, two BasicBlocks, pool, fc) in train mode, QAT-prepared by pl and by
    torchao's own prepare_qat_pt2e on the same export."""
    model = seeded(TinyResNet()).train()
    x = (torch.randn(4, 3, 16, 16, generator=torch.Generator().manual_seed(1)),)
    before = fingerprint(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.Run(model, x).prepare_qat(_xnnpack_qat())
        theirs = prepare_qat_pt2e(torch.export.export(copy.deepcopy(model), x).module(), _xnnpack_qat())
    return {"model": model, "x": x, "before": before, "run": run, "theirs": theirs}


def test_prepare_qat_is_torchaos_prepare_qat(block):
    ours = block["run"]["prepared"].graph_module
    theirs = block["theirs"]
    assert len(ours.graph.nodes) == len(theirs.graph.nodes)
    assert Counter(_targets(ours)) == Counter(_targets(theirs))
    assert len(_batch_norms(ours)) == 6  # every batch norm kept (stem, 2 + 2, downsample), none folded
    fq = Counter(type(m).__name__ for m in ours.modules() if is_fake_quant_module(m))
    assert fq == Counter(type(m).__name__ for m in theirs.modules() if is_fake_quant_module(m))
    assert len(block["run"]["prepared"].snapshot.observers) == sum(fq.values())
    assert fingerprint(block["model"]) == block["before"]


def test_ptq_path_refuses_a_qat_quantizer(block):
    with pytest.raises(pl.Pt2eLensError) as e, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pl.capture(block["model"], block["x"], _xnnpack_qat())
    text = str(e.value)
    assert "\n" not in text and "qat=True" in text and "prepare_qat" in text and "fake-quantize" in text
    assert fingerprint(block["model"]) == block["before"]


def test_train_learns_scales_shown_in_the_observers_table(block):
    run = block["run"]
    gen = torch.Generator().manual_seed(2)
    batches = [(torch.randn(4, 3, 16, 16, generator=gen), torch.randint(0, 4, (4,), generator=gen)) for _ in range(3)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run.train(batches, loss=torch.nn.functional.cross_entropy)
    assert run.stages[-1] == "trained" and run["trained"].info == {"steps": 3}
    trained, prepared = run["trained"].graph_module, run["prepared"].graph_module
    table = pl.observers(run)  # a Run's observers are read from its trained stage
    assert len(table) == len(run["prepared"].snapshot.observers)
    for name, scale, zero_point in zip(table.column("names"), table.column("scale"), table.column("zero_point")):
        fq = trained.get_submodule(name.split(", ")[0])
        assert scale == fq.scale.tolist() and zero_point == fq.zero_point.tolist()
        assert prepared.get_submodule(name.split(", ")[0]).scale.tolist() == [1.0]  # the prepared stage kept its own
    assert all(s is None for s in pl.observers(run["prepared"]).column("scale"))  # nothing seen before training
    w = "conv1.weight"
    assert not torch.equal(trained.get_parameter(w), prepared.get_parameter(w))  # the optimizer stepped
    assert fingerprint(block["model"]) == block["before"]


def test_train_errors_are_one_line_and_keep_the_run(block):
    run = block["run"]
    stages = run.stages
    x = block["x"][0]
    bad = [
        ([(x, torch.zeros(4, dtype=torch.long))], None, "loss="),  # batches without a loss
        ([x], torch.nn.functional.cross_entropy, "(*inputs, target)"),  # a batch without a target
        ([], torch.nn.functional.cross_entropy, "no batches"),
        ("x", None, "got str"),
        ([(x, torch.zeros(4))], lambda out, t: out.sum() + t, "train step 0 raised RuntimeError"),
    ]
    for steps, loss, words in bad:
        with pytest.raises(pl.Pt2eLensError) as e:
            run.train(steps, loss=loss)
        assert words in str(e.value) and "\n" not in str(e.value), str(e.value)
        assert run.stages == stages

    def fails(m):
        raise ValueError("boom")

    with pytest.raises(pl.Pt2eLensError, match="train\\(fn\\) raised ValueError: boom"):
        run.train(fails)
    assert run.stages == stages


def test_train_needs_the_qat_path(tiny_gm):
    with pytest.raises(pl.Pt2eLensError, match="prepare_qat"):
        pl.Run(tiny_gm).train(lambda m: None)
    with pytest.raises(pl.Pt2eLensError, match="qat=True"):
        pl.capture(tiny_gm, None, _xnnpack_qat(), train=lambda m: None)
