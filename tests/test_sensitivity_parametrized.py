"""pl.sensitivity / pl.recipe on a PTQ model whose weight is computed from parametrizations (weight_norm, as
in audio models): convert folds that computed weight's quantize into an int8 constant, and its float side
is the weight the model computes, which the sweep computes from the calibrated stage's g and v."""

import copy
import warnings

import pytest
import torch
from torch.nn.utils.parametrizations import weight_norm

import pt2e_lens as pl
from pt2e_lens.examples import xnnpack_quantizer
from pt2e_lens.why.sensitivity import sqnr_db


class WeightNormNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c = weight_norm(torch.nn.Conv1d(4, 8, 3))
        self.l = torch.nn.Conv1d(8, 4, 1)

    def forward(self, x):
        return self.l(torch.relu(self.c(x)))


@pytest.fixture(scope="module")
def wn():
    torch.manual_seed(0)
    model = WeightNormNet().eval()
    batches = [(torch.randn(2, 4, 16),) for _ in range(3)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.capture(model, batches[0], xnnpack_quantizer(), calibration=batches)
        table = pl.sensitivity(run, batches)
    return model, run, batches, table


def _outputs(gm, batches):
    with torch.no_grad():
        return [gm(*b) for b in batches]


def test_the_weight_norm_site_fp32_is_torchaos_graph_with_the_models_own_weight(wn):
    model, run, batches, table = wn
    [site] = [s for s in table.sites if s.weight and s.tensor == "_weight_norm"]
    # by hand: torchao's converted graph, its dequantized int8 weight replaced by the weight torch computes
    gm = copy.deepcopy(run["converted"].graph_module)
    gm.register_buffer("_w", model.c.weight.detach().clone())
    with gm.graph.inserting_before(next(n for n in gm.graph.nodes if n.op != "placeholder")):
        w = gm.graph.get_attr("_w")
    for node in list(gm.graph.nodes):
        if node.name in site.qdq and "dequantize" in str(node.target):
            node.replace_all_uses_with(w)
    gm.graph.eliminate_dead_code()
    gm.recompile()
    expected = sqnr_db(_outputs(run["exported"].graph_module, batches), _outputs(gm, batches))
    row = table.rows[table.sites.index(site)]
    assert row[table.columns.index("sqnr_fp32_db")] == pytest.approx(expected, rel=1e-6)
    assert row[table.columns.index("kind")] == "weight"


def test_recipe_of_a_weight_norm_model_is_verified(wn):
    _, run, batches, _ = wn
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        recipe = pl.recipe(run, batches, target_sqnr=41)
    assert recipe.met and recipe.verified_db >= 41 and len(recipe.sites) >= 1
