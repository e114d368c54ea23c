"""A QAT run whose training loop renamed a float-graph tensor: the trained float reference (why/reference.py)
cannot be built, and pl.accuracy / pl.sensitivity say so in one catalogued line (error.qat_reference_missing)."""

import json
import warnings
from pathlib import Path

import pytest
import torch
from _fingerprint import fingerprint
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

import pt2e_lens as pl
from pt2e_lens import i18n

LOCALES = Path(pl.__file__).parent / "locales"


def rename_first_bias(m: torch.fx.GraphModule) -> None:
    """A training loop that re-parametrises: the first linear's bias moves to a new name, graph and all."""
    first = m.get_submodule("0")
    bias = first.bias
    delattr(first, "bias")
    m.register_parameter("first_bias", bias)
    for n in m.graph.nodes:
        if n.op == "get_attr" and n.target == "0.bias":
            n.target = "first_bias"
    m.recompile()


@pytest.fixture(scope="module")
def renamed():
    """Linear → ReLU → Linear (no batch norm: QAT convert stays cheap), trained by rename_first_bias, converted."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 6), torch.nn.ReLU(), torch.nn.Linear(6, 4)).train()
    x = (torch.randn(4, 8),)
    quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True, is_qat=True))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.Run(model, x).prepare_qat(quantizer).train(rename_first_bias).convert()
    return {"run": run, "x": x}


def test_the_renamed_tensor_is_really_gone_from_the_trained_stage(renamed):
    run = renamed["run"]
    assert "0.bias" in run["exported"].graph_module.state_dict()
    trained = run["trained"].graph_module.state_dict()
    assert "0.bias" not in trained and "first_bias" in trained
    # the renamed graph still runs and converts: only the reference cannot pair the tensors
    assert run["converted"].graph_module(*renamed["x"]).shape == (4, 4)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("who", ["pl.accuracy", "pl.sensitivity"])
def test_accuracy_and_sensitivity_say_it_in_one_line(renamed, lang, who):
    run, x = renamed["run"], renamed["x"]
    call = {"pl.accuracy": pl.accuracy, "pl.sensitivity": pl.sensitivity}[who]
    stages, before = run.stages, fingerprint(run["trained"].graph_module)
    text = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))["error.qat_reference_missing"]
    with i18n.using(lang), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(pl.Pt2eLensError) as e:
            call(run, [x])
    assert str(e.value) == text.format(who=who, stage="trained", tensor="0.bias")
    assert "\n" not in str(e.value)
    assert run.stages == stages and fingerprint(run["trained"].graph_module) == before
