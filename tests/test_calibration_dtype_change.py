"""A calibration batch that fails because the quantizer changed a dtype (issue 25): torchao's XNNPACKQuantizer
turns the Python scalar of `arange(n) + 2` (OPT's learned-position offset, int64 position ids) into a float32
constant, so the position ids come out float32 and the embedding raises for every batch. The error names that
change and does not tell the user to fix or drop the batch.

Oracle: torchao's own prepare_pt2e on the same export fails on the same batch, and its add node really computes
float32 where export's meta says int64."""

import copy
import warnings

import pytest
import torch
from _fingerprint import fingerprint
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

import pt2e_lens as pl


class LearnedPositions(torch.nn.Module):
    """Token and position embeddings (positions offset by 2, as OPT's), then a linear."""

    def __init__(self):
        super().__init__()
        self.tokens, self.positions = torch.nn.Embedding(50, 16), torch.nn.Embedding(34, 16)
        self.fc = torch.nn.Linear(16, 16)

    def forward(self, ids):
        positions = (torch.arange(ids.shape[1], dtype=torch.long) + 2).unsqueeze(0)
        return self.fc(self.tokens(ids) + self.positions(positions))


def xnnpack():
    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config())


def test_the_error_names_the_quantizers_dtype_change_not_the_batch():
    torch.manual_seed(0)
    model = LearnedPositions().eval()
    ids = (torch.randint(0, 50, (2, 8)),)
    before = fingerprint(model)
    theirs = prepare_pt2e(torch.export.export(copy.deepcopy(model), ids).module(), xnnpack())
    with pytest.raises(RuntimeError, match="indices"):
        theirs(*ids)  # torchao's own prepared graph fails on this batch too
    add = next(n for n in theirs.graph.nodes if n.target == torch.ops.aten.add.Tensor)
    assert add.meta["val"].dtype == torch.int64
    const = next(a for a in add.args if isinstance(a, torch.fx.Node) and a.op == "get_attr")
    assert getattr(theirs, const.target).dtype == torch.float32  # the quantizer's constant: int64 + float32 → float32
    with pytest.raises(pl.Pt2eLensError) as e, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pl.capture(model, ids, xnnpack(), calibration=[ids])
    text = str(e.value)
    assert "\n" not in text and "drop" not in text, text
    assert f"computes {add.name} in float32" in text and "int64" in text and "XNNPACKQuantizer" in text, text
    assert f"{const.name} float32" in text, text
    assert e.value.run.stages == ["exported", "annotated", "prepared"]  # nothing observed, the rest kept
    assert fingerprint(model) == before


def test_a_bad_batch_is_still_the_batchs_fault():
    model = torch.nn.Sequential(torch.nn.Linear(8, 4))
    x = (torch.randn(2, 8),)
    run = pl.Run(model.eval(), x, dynamic_batch=True).prepare(xnnpack())
    bad = (torch.randn(2, 8, dtype=torch.float64),)  # the batch's own dtype: nothing in the graph changed it
    with pytest.raises(pl.Pt2eLensError) as e:
        run.calibrate([bad])
    text = str(e.value)
    assert "fix or drop" in text and "computes" not in text, text
