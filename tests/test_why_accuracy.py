"""pl.accuracy: per-node SQNR/MSE, checked against the float model, the converted graph and torchao's debugger."""

import pytest
import torch
from torchao.quantization.pt2e import compare_results, extract_results_from_loggers, prepare_for_propagation_comparison

import pt2e_lens as pl
from pt2e_lens.examples import ConvReluQuantizer, calibration_batches, example_inputs, get_model


def sqnr(ref, actual):
    return float(20 * torch.log10(torch.linalg.norm(ref) / torch.linalg.norm(ref - actual)))


@pytest.fixture(scope="module")
def setup():
    model = get_model("conv_relu").eval()
    run = pl.capture(model, example_inputs(2), ConvReluQuantizer(), calibration=calibration_batches(4, 2))
    batch = calibration_batches(1, 2, seed=7)
    return model, run, batch, pl.accuracy(run, batch)


def row(table, name):
    return dict(zip(table.columns, next(r for r in table.rows if r[0] == name)))


def test_model_output_matches_the_float_and_converted_modules(setup):
    model, run, batch, table = setup
    assert table.name == "accuracy"
    with torch.no_grad():
        ref, actual = model(*batch[0]), run["converted"].graph_module(*batch[0])
    relu = row(table, "relu")
    assert relu["sqnr_db"] == pytest.approx(sqnr(ref, actual), rel=1e-4)
    assert relu["mse"] == pytest.approx(float(torch.nn.functional.mse_loss(actual, ref)), rel=1e-4)


def test_folded_batch_norm_is_compared_with_its_float_output(setup):
    _, run, batch, table = setup
    conv = row(table, "conv2d")
    assert "batch_norm folded in" in conv["note"]
    assert row(table, "batch_norm")["sqnr_db"] is None and "folded into conv2d" in row(table, "batch_norm")["note"]
    # torchao alone pairs the folded conv with the float conv before its batch norm
    logged = []
    for gm in (run["exported"].graph_module, run["converted"].graph_module):
        m = prepare_for_propagation_comparison(gm)
        with torch.no_grad():
            m(*batch[0])
        logged.append(extract_results_from_loggers(m))
    raw = {k.name: float(v.results[0].sqnr) for k, v in compare_results(*logged).items()}
    assert raw["relu"] == pytest.approx(row(table, "relu")["sqnr_db"], rel=1e-5)
    assert raw["conv2d"] < conv["sqnr_db"] - 10


def test_input_edge_quantization_is_added(setup):
    _, run, batch, table = setup
    gm = run["converted"].graph_module
    q = next(
        n
        for n in gm.graph.nodes
        if n.op == "call_function"
        and "quantize_per_tensor" in str(n.target)
        and "dequantize" not in str(n.target)
        and n.args[0].name == "x"
    )
    scale, zero_point, qmin, qmax = q.args[1:5]
    x = batch[0][0]
    expected = sqnr(x, torch.fake_quantize_per_tensor_affine(x, scale, zero_point, qmin, qmax))
    (edge,) = [r for r in table.rows if r[0].startswith("x (q/dq ")]
    assert edge[2] == pytest.approx(expected, rel=1e-3)
    weight = [r for r in table.rows if r[0].startswith("conv_weight (q/dq ")]
    assert weight and weight[0][2] > 20


def test_sorted_worst_first_with_a_heat_map(setup):
    _, run, _, table = setup
    values = [r[2] for r in table.rows if r[2] is not None]
    assert values == sorted(values)
    # the heat colours the converted graph it is drawn on, a value for every row that has one (the legend's
    # range is the table's column): an op's row its op, an input-edge q/dq row that q/dq's dequantize
    converted = {n.name: n for n in run["converted"].graph_module.graph.nodes}
    assert table.per_node and set(table.per_node) <= set(converted)
    assert sorted(table.per_node.values()) == values
    for node, seen_as, sqnr, *_ in table.rows:
        if " (q/dq " in node and sqnr is not None:
            assert converted[seen_as].target.__name__.startswith("dequantize") and table.per_node[seen_as] == sqnr
    assert table.to_dict()["columns"] == ["node", "compared_with", "sqnr_db", "mse", "note"]


def test_bad_input(setup):
    _, run, _, _ = setup
    with pytest.raises(pl.Pt2eLensError, match="run.convert"):
        pl.accuracy(pl.Run(run["exported"].graph_module), [])
    with pytest.raises(pl.Pt2eLensError, match="no batches"):
        pl.accuracy(run, [])
