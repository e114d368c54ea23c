"""MIME bundles: the View packed, a self-contained text/html fallback, text/plain — all escaped."""

import json
import re
from importlib.resources import files

import anywidget
import jsonschema
from _hostile import HOSTILE, hostile_ep

import pt2e_lens as pl
from pt2e_lens import display
from pt2e_lens._static import packed_viewer
from pt2e_lens.display import MIME, html_fragment, mimebundle, script_json, table_html
from pt2e_lens.examples import ConvQuantizer, calibration_batches, example_inputs, get_model
from pt2e_lens.report import write_html
from pt2e_lens.schema.packed import unpack
from pt2e_lens.views import graph_view

SCHEMA = json.loads(files("pt2e_lens").joinpath("schema/view.schema.json").read_text())


def test_run_bundle_carries_a_valid_view_with_every_stage():
    run = pl.capture(
        get_model("tiny").eval(), example_inputs(8), ConvQuantizer(), calibration=calibration_batches(2, 8)
    )
    bundle = mimebundle(run)
    view = unpack(bundle[MIME])
    jsonschema.validate(view, SCHEMA)
    assert view["mode"] == "run" and [p["label"] for p in view["panes"]] == run.stages
    assert {t["name"] for t in view["tables"]} >= {"annotations", "observers", "qdq", "op_diff"}
    assert len(view["diffs"]) == len(run.stages) - 1
    assert bundle["text/plain"].startswith("pt2e-lens run")
    converted = view["panes"][-1]["snapshot"]
    assert len(converted["qdq"]) == len(pl.qdq(run["converted"])) == 20


def test_compare_focus_follows_what_nodes_became(tiny_ep):
    w = pl.compare(
        [(tiny_ep.module(), "ep.module()"), (tiny_ep.run_decompositions({}).module(), "decomposed")],
        focus=["conv2d", "batch_norm", "relu"],
        hops=0,
        title="stem",
    )
    view = w.view
    jsonschema.validate(view, SCHEMA)
    pre, post = view["focus"]
    assert sum(n.startswith("batch_norm") for n in pre) == 4
    assert sum(n.startswith("_native_batch_norm_legit_no_training") for n in post) == 4
    assert sum(n.startswith("getitem") for n in post) == 4
    removed = view["diffs"][0]["removed"]
    assert sum(n.startswith("batch_norm") for n in removed) == 4


def test_notes_are_per_pane_and_checked(tiny_ep):
    gm = tiny_ep.module()
    w = pl.compare([gm, gm], notes=[{}, {"conv2d": "the stem conv"}])
    assert w.view["notes"][1] == {"conv2d": "the stem conv"}
    try:
        pl.compare([gm, gm], notes=[{}])
    except pl.Pt2eLensError as e:
        assert "one {node name: text} dict per pane (2)" in str(e)
    else:
        raise AssertionError("mismatched notes accepted")


def test_script_json_cannot_close_its_script_tag():
    view = {"title": "</script><script>alert(1)</script><!--", "x": "a & b"}
    text = script_json(view)
    assert "</script" not in text.lower() and "<!--" not in text and "&" not in text
    assert json.loads(text) == view


def test_hostile_module_name_is_escaped_in_html_and_tables():
    ep = hostile_ep()
    snap = pl.snapshot(ep)
    assert any(HOSTILE in n["module_path"] for n in snap.nodes)  # the name really is in the data
    frag = html_fragment(graph_view(ep, title=HOSTILE))
    assert "<img" not in frag
    table = pl.Table("t", ["name"], [[HOSTILE]], title=HOSTILE)
    cells = table_html(table.to_dict())  # what a host without the front end shows
    assert "<img" not in cells and "&lt;img" in cells


def test_report_file_is_self_contained(tmp_path):
    run = pl.Run(get_model("conv_relu").eval(), example_inputs(2)).prepare(ConvQuantizer())
    path = write_html(run, tmp_path / "r.html", title=HOSTILE)
    text = path.read_text()
    assert not re.search(r"""<(script|link|img)[^>]+(src|href)=["']?https?:""", text)
    assert "<img" not in text
    assert text.count(f'type="{MIME}"') == 1


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def test_show_has_no_widget_view_and_widget_updates_live(tiny_ep):
    shown = pl.show(tiny_ep, title="t")
    assert "application/vnd.jupyter.widget-view+json" not in shown._repr_mimebundle_()
    w = pl.widget(tiny_ep.module(), focus="relu", hops=0)
    first = unpack(w.view_json)
    assert sorted(first["focus"][0]) == ["relu", "relu_1", "relu_2", "relu_3"]
    w.update(tiny_ep.run_decompositions({}).module())
    again = unpack(w.view_json)
    assert again["panes"][0]["snapshot"]["meta"]["node_count"] == 51 and again["focus"] is None
    data, metadata = w._repr_mimebundle_()
    assert MIME in data and "text/html" in data
    widget_data, widget_metadata = anywidget.AnyWidget._repr_mimebundle_(w)  # the metadata anywidget returns
    assert metadata == widget_metadata and data[WIDGET_VIEW] == widget_data[WIDGET_VIEW]


def test_accuracy_displays_as_a_heat_overlay_on_the_converted_graph():
    run = pl.capture(
        get_model("conv_relu").eval(), example_inputs(2), ConvQuantizer(), calibration=calibration_batches(2, 2)
    )
    acc = pl.accuracy(run, calibration_batches(2, 2))
    view = unpack(mimebundle(acc)[MIME])
    jsonschema.validate(view, SCHEMA)
    pane = view["panes"][0]
    assert pane["label"] == "converted" and pane["overlay"]["unit"] == "dB"
    ids = {n["id"] for n in pane["snapshot"]["nodes"]}
    assert pane["overlay"]["values"] and set(pane["overlay"]["values"]) <= ids
    assert pane["overlay"]["values"]["relu"] == acc.per_node["relu"]
    assert [t["name"] for t in view["tables"]] == ["accuracy"]


def test_run_view_carries_the_sharing_table():
    run = pl.Run(get_model("residual").eval(), example_inputs(2)).prepare(ConvQuantizer())
    tables = {t["name"]: t for t in unpack(mimebundle(run)[MIME])["tables"]}
    assert "sharing" in tables and "annotations" in tables and "observers" in tables
    # a Run's tabs mix stages: each table says which one its rows come from
    assert tables["observers"]["title"] == "observers (from prepared)"
    assert tables["annotations"]["title"] in ("annotations (from annotated)", "annotations (from prepared)")


def test_run_view_shows_what_the_decomposition_turned_each_op_into():
    run = pl.Run(get_model("tiny").eval(), example_inputs(2)).decompose({})
    tables = {t["name"]: t for t in unpack(mimebundle(run)[MIME])["tables"]}
    became = {r[0]: r[3] for r in tables["decomposition"]["rows"]}
    assert became["batch_norm"] == "_native_batch_norm_legit_no_training + getitem"
    assert tables["decomposition"]["title"].startswith("run_decompositions({}): 47 → 51")


def test_script_free_tables_stop_after_their_first_rows_and_say_how_many_more():
    rows = [[f"node_{i}", i] for i in range(display.FALLBACK_ROWS + 7)]
    table = pl.Table("t", ["node", "x"], rows).to_dict()
    text = table_html(table)
    assert text.count("<tr>") == 1 + display.FALLBACK_ROWS + 1  # head, the first rows, the "more" line
    assert "node_0<" in text and f"node_{display.FALLBACK_ROWS}<" not in text and "… 7 more rows" in text
    assert table_html(table, max_rows=None).count("<tr>") == 1 + len(rows)
    # the viewer, where scripts run, gets every row from the packed View
    assert len(unpack(mimebundle(pl.Table("t", ["node", "x"], rows))[MIME])["tables"][0]["rows"]) == len(rows)


def test_script_free_cells_are_styled_once_per_output_and_parse_as_the_table():
    rows = [["conv2d", 1.5], ["relu", None]]
    frag = mimebundle(pl.Table("t", ["op", "x"], rows))["text/html"]
    fallback = frag.split("<script", 1)[0]
    # one <style> for every cell of the output, none per cell; the table keeps its own inline style
    assert fallback.count(display.CELL_STYLE) == 1 and fallback.count("<style") == 1
    assert not re.search(r"<t[dh] [^>]*style=", fallback) and "style='table-layout:auto" in fallback
    # the omitted </td> and </tr> are implied: each row holds its own cells only (HTML's optional end tags)
    cells = [re.findall(r"<t[dh]>([^<]*)", r) for r in re.split(r"<tr>", fallback.split("<thead>", 1)[1])[1:]]
    assert cells == [["op", "x"], ["conv2d", "1.5"], ["relu", ""]]


def test_viewer_once_per_page_inlines_it_in_the_first_output_only(monkeypatch):
    table = pl.Table("t", ["node"], [["a"]])
    viewer = packed_viewer()
    assert viewer and all(viewer in mimebundle(table)["text/html"] for _ in range(2))  # default: every output
    monkeypatch.setattr(display, "_viewer_shown", False)
    monkeypatch.setenv(display.VIEWER_SETTING, "once")
    first, second = (mimebundle(table)["text/html"] for _ in range(2))
    assert viewer in first and viewer not in second
    assert unpack(mimebundle(table)[MIME])["tables"][0]["rows"] == [["a"]]  # the View is still there


def test_a_table_takes_a_title_in_show_and_in_widget_update(tiny_ep):
    table = pl.diff_ops(tiny_ep, tiny_ep.run_decompositions({}), "exported", "decomposed")
    assert pl.show(table, title="mine").view["title"] == "mine"
    w = pl.widget(tiny_ep.module())
    w.update(table, title="mine")  # as w.update(table) does, with the title given
    view = unpack(w.view_json)
    assert view["mode"] == "table" and view["title"] == "mine"
    assert len(view["tables"][0]["rows"]) == len(table.rows) > 0
