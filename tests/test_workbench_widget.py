"""The workbench widget's kernel side: a button's message runs the step (in a worker thread), the state and
the drawn run follow, errors stay one line in the widget, and the output carries pl.show's static view."""

import json

import torch
from _xnnpack_models import ResBlock

import pt2e_lens as pl
from pt2e_lens import i18n
from pt2e_lens.schema import MIME_TYPE
from pt2e_lens.schema.packed import unpack


def _batches(n=3, seed=3):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(2, 8, 8, 8, generator=g),) for _ in range(n)]


def _press(w, action, **extra):
    w._on_msg(w, {"action": action, **extra}, [])
    if w._worker is not None:
        w._worker.join()  # the step's thread: the test reads what it left
    return json.loads(w.state_json)


def _view(w):
    return unpack(json.loads(w.view_json))


def test_buttons_run_the_steps_and_the_widget_draws_the_run():
    batches = _batches()
    wb = pl.workbench(ResBlock().eval(), batches[0], calibration=batches)
    w = wb.widget
    assert w.view_json == "" and json.loads(w.state_json)["next"] == "export"
    s = _press(w, "advance")
    assert [x["name"] for x in s["steps"] if x["done"]] == ["export"] == wb.done
    assert [p["label"] for p in _view(w)["panes"]] == wb.run.stages
    s = _press(w, "advance")
    s = _press(w, "advance")
    assert wb.seen == len(batches) and s["next"] == "convert" and s["progress"] is None
    s = _press(w, "advance")
    assert s["sqnr"] is not None and f"{wb.sqnr:.2f}" in s["sqnr"]
    assert len(_view(w)["panes"]) == len(wb.run.stages) == 5
    bundle = w._bundle()
    assert "application/vnd.jupyter.widget-view+json" in bundle and MIME_TYPE in bundle and "text/html" in bundle


def test_a_pick_from_the_graph_and_rerun_show_the_comparison():
    batches = _batches()
    wb = pl.workbench(ResBlock().eval(), batches[0], calibration=batches)
    w = wb.widget
    for _ in range(4):
        _press(w, "advance")
    conv = next(n["id"] for n in wb.run["annotated"].snapshot.nodes if n["target"].startswith("conv2d"))
    s = _press(w, "keep_fp32", id=conv)
    assert s["picks"] == [conv] and s["error"] is None
    s = _press(w, "rerun")
    assert s["comparison"] is not None and wb.previous is not None
    rows = {r[0]: r[1:] for r in s["comparison"]["rows"]}
    before = len(wb.previous["prepared"].snapshot.observers)
    after = len(wb.run["prepared"].snapshot.observers)
    assert rows["observers (prepared)"] == [before, after] and after < before
    s = _press(w, "quantize", label=conv)
    assert s["picks"] == []


def test_bad_picks_and_a_failing_step_are_one_line_in_the_widgets_language():
    batches = _batches()
    with i18n.using("zh-TW"):
        wb = pl.workbench(ResBlock().eval(), batches[0], calibration=[(torch.randn(2, 3, 8, 8),)])
        w = wb.widget
    s = _press(w, "advance")
    assert s["steps"][0]["label"] == "匯出"
    s = _press(w, "keep_fp32", id="<img src=x onerror=alert(1)>")
    assert s["error"] and "\n" not in s["error"] and "<img" in s["error"]  # text; the front end places it as text
    _press(w, "advance")
    s = _press(w, "advance")  # calibration of the wrong shape
    assert s["error"] and "\n" not in s["error"] and wb.done == ["export", "prepare"]
    assert s["status"].startswith("已完成")
    s = _press(w, "use", name="x86")
    assert s["preset"] == "x86" and wb.backend == "inductor"


def test_recipe_from_the_widget_offers_sites_that_accept_takes():
    from pt2e_lens.examples import OutlierNet, image_batches, xnnpack_quantizer

    batches = image_batches(3)
    wb = pl.workbench(OutlierNet().eval(), batches[0], quantizer=xnnpack_quantizer(), calibration=batches)
    w = wb.widget
    s = _press(w, "recipe", target="30")
    assert s["error"] and "\n" not in s["error"] and s["offered"] is None  # not converted yet: one line
    s = _press(w, "run_all")
    s = _press(w, "recipe", target="thirty")
    assert s["error"] and "\n" not in s["error"] and s["offered"] is None
    s = _press(w, "recipe", target="30")
    assert [site["id"] for site in s["offered"]["sites"]] == [site.id for site in wb.offered.sites]
    assert [site.tensor for site in wb.offered.sites] == ["conv2_weight"]
    s = _press(w, "accept", id=s["offered"]["sites"][0]["id"])
    assert s["picks"] == [wb.offered.sites[0].id] and s["error"] is None
