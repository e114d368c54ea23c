"""Every %pt2e magic, with good and bad input, in a real kernel."""

import pytest
from kernel_client import kernel_fixture

from pt2e_lens.schema import MIME_TYPE as MIME
from pt2e_lens.schema.packed import unpack

kernel = kernel_fixture()


@pytest.fixture(scope="module")
def k(kernel):
    out = kernel.execute(
        "%load_ext pt2e_lens\n"
        "ep = torch.export.export(get_model('tiny').eval(), example_inputs())\n"
        "run = pl.capture(ep, None, ConvReluQuantizer(), calibration=calibration_batches(2))\n"
        "answer = 42"
    )
    assert out["ok"], out
    return kernel


def good(k, line):
    out = k.execute(line)
    assert out["ok"], out
    return out


def bad(k, line):
    out = k.execute(line)  # IPython prints a UsageError as one stderr line, no traceback
    assert out["stderr"].startswith("UsageError: ") and out["stderr"].count("\n") == 1, out
    assert not out["results"] and "Traceback" not in out["stderr"]
    return out["stderr"].removeprefix("UsageError: ").strip()


def view(out):
    [bundle] = [r for r in out["results"] if MIME in r]
    return unpack(bundle[MIME])


def test_help(k):
    text = good(k, "%pt2e help")["stdout"]
    assert all(f"%pt2e {c}" in text for c in ("show", "compare", "diff", "decomp", "watch", "report"))
    assert good(k, "%pt2e")["stdout"] == text


def test_show(k):
    doc = view(good(k, "%pt2e show run"))
    assert doc["mode"] == "run" and [p["label"] for p in doc["panes"]][-1] == "converted"
    doc = view(good(k, "%pt2e show run[prepared] --focus conv2d,relu --hops 0 --title 'my title'"))
    assert doc["title"] == "my title" and set(doc["focus"][0]) == {
        "conv2d",
        "conv2d_1",
        "conv2d_2",
        "conv2d_3",
        "relu",
        "relu_1",
        "relu_2",
        "relu_3",
    }
    assert bad(k, "%pt2e show ep2") == "no variable 'ep2' — did you mean ep?"
    assert "did you mean prepared" in bad(k, "%pt2e show run[prepped]")
    assert "GraphModule or a torch.export.ExportedProgram, got int" in bad(k, "%pt2e show answer")
    assert "--hops" in bad(k, "%pt2e show ep --hops many")
    assert "hops must be a whole number" in bad(k, "%pt2e show ep --hops -1")
    stem = view(good(k, "%pt2e show ep --module stem --focus conv2d,relu --hops 0"))
    assert stem["focus"] == [["conv2d", "relu"]]
    huge = view(good(k, "%pt2e show ep --focus relu --hops 99999999999"))  # capped at the diameter: no hang
    n = len(huge["panes"][0]["snapshot"]["nodes"])  # no path is longer than the node count
    assert huge["focus"] == view(good(k, f"%pt2e show ep --focus relu --hops {n}"))["focus"]
    assert len(huge["focus"][0]) > 40
    assert "not a variable name" in bad(k, "%pt2e show __import__('os')")


def test_compare(k):
    doc = view(good(k, "%pt2e compare ep run[prepared] run[converted] --focus conv2d"))
    assert doc["mode"] == "compare" and [p["label"] for p in doc["panes"]] == ["ep", "run[prepared]", "run[converted]"]
    assert len(doc["diffs"]) == 2
    assert "two or more" in bad(k, "%pt2e compare ep")


def test_diff(k):
    [table] = view(good(k, "%pt2e diff ep run[converted]"))["tables"]
    assert table["columns"] == ["op", "ep", "run[converted]", "delta"]
    assert ["quantize_per_tensor", 0, 6, 6] in table["rows"]
    assert "required" in bad(k, "%pt2e diff ep") or "expected" in bad(k, "%pt2e diff ep")


QDQ_NODES = (
    "sum(getattr(n.target, 'namespace', '') == 'quantized_decomposed' "
    "for n in run['converted'].graph_module.graph.nodes)"
)


@pytest.mark.parametrize("magic, rows", [("annotations", "6"), ("observers", "9"), ("qdq", QDQ_NODES)])
def test_tables_read_the_right_stage_of_a_run(k, magic, rows):
    good(k, f"_t = %pt2e {magic} run")
    assert good(k, f"print(len(_t), {rows})")["stdout"].split() == [good(k, "print(len(_t))")["stdout"].strip()] * 2
    assert "did you mean run" in bad(k, f"%pt2e {magic} rnu")


def test_decomp(k):
    doc = view(good(k, "%pt2e decomp ep --table core"))
    assert "47 → 54" in doc["title"] and {t["name"] for t in doc["tables"]} == {"op_diff", "decomposition"}
    good(k, "%pt2e decomp run")
    assert "invalid choice" in bad(k, "%pt2e decomp ep --table full")
    assert "ExportedProgram" in bad(k, "%pt2e decomp run[converted]")


def test_watch(k):
    assert "current model run (the newest)" in good(k, "%pt2e watch")["stdout"]
    assert "ep (pinned" in good(k, "%pt2e watch ep")["stdout"]
    good(k, "gm = ep.module()")
    assert "current model ep (pinned" in good(k, "%pt2e watch")["stdout"]
    assert "gm (the newest)" in good(k, "%pt2e watch --auto")["stdout"]  # the model touched last, Run or graph
    assert "not a pl.Run" in bad(k, "%pt2e watch answer")
    assert "did you mean gm" in bad(k, "%pt2e watch gm3")
    assert "open" not in bad(k, "%pt2e watch nope")  # models are suggested, not builtins


def test_report(k, tmp_path):
    path = tmp_path / "r.html"
    assert f"wrote {path}" in good(k, f"%pt2e report run --html {path}")["stdout"]
    assert path.read_text().startswith("<!doctype html>")
    assert "cannot write" in bad(k, "%pt2e report run --html /proc/nope/r.html")
    assert "--html" in bad(k, "%pt2e report run")
    assert "needs a file name" in bad(k, "%pt2e report run --html ''")
    assert "already exists" in bad(k, f"%pt2e report run --html {path}")  # as the CLI: no silent overwrite
    assert f"wrote {path}" in good(k, f"%pt2e report run --html {path} --force")["stdout"]


def test_lower_needs_a_run_in_the_locale(k):
    assert bad(k, "%pt2e lower inductor ep") == (
        "%pt2e lower: ep is a ExportedProgram, not a pl.Run (e.g. pl.capture(...))"
    )
    good(k, "pl.set_locale('zh-TW')")
    try:
        assert "不是 pl.Run" in bad(k, "%pt2e lower inductor ep")
    finally:
        good(k, "pl.set_locale('en')")


def test_bad_lines(k):
    assert "did you mean show" in bad(k, "%pt2e shwo ep")
    assert "quotes" in bad(k, "%pt2e show 'ep")
    assert good(k, "print(answer)")["stdout"] == "42\n"
