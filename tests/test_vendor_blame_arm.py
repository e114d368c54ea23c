"""pl.blame on ExecuTorch 1.5.1's Arm TOSAQuantizer / EthosUQuantizer names the sub-quantizer that wrote each
annotation, not the wrapper. TOSAQuantizer is no ComposableQuantizer: it keeps one (`_TOSAQuantizerV2`) in
`.quantizer` and forwards annotate to it, whose PatternQuantizers (one per node finder: global, set_io's input and
output, …) and SharedQspecQuantizer write every annotation; nothing is written by the wrapper itself.

Oracle: ExecuTorch's own flow (export → `.module(check_guards=False)` → torchao's prepare_pt2e) with the real
quantizer, each sub-quantizer's `annotate` wrapped on that instance to note which annotations it added."""

import warnings

import pytest
import torch
from torch import nn

import pt2e_lens as pl
from pt2e_lens._torchao import Q_ANNOTATION_KEY, prepare_pt2e

pytest.importorskip("executorch", reason="needs the executorch extra")
pytest.importorskip("tosa_serializer", reason="ExecuTorch's Arm quantizers need tosa-tools")


class ConvBnCatMean(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.c1, self.b1 = nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8)
        self.c2 = nn.Conv2d(3, 8, 1)
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        y = torch.cat([torch.relu(self.b1(self.c1(x))), self.c2(x)], 1)
        return self.fc(y.mean((2, 3)))


def _tosa(io: bool = False):
    from executorch.backends.arm.quantizer import TOSAQuantizer, get_symmetric_quantization_config
    from executorch.backends.arm.tosa.specification import TosaSpecification

    q = TOSAQuantizer(TosaSpecification.create_from_string("TOSA-1.0+INT"))
    q.set_global(get_symmetric_quantization_config())
    return q.set_io(get_symmetric_quantization_config()) if io else q


def _ethos_u():
    from executorch.backends.arm.ethosu import EthosUCompileSpec
    from executorch.backends.arm.quantizer import EthosUQuantizer, get_symmetric_quantization_config

    return EthosUQuantizer(EthosUCompileSpec("ethos-u55-128")).set_global(get_symmetric_quantization_config())


QUANTIZERS = {"tosa": _tosa, "tosa_io": lambda: _tosa(io=True), "ethos_u": _ethos_u}


def _label(sub, subs) -> str:
    """pl.blame's name of a sub-quantizer: its class, `[i] Class(NodeFinder)` when two share the class."""
    name = type(sub).__name__
    if sum(type(s) is type(sub) for s in subs) > 1:
        return f"[{subs.index(sub)}] {name}({type(sub.node_finder).__name__})"
    return name


def _writers(quantizer, model, x) -> dict[str, str]:
    """node → the sub-quantizer whose annotate added its annotation, in ExecuTorch's own flow."""
    composite = quantizer.quantizer
    subs = composite.quantizers
    wrote: dict[str, str] = {}
    annotating = [False]  # transform_for_annotation runs the sub-quantizers too, then drops what they wrote

    def watch_sub(sub):
        own = sub.annotate

        def annotate(model):
            before = {n.name: id(n.meta[Q_ANNOTATION_KEY]) for n in model.graph.nodes if Q_ANNOTATION_KEY in n.meta}
            out = own(model)
            for n in model.graph.nodes:
                if annotating[0] and Q_ANNOTATION_KEY in n.meta and before.get(n.name) != id(n.meta[Q_ANNOTATION_KEY]):
                    wrote.setdefault(n.name, _label(sub, subs))
            return out

        sub.annotate = annotate

    for sub in subs:
        watch_sub(sub)
    composite_annotate = composite.annotate

    def annotate(model):
        annotating[0] = True
        try:
            return composite_annotate(model)
        finally:
            annotating[0] = False

    composite.annotate = annotate
    prepare_pt2e(torch.export.export(model, x).module(check_guards=False), quantizer)
    return wrote


@pytest.mark.parametrize("name", list(QUANTIZERS))
def test_blame_names_the_sub_quantizer_that_wrote_each_annotation(name):
    torch.manual_seed(0)
    model, x = ConvBnCatMean().eval(), (torch.randn(2, 3, 8, 8),)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        truth = _writers(QUANTIZERS[name](), model, x)
        run = pl.capture(model, x, QUANTIZERS[name](), calibration=[x])
        by_quantizer = {node: who for node, who, _ in pl.blame(run).rows}
        by_reannotation = {node: who for node, who, _ in pl.blame(model, QUANTIZERS[name](), x).rows}
    wrapper = type(QUANTIZERS[name]()).__name__
    assert truth and wrapper not in truth.values()  # the wrapper itself writes nothing
    assert by_quantizer == truth == by_reannotation
    assert {"PatternQuantizer", "SharedQspecQuantizer"} <= {w.split("(")[0].split("] ")[-1] for w in truth.values()}
    # why_not names the same sub-quantizer and the function of it that wrote the annotation
    stage = run["annotated"]
    for node, who in truth.items():
        line = pl.why_not(stage, node).rows[0][1]
        assert line.startswith(f"annotated by {who} in "), line
        assert any(fn in line for fn in ("annotate_match", "_annotate_shared_cluster")), line
