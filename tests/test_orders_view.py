"""`pl.compare_orders` displays as a compare of the two orders' prepared graphs with the moved observer marked
(course M03-6 part C, issue 18.5): checked against plain prepare_pt2e graphs of both orders."""

import jsonschema
import pytest
from _why_models import export_gm, node
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e

import pt2e_lens as pl
from pt2e_lens._copy import private_copy
from pt2e_lens._torchao import ComposableQuantizer
from pt2e_lens.examples import AddQuantizer, ConvQuantizer, ConvReluQuantizer, example_inputs, get_model
from pt2e_lens.schema import VIEW_SCHEMA
from pt2e_lens.views import view_of


@pytest.fixture(scope="module")
def result():
    return pl.compare_orders(get_model("conv_relu").eval(), [ConvReluQuantizer(), ConvQuantizer()], example_inputs(2))


def observer_of_output(gm, producer: str) -> str | None:
    """The observer node torchao put on `producer`'s output in a real prepared graph, or None."""
    users = [u for u in node(gm, producer).users if u.op == "call_module"]
    return users[0].name if users else None


def test_the_moved_observer_is_marked_in_both_panes(result):
    view = view_of(result)
    jsonschema.validate(view, VIEW_SCHEMA)
    assert view["mode"] == "compare" and view["title"] == result.summary
    assert [p["label"] for p in view["panes"]] == result.orders
    gm = export_gm("conv_relu")
    big = prepare_pt2e(private_copy(gm), ComposableQuantizer([ConvReluQuantizer(), ConvQuantizer()]))
    small = prepare_pt2e(private_copy(gm), ComposableQuantizer([ConvQuantizer(), ConvReluQuantizer()]))
    # the big pattern observes relu's output, the small one conv2d's output (between conv2d and relu)
    after_relu, between = observer_of_output(big, "relu"), observer_of_output(small, "conv2d")
    assert after_relu and between and observer_of_output(big, "conv2d") is None
    d = view["diffs"][0]
    assert after_relu in d["removed"] and between in d["added"]
    # matched by name they would be "kept": they watch different tensors, so they are not
    assert [after_relu, after_relu] not in d["kept"] and [between, between] not in d["kept"]
    assert "relu" in view["notes"][0][after_relu] and "conv2d" in view["notes"][1][between]
    # nothing else is marked as moved: every other observer sits on the same tensor in both orders
    moved = {n for n in view["notes"][0]} | {n for n in view["notes"][1]}
    assert moved == {after_relu, between}
    assert view["tables"][0]["name"] == "orders"


def test_a_table_when_order_does_not_matter():
    same = pl.compare_orders(export_gm("residual"), [ConvQuantizer(), AddQuantizer()])
    view = view_of(same)
    assert view["mode"] == "compare" and not any(view["notes"])
    assert not view["diffs"][0]["added"] and not view["diffs"][0]["removed"]
