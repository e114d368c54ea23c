"""`pl.compare(a, b, …)` and `pl.compare([a, b, …])` draw the same View; a mix of both forms is one catalogued line."""

import json
import re
from pathlib import Path

import pytest

import pt2e_lens as pl
from pt2e_lens import i18n
from pt2e_lens.examples import ConvQuantizer, calibration_batches, example_inputs, get_model

LOCALES = Path(pl.__file__).parent / "locales"


@pytest.fixture(scope="module")
def run():
    return pl.capture(
        get_model("tiny").eval(), example_inputs(8), ConvQuantizer(), calibration=calibration_batches(2, 8)
    )


def _same(a: pl.View, b: pl.View) -> bool:
    return json.dumps(a.view, sort_keys=True) == json.dumps(b.view, sort_keys=True)


def test_separate_graphs_draw_what_the_list_draws(run):
    exported, prepared, converted = run["exported"], run["prepared"], run["converted"]
    two = pl.compare(exported, converted)
    assert _same(two, pl.compare([exported, converted]))
    assert [p["label"] for p in two.view["panes"]] == ["exported", "converted"]
    assert len(two.view["diffs"]) == 1
    # removed/added in the diff are the real graphs' nodes: converted has torchao's quantize ops, exported none
    names = {n.name for n in converted.graph_module.graph.nodes} - {n.name for n in exported.graph_module.graph.nodes}
    assert names and set(two.view["diffs"][0]["added"]) == names

    labelled = pl.compare((exported, "float"), (prepared, "observed"), (converted, "int8"), focus=["conv2d"], hops=0)
    by_list = pl.compare([(exported, "float"), (prepared, "observed"), (converted, "int8")], focus=["conv2d"], hops=0)
    assert _same(labelled, by_list)
    assert [p["label"] for p in labelled.view["panes"]] == ["float", "observed", "int8"]
    assert len(labelled.view["diffs"]) == 2 and all(labelled.view["focus"])


def test_the_items_keyword_still_works(run):
    pair = [(run["exported"], "a"), (run["converted"], "b")]
    assert _same(pl.compare(items=pair, title="t"), pl.compare(pair, title="t"))


def _catalogue(lang: str) -> dict:
    return json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_bad_forms_are_one_catalogued_line(run, lang):
    a, b = run["exported"], run["converted"]
    cases = [
        (lambda: pl.compare([a, b], "conv2d"), "error.guard_compare_mixed"),  # an old positional focus
        (lambda: pl.compare(a, [b]), "error.guard_compare_mixed"),
        (lambda: pl.compare(a, items=[b]), "error.guard_compare_mixed"),
        (lambda: pl.compare(), "error.compare_needs_two"),
        (lambda: pl.compare(a), "error.guard_compare_items"),
    ]
    cat = _catalogue(lang)
    with i18n.using(lang):
        for call, key in cases:
            with pytest.raises(pl.Pt2eLensError) as e:
                call()
            msg = str(e.value)
            head = re.split(r"\{\w+\}", cat[key])[0]
            assert msg.startswith(head) and "\n" not in msg, (key, msg)


def test_two_lowered_stages_are_labelled_by_their_backend(run):
    """Two lowerings side by side read "Inductor" / "XNNPACK", not "lowered #1" / "lowered #2" (issue 26.4).
    The records here carry no outcomes: only the backend's name is read (the real lowerings: backends.ipynb)."""
    from pt2e_lens.backends import BackendRecord
    from pt2e_lens.capture.lowered import lowered_stage

    inductor = lowered_stage(run["converted"], BackendRecord("inductor", {}))
    xnnpack = lowered_stage(run["converted"], BackendRecord("xnnpack", {}))
    view = pl.compare(inductor, xnnpack).view
    assert [p["label"] for p in view["panes"]] == ["Inductor", "XNNPACK"]
    assert [p["label"] for p in pl.compare(run["converted"], inductor).view["panes"]] == ["converted", "Inductor"]
    assert [p["label"] for p in pl.compare((inductor, "mine"), xnnpack).view["panes"]] == ["mine", "XNNPACK"]
