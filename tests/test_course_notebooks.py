"""Both course chapters, redone with pt2e-lens, run top to bottom; their asserts (every number the chapters
print) run inside the notebooks, and the printed lines the chapters show are checked here."""

from pathlib import Path

import pytest
from test_notebook import execute

from pt2e_lens.display import MIME
from pt2e_lens.schema.packed import unpack

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"

CHAPTERS = {
    "m00_3_decomposition.ipynb": [
        "node 數量（含 get_attr、placeholder、output）：gm_pre 47 → gm_post 51",
        "gm_pre ： conv2d → batch_norm → relu",
        "gm_post： conv2d → _native_batch_norm_legit_no_training → getitem → relu",
    ],
    "m03_6_partial_composable_order.ipynb": [
        "dq q dq conv2d q dq relu max_pool2d conv2d relu conv2d add relu max_pool2d conv2d relu "
        "adaptive_avg_pool2d flatten linear",
        "只有 ConvQuantizer：observer 6 個",
        "ConvQuantizer + AddQuantizer：observer 7 個",
        "RuntimeError: Quantizer MeddlingQuantizer has changed annotations on node conv2d\n",
        "大 pattern 先：conv 與 relu 之間有 observer？ False",
        "小 pattern 先：conv 與 relu 之間有 observer？ True",
    ],
}


@pytest.mark.parametrize("name", sorted(CHAPTERS))
def test_chapter_runs_with_its_numbers(name):
    nb = execute(NOTEBOOKS / name)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    errors = [f"{o['ename']}: {o['evalue']}" for o in outputs if o.get("output_type") == "error"]
    assert not errors, errors  # a chapter assert that fails (a number that drifted) is an error output
    stdout = "".join(o["text"] for o in outputs if o.get("output_type") == "stream" and o["name"] == "stdout")
    for line in CHAPTERS[name]:
        assert line in stdout
    stderr = "".join(o["text"] for o in outputs if o.get("output_type") == "stream" and o["name"] == "stderr")
    assert "pt2e-lens:" not in stderr  # no focus or note of the chapter misses its nodes
    views = [unpack(o["data"][MIME]) for o in outputs if MIME in o.get("data", {})]
    assert views and all("text/html" in o["data"] for o in outputs if MIME in o.get("data", {}))


def test_chapters_are_traditional_chinese_and_saved_without_outputs():
    import nbformat

    for name in CHAPTERS:
        nb = nbformat.read(NOTEBOOKS / name, as_version=4)
        text = "".join(c.source for c in nb.cells if c.cell_type == "markdown")
        assert "標註" in text and "为" not in text  # zh-TW (为 is the simplified form of 為)
        assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
