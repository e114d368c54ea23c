"""A QAT-flavoured config (is_qat=True) on the PTQ path (issue 25): torchao runs it through prepare_pt2e, and so
does pt2e-lens, with the same counts. Where prepare_pt2e folded a batch norm into its conv first, torchao still
prepares, trains (the folded conv) and converts it: pt2e-lens runs it as well and says in one warning that the
batch norms will not train (prepare_qat_pt2e, qat=True, keeps them).

Oracle: torchao's own prepare_pt2e / convert_pt2e on the same export with the same config, and the
`node_occurrence` of torchao's test_linear_binary_unary_serials (test/quantization/pt2e/test_x86inductor_quantizer.py)
for the same model (its config there is the PTQ one: the converted graph is the same)."""

import copy
import warnings
from collections import Counter

import torch
from _fingerprint import fingerprint
from _torchao_models import SingleConv2dModule
from torch import nn
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
from torchao.quantization.pt2e.quantizer import x86_inductor_quantizer as xiq

import pt2e_lens as pl
from pt2e_lens._torchao import is_fake_quant_module

ops = torch.ops.quantized_decomposed

# test_x86inductor_quantizer.py::test_linear_binary_unary_serials
SERIALS_OCCURRENCE = {
    ops.quantize_per_tensor.default: 3,
    ops.dequantize_per_tensor.default: 4,
    ops.quantize_per_channel.default: 0,
    ops.dequantize_per_channel.default: 4,
}


class SerialsLinearAddReLUModule(nn.Module):
    """torchao's TestHelperModules.SerialsLinearAddReLUModule: two linear → add → relu in a row, no batch norm."""

    def __init__(self):
        super().__init__()
        self.linear, self.linear2, self.linear3, self.linear4 = (nn.Linear(16, 16) for _ in range(4))
        self.relu, self.relu2 = nn.ReLU(), nn.ReLU()

    def forward(self, x):
        x1 = self.linear(x)
        res1 = self.relu(self.linear2(x1) + self.linear3(x1))
        return self.relu2(self.linear4(res1) + res1)


def x86_qat():
    return xiq.X86InductorQuantizer().set_global(xiq.get_default_x86_inductor_quantization_config(is_qat=True))


def counts(gm: torch.fx.GraphModule) -> Counter:
    return Counter(n.target for n in gm.graph.nodes if n.op == "call_function")


def test_a_qat_config_without_batch_norm_prepares_as_torchao_does():
    torch.manual_seed(0)
    model = SerialsLinearAddReLUModule().eval()
    x = (torch.randn(2, 16),)
    before = fingerprint(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = prepare_pt2e(torch.export.export(copy.deepcopy(model), x).module(), x86_qat())
        theirs(*x)
        theirs_fq = sum(1 for m in theirs.modules() if is_fake_quant_module(m))
        theirs = convert_pt2e(theirs)
        run = pl.capture(model, x, x86_qat(), calibration=[x])
    prepared = run["prepared"].graph_module
    assert sum(1 for m in prepared.modules() if is_fake_quant_module(m)) == theirs_fq > 0  # fake quants, not observers
    ours = counts(run["converted"].graph_module)
    assert ours == counts(theirs)
    assert {op: ours[op] for op in SERIALS_OCCURRENCE} == SERIALS_OCCURRENCE
    assert pl.check(x86_qat(), model, x).rows == []  # no refusal there either
    assert fingerprint(model) == before


def _lens_warnings(caught) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, pl.Pt2eLensWarning)]


def test_a_qat_config_that_folds_a_batch_norm_runs_as_torchao_does_with_one_warning():
    torch.manual_seed(0)
    model = SingleConv2dModule(with_bn=True).eval()
    x = (torch.randn(2, 3, 16, 16),)
    before = fingerprint(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = prepare_pt2e(torch.export.export(copy.deepcopy(model), x).module(), x86_qat())
        assert not any("batch_norm" in str(n.target) for n in theirs.graph.nodes)  # torchao folded it into the conv
        theirs_fq = sum(1 for m in theirs.modules() if is_fake_quant_module(m))
        theirs(*x)
        theirs = convert_pt2e(theirs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = pl.capture(model, x, x86_qat(), calibration=[x])
    said = _lens_warnings(caught)
    assert len(said) == 1 and "\n" not in said[0] and "qat=True" in said[0] and "1 batch norm(s)" in said[0], said
    prepared = run["prepared"].graph_module
    assert sum(1 for m in prepared.modules() if is_fake_quant_module(m)) == theirs_fq > 0
    assert counts(run["converted"].graph_module) == counts(theirs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert pl.check(x86_qat(), model, x).rows == []  # torchao prepared it: nothing to report
    said = _lens_warnings(caught)
    assert len(said) == 1 and said[0].startswith("pt2e-lens: pl.check") and "qat=True" in said[0], said
    assert fingerprint(model) == before
