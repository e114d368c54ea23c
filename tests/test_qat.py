"""QAT through pt2e-lens: prepare_qat_pt2e (not prepare_pt2e), training, move_exported_model_to_eval, convert.

The oracle is torchao itself: its test_qat_conv2d (test/quantization/pt2e/test_x86inductor_quantizer.py,
TestQuantizePT2EX86Inductor) expects, after prepare_qat → one forward → convert of SingleConv2dModule(with_bn),
the `node_occurrence` copied below; and the prepared stage must be exactly what torchao's prepare_qat_pt2e
makes of the same export. torchao's QAT convert re-traces ~100 patterns, so the module converts once.
Its training step is a real SGD step (torchao's test only runs a forward): the counts do not depend on the
weights, and the accuracy tests need weights that moved.
"""

import copy
import math
import operator
import warnings
from collections import Counter

import pytest
import torch
from _fingerprint import fingerprint
from _torchao_models import SingleConv2dModule
from _vision_blocks import TinyResNet, seeded
from torch.ao.ns.fx.utils import compute_sqnr
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

import pt2e_lens as pl
from pt2e_lens._copy import private_copy
from pt2e_lens._torchao import Q_ANNOTATION_KEY, is_fake_quant_module, move_exported_model_to_eval, prepare_qat_pt2e
from pt2e_lens.examples import calibration_batches

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
    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True, is_qat=True))


def _targets(gm: torch.fx.GraphModule) -> list:
    return [n.target for n in gm.graph.nodes if n.op == "call_function"]


def _batch_norms(gm: torch.fx.GraphModule) -> list[torch.fx.Node]:
    return [n for n in gm.graph.nodes if n.target is aten.batch_norm.default]


def _is_subsequence(wanted: list, seen: list) -> bool:
    it = iter(seen)
    return all(any(t == w for t in it) for w in wanted)


def sgd_step(x: tuple, lr: float = 0.5):
    """One SGD step on the prepared module that pulls its output towards zero: weights and bn statistics move."""

    def step(m: torch.fx.GraphModule) -> None:
        opt = torch.optim.SGD([p for p in m.parameters() if p.requires_grad], lr=lr)
        m(*x).square().mean().backward()
        opt.step()

    return step


@pytest.fixture(scope="module")
def conv2d():
    """torchao's test_qat_conv2d through pl.capture(qat=True): the model in eval mode, as torchao's test hands it."""
    torch.manual_seed(0)
    model = SingleConv2dModule(with_bn=True).eval()
    x = (torch.randn(2, 3, 16, 16),)
    before = fingerprint(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.capture(model, x, _x86_qat(), qat=True, strict=True, train=sgd_step(x))
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


@pytest.fixture(scope="module")
def linear():
    """Linear → ReLU → Linear, QAT-trained three SGD steps (lr 0.5: the weights move far) and converted: no batch
    norm, so convert is cheap and `pl.sensitivity` can switch every site (a folded conv weight cannot)."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 6), torch.nn.ReLU(), torch.nn.Linear(6, 4)).train()
    x = (torch.randn(4, 8),)
    steps = [(torch.randn(4, 8), torch.randn(4, 4)) for _ in range(3)]
    before = fingerprint(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.Run(model, x).prepare_qat(_xnnpack_qat())
        run.train(steps, loss=torch.nn.functional.mse_loss, optimizer=lambda p: torch.optim.SGD(p, lr=0.5)).convert()
    return {"model": model, "x": x, "run": run, "before": before}


def test_accuracy_of_a_qat_weight_is_against_the_weight_it_trained(linear):
    run, x = linear["run"], linear["x"]
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


def test_ptq_path_warns_once_where_prepare_folds_a_batch_norm_of_a_qat_quantizer():
    # torchao's prepare_pt2e runs it (folding the batch norm first), and so does pt2e-lens, with one warning that
    # the batch norm will not train (tests/test_qat_config_on_ptq.py compares the counts with torchao's)
    model = SingleConv2dModule(with_bn=True).eval()
    x = (torch.randn(2, 3, 16, 16),)
    before = fingerprint(model)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = pl.capture(model, x, _xnnpack_qat())
    said = [str(w.message) for w in caught if issubclass(w.category, pl.Pt2eLensWarning)]
    assert len(said) == 1, said
    text = said[0]
    assert "\n" not in text and "qat=True" in text and "prepare_qat" in text and "fake-quantize" in text
    assert not any("batch_norm" in n["target"] for n in run["prepared"].snapshot.nodes)  # folded, as torchao does
    assert fingerprint(model) == before


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


# -- the float reference of a QAT run: the trained model with fake quantization off, never the untrained float
# graph (after training, its error would be mostly training). pl.accuracy (per node and three-way),
# pl.sensitivity and pl.recipe all use it (why/reference.py). Oracles: the user's own nn.Module class loaded
# with the trained parameters and buffers in eval mode (plain torch), and torchao's own disable_fake_quant /
# disable_observer on a copy of the trained module after move_exported_model_to_eval.


def trained_torch(model: torch.nn.Module, run) -> torch.nn.Module:
    """The user's model class with the trained stage's parameters and buffers, in eval mode: plain torch."""
    plain = copy.deepcopy(model)
    trained = run["trained"].graph_module.state_dict()
    plain.load_state_dict({k: trained[k] for k in plain.state_dict()})
    return plain.eval()


def fake_quant_off(run) -> torch.fx.GraphModule:
    """torchao's way: the trained module itself with its fake-quantize modules switched off, in eval mode."""
    from torchao.quantization.pt2e import disable_fake_quant, disable_observer

    gm = private_copy(run["trained"].graph_module)
    gm.apply(disable_fake_quant)
    gm.apply(disable_observer)
    move_exported_model_to_eval(gm)
    return gm


def outputs(module, x) -> torch.Tensor:
    with torch.no_grad():
        return module(*x)


def values(gm: torch.fx.GraphModule, x) -> dict[str, torch.Tensor]:
    """Every node's value in one forward of gm (what torchao's loggers see)."""
    seen: dict[str, torch.Tensor] = {}

    class Grab(torch.fx.Interpreter):
        def run_node(self, n):
            seen[n.name] = v = super().run_node(n)
            return v

    with torch.no_grad():
        Grab(gm).run(*x)
    return seen


def test_training_moved_the_weights(conv2d):
    run = conv2d["run"]
    trained, prepared = run["trained"].graph_module, run["prepared"].graph_module
    assert not torch.equal(trained.get_parameter("conv.weight"), prepared.get_parameter("conv.weight"))
    assert not torch.equal(trained.get_buffer("bn.running_mean"), prepared.get_buffer("bn.running_mean"))


def test_accuracy_reference_is_the_trained_model_with_fake_quant_off(conv2d):
    run, x, model = conv2d["run"], conv2d["x"], conv2d["model"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        acc = pl.accuracy(run, [x])
    assert acc.reference.kind == "trained" and acc.reference.stage == "trained"
    assert "trained model with fake-quant off" in acc.title
    pl.set_locale("zh-TW")
    try:
        assert acc.reference.label.startswith("關閉偽量化的訓練後模型")  # the title, made under zh-TW
    finally:
        pl.set_locale(None)
    ref = outputs(acc.reference.module(), x)
    torch.testing.assert_close(ref, outputs(trained_torch(model, run), x))
    torch.testing.assert_close(ref, outputs(fake_quant_off(run), x), rtol=1e-4, atol=1e-5)
    untrained = outputs(model, x)  # the user's eval model: the float graph before training
    assert not torch.allclose(ref, untrained, atol=1e-2)


def test_folded_conv_row_is_measured_against_the_trained_output(conv2d):
    run, x, model = conv2d["run"], conv2d["x"], conv2d["model"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        acc = pl.accuracy(run, [x])
    (row,) = [r for r in acc.rows if "folded in:" in r[4]]  # the conv that computes the batch norm's output
    quantized = values(run["converted"].graph_module, x)[row[0]]
    want = compute_sqnr(outputs(trained_torch(model, run), x), quantized).item()
    old = compute_sqnr(outputs(model, x), quantized).item()  # against the untrained float model
    assert abs(row[2] - want) < 0.05 and abs(row[2] - old) > 1.0, (row[2], want, old)


def test_sensitivity_measures_against_the_same_reference(linear):
    run, x, model = linear["run"], linear["x"], linear["model"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = pl.sensitivity(run, [x])
    want = compute_sqnr(outputs(trained_torch(model, run), x), outputs(run["converted"].graph_module, x)).item()
    old = compute_sqnr(outputs(copy.deepcopy(model).eval(), x), outputs(run["converted"].graph_module, x)).item()
    assert table.reference.kind == "trained" and "trained model with fake-quant off" in table.title
    assert math.isclose(table.baseline_db, want, abs_tol=1e-3) and abs(table.baseline_db - old) > 1.0
    assert pl.accuracy(run, [x]).reference == table.reference


def test_backend_accuracy_measures_against_the_same_reference(linear):
    run, x, model = linear["run"], linear["x"], linear["model"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = pl.accuracy(run, [x], backend="inductor")  # one compile of the tiny converted module
    want = compute_sqnr(outputs(trained_torch(model, run), x), outputs(run["converted"].graph_module, x)).item()
    assert table.reference.kind == "trained" and "trained model with fake-quant off" in table.title
    assert math.isclose(table.rows[0][1], want, abs_tol=1e-3), (table.rows, want)


def test_recipe_of_a_qat_run_is_one_line(linear):
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.recipe(linear["run"], [linear["x"]], target_sqnr=30)  # its check would be a PTQ capture
    text = str(e.value)
    assert "\n" not in text and "qat=True" in text and "pl.sensitivity" in text, text


def test_a_ptq_run_keeps_the_float_graph(composable_run):
    acc = pl.accuracy(composable_run, calibration_batches(1, 8))
    assert acc.reference.kind == "float" and acc.reference.stage == "decomposed"
    assert "against the float graph (decomposed stage)" in acc.title


# -- pl.check / pl.blame / pl.compare_orders with a QAT quantizer: qat=True annotates and prepares as
# prepare_qat_pt2e does (train-mode export, batch norms not folded), as pl.capture(…, qat=True); without it, one line.


def _root(node: torch.fx.Node) -> str:
    """The exported node a prepared node comes from (`from_node`): the QAT fusion renames conv2d → conv2d_1."""
    src = (node.meta.get("from_node") or [None])[-1]
    while src is not None and getattr(src, "from_node", None):
        src = src.from_node[-1]
    return getattr(src, "name", node.name)


def _annotated(gm: torch.fx.GraphModule, names: set[str]) -> set[str]:
    """The annotated nodes of gm by their name in the exported graph `names` (a weight keeps its name; a node
    the fusion rewrote is found by its `from_node` root), without those the fusion added."""
    out = set()
    for n in gm.graph.nodes:
        if getattr(n.meta.get(Q_ANNOTATION_KEY), "_annotated", False):
            out.add(n.name if n.name in names else _root(n))
    return out & names


def test_blame_with_qat_is_what_prepare_qat_annotates(block):
    model, x = block["model"], block["x"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = pl.blame(model, _xnnpack_qat(), x, qat=True).rows
    exported = {n.name for n in torch.export.export(copy.deepcopy(model), x).module().graph.nodes}
    # torchao's own prepare_qat_pt2e graph: its annotated nodes that the export has (the fusion adds a `mul`
    # per conv that carries the weight's annotation; it is no node of the graph the quantizer annotated)
    theirs = _annotated(block["theirs"], exported)
    assert {r[0] for r in rows} == theirs and len(rows) == len(theirs)
    assert fingerprint(model) == block["before"]


def test_check_blame_orders_warn_of_a_qat_quantizer_without_qat():  # where prepare_pt2e folds a batch norm
    model = SingleConv2dModule(with_bn=True).eval()
    x = (torch.randn(2, 3, 16, 16),)
    before = fingerprint(model)
    calls = [
        lambda: pl.check(_xnnpack_qat(), model, x),
        lambda: pl.blame(model, _xnnpack_qat(), x),
        lambda: pl.compare_orders(model, [_xnnpack_qat(), _xnnpack_qat()], x),
    ]
    for call, what in zip(calls, ("pl.check", "pl.blame", "pl.compare_orders")):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()  # annotated as prepare_pt2e does (torchao runs it)
        said = [str(w.message) for w in caught if issubclass(w.category, pl.Pt2eLensWarning)]
        assert said, what
        text = said[0]
        assert "\n" not in text and text.startswith(f"pt2e-lens: {what}") and "qat=True" in text, text
        assert "fake-quantize" in text, text
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert len(pl.check(_xnnpack_qat(), model, x, qat=True)) == 0
    assert fingerprint(model) == before


def test_compare_orders_with_qat_prepares_as_torchao(block):
    model = block["model"]
    fc_only = XNNPACKQuantizer().set_module_name("fc", get_symmetric_quantization_config(is_qat=True))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # the Run's exported stage: the train-mode export torchao's own graph was prepared from
        table = pl.compare_orders(block["run"], [[_xnnpack_qat()], [fc_only, _xnnpack_qat()]], qat=True)
    ours, theirs = table.outcomes[0].gm, block["theirs"]  # the first order is the QAT quantizer alone
    assert not any(o.error for o in table.outcomes)
    assert len(ours.graph.nodes) == len(theirs.graph.nodes)
    assert len(_batch_norms(ours)) == len(_batch_norms(theirs)) == 6  # not folded: prepare_qat_pt2e's graph
    fq = Counter(type(m).__name__ for m in ours.modules() if is_fake_quant_module(m))
    assert fq == Counter(type(m).__name__ for m in theirs.modules() if is_fake_quant_module(m))
    assert len(set(table.outcomes[0].observer_of.values())) == sum(fq.values())
    assert fingerprint(model) == block["before"]
