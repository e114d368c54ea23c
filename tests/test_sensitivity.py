"""pl.sensitivity: per-site output SQNR from one gated copy, checked against copies with that site's q/dq
removed by hand from torchao's converted graph, and against the graph torchao converted itself."""

import copy
import importlib
import math
import operator
import pickle
import types
import warnings

import pytest
import torch

import pt2e_lens as pl
from pt2e_lens._torchao import is_observer_module
from pt2e_lens.examples import OutlierNet, image_batches, xnnpack_quantizer
from pt2e_lens.schema import VIEW_SCHEMA
from pt2e_lens.schema.check import schema_error
from pt2e_lens.views import view_of
from pt2e_lens.why.sensitivity import Sensitivity, payload_of, sqnr_db
from pt2e_lens.why.sites import gated, sites_of


@pytest.fixture(scope="module")
def outlier():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batches = image_batches(3)
        run = pl.capture(OutlierNet().eval(), batches[0], xnnpack_quantizer(), calibration=batches)
        table = pl.sensitivity(run, batches)
    return run, batches, table


def _outputs(gm, batches):
    with torch.no_grad():
        return [gm(*b) for b in batches]


def _by_hand(run, site):
    """torchao's converted module (a deep copy) with this site's dequantize outputs replaced by the float
    value: the tensor before its quantize, or the float weight from the calibrated module."""
    gm = copy.deepcopy(run["converted"].graph_module)
    nodes = {n.name: n for n in gm.graph.nodes}
    if site.weight:
        calibrated = run["calibrated"].graph_module
        target = next(n.target for n in calibrated.graph.nodes if n.name == site.tensor)
        gm.register_buffer("_float_w", operator.attrgetter(target)(calibrated).clone())
        with gm.graph.inserting_before(next(n for n in gm.graph.nodes if n.op != "placeholder")):
            source = gm.graph.get_attr("_float_w")
    for name in site.qdq:
        node = nodes[name]
        if "dequantize" not in str(node.target):
            continue
        if not site.weight:
            source = node
            while source.name in site.qdq:
                source = source.args[0]
        node.replace_all_uses_with(source)
    gm.graph.eliminate_dead_code()
    gm.recompile()
    return gm


def test_sites_are_the_observer_instances_torchao_turned_into_qdq(outlier):
    run, _, table = outlier
    prepared = run["calibrated"].graph_module
    called = [prepared.get_submodule(n.target) for n in prepared.graph.nodes if n.op == "call_module"]
    observers = {id(m) for m in called if is_observer_module(m)}  # one instance per sharing group
    assert len(table) == len(sites_of(run)) == len(observers) > 3
    qdq_nodes = {n.name for n in run["converted"].graph_module.graph.nodes if "quantize" in str(n.target)}
    assert {q for s in sites_of(run) for q in s.qdq} == qdq_nodes  # every q/dq node belongs to one site


def test_all_gates_on_is_the_converted_module_bit_for_bit_and_all_off_is_float(outlier):
    run, batches, _ = outlier
    gm = gated(run)
    quantized = _outputs(run["converted"].graph_module, batches)
    assert all(torch.equal(a, b) for a, b in zip(_outputs(gm.module, batches), quantized))
    gm.set_off(range(len(gm.sites)))
    float_out = _outputs(run["exported"].graph_module, batches)
    assert sqnr_db(float_out, _outputs(gm.module, batches)) > 80  # only bn-folding rounding is left


def test_each_site_alone_fp32_equals_removing_its_qdq_by_hand(outlier):
    run, batches, table = outlier
    reference = _outputs(run["exported"].graph_module, batches)
    for site, row in zip(table.sites, table.rows):
        expected = sqnr_db(reference, _outputs(_by_hand(run, site), batches))
        assert row[table.columns.index("sqnr_fp32_db")] == pytest.approx(expected, rel=1e-9, abs=1e-9), site.id
    baseline = sqnr_db(reference, _outputs(run["converted"].graph_module, batches))
    assert table.baseline_db == pytest.approx(baseline)


def test_the_outlier_weight_ranks_first_and_ranking_is_descending(outlier):
    run, _, table = outlier
    top = table.sites[0]
    assert top.weight and top.tensor == "conv2_weight"  # the outlier channel lives there
    fp32 = table.column("sqnr_fp32_db")
    assert fp32 == sorted(fp32, reverse=True)
    assert table.column("gain_db")[0] > 10  # keeping that one weight fp32 gives back more than 10 dB
    # only the outlier quantized: it alone costs the model most of its SQNR
    only = dict(zip((s.id for s in table.sites), table.column("sqnr_only_db")))
    assert only[top.id] == min(only.values())


def test_non_finite_rows_rank_last():
    site = pl.why.sites.Site("o", [], "t", [], [], [], False)
    rows = [(f"o{i}", "t", [], "activation", v, None, None) for i, v in enumerate([3.0, math.nan, 9.0, math.inf])]
    t = Sensitivity(rows, [site] * 4, baseline_db=1.0)
    assert [r[0] for r in t.rows] == ["o2", "o0", "o1", "o3"]


def test_a_user_metric_is_averaged_over_batches(outlier):
    run, batches, _ = outlier

    def agree(f, q):  # top-1 agreement of the float and the quantized model
        return float((f.argmax(1) == q.argmax(1)).float().mean())

    table = pl.sensitivity(run, batches, metric=agree, only=False)
    assert table.columns[-2:] == ["metric_fp32", "metric_only"]
    site = table.sites[0]
    reference = _outputs(run["exported"].graph_module, batches)
    expected = sum(agree(r, o) for r, o in zip(reference, _outputs(_by_hand(run, site), batches))) / len(batches)
    assert table.rows[0][-2] == pytest.approx(expected)
    assert table.rows[0][-1] is None and table.column("sqnr_only_db")[0] is None


def test_overlay_is_the_contracts_and_the_view_shows_it(outlier):
    run, _, table = outlier
    overlay = table.overlay()
    assert overlay["name"] == "sensitivity" and overlay["higher_is_better"] is False
    converted = {n.name for n in run["converted"].graph_module.graph.nodes}
    assert set(overlay["values"]) <= converted and set(table.sites[0].qdq) <= set(overlay["values"])
    view = view_of(table)
    assert schema_error(view, VIEW_SCHEMA, "View") is None
    assert view["panes"][0]["overlay"] == overlay and view["tables"][0]["name"] == "sensitivity"


def test_what_a_worker_gets_pickles_and_computes_the_same(outlier):
    run, batches, _ = outlier
    gm = gated(run)
    reference = _outputs(run["exported"].graph_module, batches)
    again, b2, ref2 = pickle.loads(payload_of(gm, batches, reference))
    for off in ([], [0], [len(gm.sites) - 1]):
        gm.set_off(off)
        again.set_off(off)
        assert all(torch.equal(a, b) for a, b in zip(_outputs(gm.module, batches), _outputs(again.module, b2)))


def test_user_objects_untouched_and_bad_input_is_one_line(outlier):
    run, batches, _ = outlier
    with pytest.raises(pl.Pt2eLensError, match="needs a pl.Run that was converted"):
        pl.sensitivity(run["converted"], batches)
    with pytest.raises(pl.Pt2eLensError, match="got no batches"):
        pl.sensitivity(run, [])
    with pytest.raises(pl.Pt2eLensError, match="could not run the batches"):
        pl.sensitivity(run, [(torch.randn(2, 5),)])


def test_the_magics_return_the_same_tables(outlier):
    from IPython.testing.globalipapp import get_ipython

    run, batches, table = outlier
    ip = get_ipython()
    ip.user_ns.update(sens_run=run, sens_batches=batches)
    ip.run_line_magic("load_ext", "pt2e_lens")
    t = ip.run_line_magic("pt2e", "sensitivity sens_run sens_batches --no-only")
    assert isinstance(t, Sensitivity) and t.column("sqnr_fp32_db") == table.column("sqnr_fp32_db")
    assert t.column("sqnr_only_db") == [None] * len(t)
    r = ip.run_line_magic("pt2e", "recipe sens_run sens_batches --target 30 --max 2")
    assert r.met and len(r.sites) <= 2
    assert ip.run_line_magic("pt2e", "ranges sens_run").rows == pl.observer_ranges(run).rows


def test_by_op_and_module_switch_every_group_of_that_op_or_module(outlier):
    run, batches, table = outlier
    by_op = pl.sensitivity(run, batches, only=False, by="op")
    conv = next(s for s in by_op.sites if s.id == "conv2d_1")
    groups = {s.id: s for s in table.sites}
    # conv2d_1's input activation (relu's group), its weight and its output: every group that serves it
    assert set(conv.groups) == {g.id for g in table.sites if any(k[-1] == "conv2d_1" for k in g.keys)}
    assert {groups[g].tensor for g in conv.groups} >= {"relu", "conv2_weight"}
    reference = _outputs(run["exported"].graph_module, batches)
    gm = gated(run)
    index = {s.id: i for i, s in enumerate(gm.sites)}
    gm.set_off([index[g] for g in conv.groups])
    row = by_op.rows[by_op.sites.index(conv)]
    assert row[4] == pytest.approx(sqnr_db(reference, _outputs(gm.module, batches)))
    by_module = pl.sensitivity(run, batches, only=False, by="module")
    assert {s.id for s in by_module.sites} >= {"conv1", "conv2", "fc"}
    assert by_module.sites[0].id == "conv2"  # the module holding the outlier weight
    recipe = pl.recipe(run, batches, target_sqnr=30, sensitivity_table=by_module)
    assert recipe.met and [s.id for s in recipe.sites] == ["conv2"]
    with pytest.raises(pl.Pt2eLensError, match="by="):
        pl.sensitivity(run, batches, by="layer")


@pytest.mark.parametrize("faster", [1, 2])
def test_a_serial_sweep_runs_at_the_thread_count_it_measured_fastest(monkeypatch, faster):
    sens = importlib.import_module("pt2e_lens.why.sensitivity")
    monkeypatch.setattr(torch, "get_num_threads", lambda: 2)  # as on this 2-core machine
    threads = [2]
    monkeypatch.setattr(torch, "set_num_threads", lambda n: threads.append(n))
    seen = []

    def evaluate(gm, batches, reference, configs, metric=None, evaluated=None):
        seen.append((threads[-1], len(configs)))
        return [(float(len(c)), None) for c in configs]

    clock = iter([0.0, 1.0 if faster == 1 else 3.0, 10.0, 12.0])  # one thread's config, then torch's own
    monkeypatch.setattr(sens, "evaluate", evaluate)
    monkeypatch.setattr(sens, "time", types.SimpleNamespace(perf_counter=lambda: next(clock)))
    configs = [[], [0], [1], [2], [0, 1], [1, 2]]
    out = sens.evaluate_fastest(None, [], [], configs)
    assert out == [(float(len(c)), None) for c in configs]  # every configuration once, in order
    assert seen == [(1, 1), (2, 1), (faster, 4)]
    assert threads[-1] == 2  # torch's own count back afterwards


@pytest.mark.parametrize("locale", [None, "zh-TW"])
def test_an_exact_match_reads_identical_in_the_title(locale):
    # issue 26.4: an output equal to the float one is SQNR inf; the title says "identical", never "inf dB"
    x = [torch.randn(4, 3)]
    exact = sqnr_db(x, [t.clone() for t in x])
    assert exact == math.inf
    site = pl.why.sites.Site("o", [], "t", [], [], [], False)
    pl.set_locale(locale)
    try:
        title = Sensitivity([("o", "t", [], "activation", 1.0, None, None)], [site], baseline_db=exact).title
        finite = Sensitivity([("o", "t", [], "activation", 1.0, None, None)], [site], baseline_db=12.345).title
        word = pl.i18n.t("sensitivity.identical")
    finally:
        pl.set_locale(None)
    assert word in title and "inf" not in title
    assert "12.35 dB" in finite and word not in finite
