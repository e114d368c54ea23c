"""pl.observer_ranges and the snapshot's optional `channels` summary: per-channel ranges read from torchao's
own observers (per-channel) or from the weight they watch (per-tensor), outliers first."""

import operator
import warnings

import pytest

import pt2e_lens as pl
from pt2e_lens.examples import OutlierNet, image_batches, xnnpack_quantizer
from pt2e_lens.schema import VIEW_SCHEMA
from pt2e_lens.schema.check import schema_error


def _run(per_channel: bool):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batches = image_batches(2)
        return pl.capture(OutlierNet().eval(), batches[0], xnnpack_quantizer(per_channel), calibration=batches)


@pytest.fixture(scope="module")
def runs():
    return {"tensor": _run(False), "channel": _run(True)}


def _observer_of(gm, node_name):
    node = next(n for n in gm.graph.nodes if n.name == node_name)
    return next(gm.get_submodule(u.target) for u in node.users if u.op == "call_module")


def test_the_outlier_channel_of_a_per_tensor_weight_comes_first(runs):
    run = runs["tensor"]
    table = pl.observer_ranges(run)
    top = dict(zip(table.columns, table.rows[0]))
    assert top["observes"] == "conv2_weight" and top["source"] == "weight" and top["outlier"] is True
    gm = run["calibrated"].graph_module
    target = next(n.target for n in gm.graph.nodes if n.name == "conv2_weight")
    w = operator.attrgetter(target)(gm).reshape(16, -1)
    ranges = w.amax(1) - w.amin(1)
    assert top["channels"] == 16 and top["worst_channel"] == int(ranges.argmax()) == 0
    assert top["ratio"] == pytest.approx(float(ranges.max() / ranges.median()))
    assert [r[table.columns.index("outlier")] for r in table.rows[1:]] == [False] * (len(table) - 1)
    assert table.column("ratio") == sorted(table.column("ratio"), reverse=True)


def test_per_channel_observers_show_their_own_min_max(runs):
    run = runs["channel"]
    table = pl.observer_ranges(run["calibrated"])
    row = dict(zip(table.columns, next(r for r in table.rows if r[1] == "conv2_weight")))
    obs = _observer_of(run["calibrated"].graph_module, "conv2_weight")
    assert row["source"] == "observer"
    assert row["min"] == pytest.approx(obs.min_val.tolist()) and row["max"] == pytest.approx(obs.max_val.tolist())
    assert row["ratio"] == pytest.approx(
        float((obs.max_val - obs.min_val).max() / (obs.max_val - obs.min_val).median())
    )


def test_the_snapshot_carries_the_summary_only_where_there_are_channels(runs):
    snap = runs["tensor"]["calibrated"].snapshot
    with_channels = {o["observes"] for o in snap.observers if "channels" in o}
    assert with_channels == {"conv1_weight", "conv2_weight", "fc_weight"}  # weights; activations have none
    assert schema_error(snap.data, VIEW_SCHEMA, "Snapshot") is None
    entry = next(o for o in snap.observers if o["observes"] == "conv2_weight")
    assert entry["channels"]["worst"] == 0 and entry["channels"]["ratio"] >= 20


def test_a_graph_without_observers_is_one_line(runs):
    with pytest.raises(pl.Pt2eLensError, match="needs a prepared or calibrated graph"):
        pl.observer_ranges(runs["tensor"]["converted"])
    assert isinstance(pl.observer_ranges(runs["tensor"]["prepared"]).rows[0][8], float)
