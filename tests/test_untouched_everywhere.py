"""The promise: after every public call the user's model, ExportedProgram and GraphModules are bit-identical
(code, parameters, buffers, meta, hooks) — also for a model whose forward writes its own buffers."""

import copy
import warnings

import pytest
import torch
from _fingerprint import fingerprint
from torch import nn

import pt2e_lens as pl
from pt2e_lens._torchao import convert_pt2e, prepare_pt2e
from pt2e_lens.backends import lower as lower_with
from pt2e_lens.examples import AddQuantizer, ConvQuantizer, quantizer_by_name
from pt2e_lens.report import write_html


class Stateful(nn.Module):
    """A step counter and an EMA of the input, both updated by forward; conv + bn + relu + add."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 4, 3, padding=1)
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))
        self.register_buffer("ema", torch.zeros(()))

    def forward(self, x):
        self.steps.add_(1)
        self.ema.mul_(0.9).add_(0.1 * x.mean())
        y = torch.relu(self.bn(self.conv(x)))
        return self.conv2(y) + y


def _inputs(n: int = 3, batch: int = 2):
    g = torch.Generator().manual_seed(1)
    return [(torch.randn(batch, 3, 8, 8, generator=g),) for _ in range(n)]


def _model(batch_norm: bool = True) -> nn.Module:
    torch.manual_seed(0)
    m = Stateful()
    with torch.no_grad():
        m.bn.running_mean.uniform_(-1, 1)
        m.bn.running_var.uniform_(0.5, 2)
    if not batch_norm:  # torchao's QAT convert re-traces 96 conv-bn patterns (~40 s) for any graph with a batch norm
        m.bn = nn.Identity()
    m.register_forward_hook(lambda mod, inp, out: None)
    m.conv.register_forward_pre_hook(lambda mod, inp: None)
    return m.eval()


@pytest.fixture(scope="module")
def owned():
    """The user's objects: a model, its ExportedProgram, that program's module, a prepared and a converted graph;
    and a second model without batch norm, for the QAT capture (its convert: see _model)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = _model()
        ep = torch.export.export(model, _inputs(1)[0])
        gm = ep.module()
        prepared = prepare_pt2e(copy.deepcopy(gm), ConvQuantizer())
        for b in _inputs(2):
            prepared(*b)
        converted = convert_pt2e(copy.deepcopy(prepared))
    owned = {"model": model, "ep": ep, "gm": gm, "prepared": prepared, "converted": converted}
    return owned | {"qat_model": _model(batch_norm=False)}


def _qat():
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_qat=True))


def _forward(m):
    for (x,) in _inputs(2):
        m(x).sum().backward()


def _targets(batches):
    return [(x, torch.zeros(x.shape[0], 4, 8, 8)) for (x,) in batches]


def _mse(out, target):
    return torch.nn.functional.mse_loss(out, target)


def _calls(o):
    """(label, call) for every public entry point, on every kind of object the user hands us."""
    batches = _inputs()
    model, ep, gm, prepared, converted = (o[k] for k in ("model", "ep", "gm", "prepared", "converted"))
    runs = {}

    def capture():
        runs["c"] = pl.capture(model, batches[0], ConvQuantizer(), calibration=batches)

    def step_by_step():
        run = pl.Run(ep).decompose({}).prepare(ConvQuantizer())
        run.calibrate(batches).calibrate(batches[:1]).convert()
        runs["ep"] = run

    def x86_run():
        return pl.capture(model, batches[0], quantizer_by_name("x86"), calibration=batches)

    graphs = [ep, gm, prepared, converted]
    yield "pl.capture(model, calibration=…)", capture
    yield "pl.Run(ep).decompose.prepare.calibrate×2.convert", step_by_step
    yield "pl.Run(gm) steps", lambda: pl.Run(gm).prepare(ConvQuantizer()).calibrate(batches).convert()
    yield "pl.Run(prepared gm)", lambda: pl.Run(prepared).stages
    yield "pl.Run(model, strict=True)", lambda: pl.Run(model, batches[0], strict=True).prepare(ConvQuantizer())
    # QAT: the eval-mode model is exported as a train-mode copy; training steps on the graph's own parameters.
    # The whole capture (to convert) on the model without batch norm; prepare_qat's conv-bn fusion on the user's ep.
    # test_qat.py converts a QAT conv-bn capture and checks its eval-mode model is left as it was.
    qat_model = o["qat_model"]
    yield "pl.capture(qat=True, train=fn)", lambda: pl.capture(qat_model, batches[0], _qat(), qat=True, train=_forward)
    yield "pl.Run(ep).prepare_qat.train", lambda: pl.Run(ep).prepare_qat(_qat()).train(_targets(batches), loss=_mse)
    for fn in (pl.snapshot, pl.node_count, pl.op_counts, pl.annotations, pl.observers, pl.qdq, pl.boundaries):
        for g in graphs:
            yield f"pl.{fn.__name__}({type(g).__name__})", lambda fn=fn, g=g: fn(g)
    for fn in (pl.sequence, pl.sharing, pl.findings):
        for g in graphs:
            yield f"pl.{fn.__name__}({type(g).__name__})", lambda fn=fn, g=g: fn(g)
    yield "pl.diff_ops", lambda: pl.diff_ops(gm, converted)
    yield "pl.decomposition", lambda: pl.decomposition(ep, {})
    yield "pl.chain", lambda: pl.chain(gm, "conv2d", until="relu")
    yield "pl.stage_diff", lambda: pl.stage_diff(prepared, converted)
    yield "pl.focus", lambda: pl.focus(converted, "conv2d", 2)
    yield "pl.check(model)", lambda: pl.check(ConvQuantizer(), model, batches[0])
    yield "pl.check(ep)", lambda: pl.check(ConvQuantizer(), ep)
    yield "pl.blame(model)", lambda: pl.blame(model, ConvQuantizer(), batches[0])
    yield "pl.blame(run)", lambda: pl.blame(runs["c"])
    yield "pl.why_not(run)", lambda: pl.why_not(runs["c"], "conv2d")
    yield "pl.why_not(prepared gm)", lambda: pl.why_not(prepared, "conv2d")
    yield (
        "pl.compare_orders",
        lambda: pl.compare_orders(model, [ConvQuantizer(), AddQuantizer()], batches[0]),
    )
    yield "pl.compare_orders(gm)", lambda: pl.compare_orders(gm, [ConvQuantizer(), AddQuantizer()])
    yield "pl.accuracy(run from model)", lambda: pl.accuracy(runs["c"], batches)
    yield "pl.accuracy(run from ep)", lambda: pl.accuracy(runs["ep"], batches)
    yield "pl.show(run)", lambda: pl.show(runs["c"])._repr_mimebundle_()
    yield "pl.sensitivity(run)", lambda: pl.sensitivity(runs["c"], batches).overlay()
    yield "pl.recipe(run)", lambda: pl.recipe(runs["ep"], batches, target_sqnr=100.0).code
    yield "pl.KeepFp32 prepare(gm)", lambda: prepare_pt2e(copy.deepcopy(gm), pl.KeepFp32(ConvQuantizer()))
    yield "pl.observer_ranges(prepared)", lambda: pl.observer_ranges(prepared)
    yield "pl.observer_ranges(run)", lambda: pl.observer_ranges(runs["c"])
    # a compile each (~15 s): the backend on the user's own converted graph, and a Run's lowered stage.
    # ConvQuantizer's signed int8 activations do not prepack with freezing (oneDNN wants uint8): fp32 there
    yield "backends.lower(converted gm)", lambda: lower_with("inductor", converted, batches[0], freezing=False)
    yield "backends.lower('xnnpack', converted gm)", lambda: lower_with("xnnpack", converted, batches[0])
    yield (
        "run.lower('inductor') + pl.backend + pl.show",
        lambda: pl.show(x86_run().lower("inductor"))._repr_mimebundle_(),
    )
    for g in graphs:
        yield f"pl.show({type(g).__name__})", lambda g=g: pl.show(g, focus="conv2d", hops=1)._repr_mimebundle_()
    yield "pl.compare", lambda: pl.compare([(gm, "float"), (prepared, "prepared"), (converted, "int8")])
    yield "Snapshot JSON round trip", lambda: pl.Snapshot.from_json(pl.snapshot(ep).to_json())
    yield "report.write_html", lambda: write_html(runs["c"], o["tmp"] / "r.html")
    yield "pl.widget + update", lambda: pl.widget(gm, focus="conv2d").update(converted)
    for line in (
        "show model_ep",
        "show model_gm --focus conv2d --hops 1",
        "compare model_ep model_prepared model_converted",
        "diff model_gm model_converted",
        "annotations model_prepared",
        "observers model_prepared",
        "qdq model_converted",
        "decomp model_ep --table core",
        "watch model_gm",
        f"report model_converted --html {o['tmp'] / 'm.html'}",
    ):
        yield f"%pt2e {line}", lambda line=line: _magic(o, line)


def _magic(o, line):
    """The %pt2e magics, in-process, on the user's objects (names as a notebook would have them)."""
    from IPython.testing.globalipapp import get_ipython

    ip = get_ipython()  # starts the test shell once, then hands back the same one
    ip.user_ns.update({f"model_{k}": v for k, v in o.items() if k != "tmp"})
    ip.run_line_magic("load_ext", "pt2e_lens")
    ip.run_line_magic("pt2e", line)


def test_every_public_call_leaves_user_objects_bit_identical(owned, tmp_path):
    owned = dict(owned, tmp=tmp_path)
    before = {k: fingerprint(v) for k, v in owned.items() if k != "tmp"}
    for label, call in _calls(owned):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call()
        changed = [k for k, fp in before.items() if fingerprint(owned[k]) != fp]
        assert not changed, f"{label} changed the user's {', '.join(changed)}"


def test_fingerprint_sees_a_buffer_update_and_a_hook():
    """The helper itself can fail: a forward that bumps a buffer, or one more hook, changes the fingerprint."""
    m = _model()
    fp = fingerprint(m)
    m(*_inputs(1)[0])
    assert fingerprint(m) != fp
    m2 = _model()
    fp2 = fingerprint(m2)
    m2.bn.register_forward_hook(lambda *a: None)
    assert fingerprint(m2) != fp2
    gm = torch.export.export(_model(), _inputs(1)[0]).module()
    fp3 = fingerprint(gm)
    next(iter(gm.graph.nodes)).meta["touched"] = True
    assert fingerprint(gm) != fp3
