"""Both course chapters, redone with pt2e-lens, run top to bottom; their asserts (every number the chapters
print) run inside the notebooks, and the printed lines the chapters show are checked here."""

import importlib.util
import re
from pathlib import Path

import pytest

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


# the words of the front end and of Python that an English output would show (issue 18: none of them in zh-TW)
ENGLISH_UI = re.compile(r"Collapse all|Expand all|\bLegend\b|\bFit\b|\d nodes|sharing groups|observer added|\(output\)")
# what each chapter's exercise cell, as shipped (a first, wrong try), prints and marks
EXERCISES = {
    "m00_3_decomposition.ipynb": (
        "✘ 第 2 步：你寫的是 batch_norm，拆開後的圖是 _native_batch_norm_legit_no_training",
        1,
    ),
    "m03_6_partial_composable_order.ipynb": (
        "✘ 順序 ConvQuantizer → ConvReluQuantizer 讓 conv2d 與 relu 之間多了一個 observer",
        1,
    ),
}


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """Each chapter executed once per test command (nbclient, tests/ui/book_build.py): the course's host tests
    build the book from the same executed copies. The chapters choose their language."""
    spec = importlib.util.spec_from_file_location("book_build", Path(__file__).parent / "ui" / "book_build.py")
    assert spec and spec.loader
    book = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(book)
    out = book.shared_dir() or tmp_path_factory.mktemp("chapters")
    return {name: book.executed_chapter(Path(name).stem, out) for name in sorted(CHAPTERS)}


def _code_outputs(cell):
    return cell.get("outputs", []) if cell.cell_type == "code" else []


@pytest.mark.parametrize("name", sorted(CHAPTERS))
def test_chapter_runs_with_its_numbers(name, executed):
    nb = executed[name]
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


@pytest.mark.parametrize("name", sorted(CHAPTERS))
def test_chapter_speaks_zh_tw_in_every_output(name, executed):
    """The chapter sets its language itself (course_setup): every View carries zh-TW, so a saved or converted
    output keeps it; titles, tables and printed lines have no English UI words."""
    outputs = [o for c in executed[name].cells for o in _code_outputs(c)]
    views = [unpack(o["data"][MIME]) for o in outputs if MIME in o.get("data", {})]
    assert views and {v.get("locale") for v in views} == {"zh-TW"}
    shown = [v["title"] or "" for v in views] + [t["title"] or "" for v in views for t in v["tables"]]
    shown += [str(cell) for v in views for t in v["tables"] for row in t["rows"] for cell in row]
    shown += [o["text"] for o in outputs if o.get("output_type") == "stream"]
    shown += [o["data"]["text/plain"] for o in outputs if MIME in o.get("data", {})]
    found = [s for s in shown if ENGLISH_UI.search(s)]
    assert not found, found[:5]


@pytest.mark.parametrize("name", sorted(CHAPTERS))
def test_chapter_is_laid_out_as_the_course_wants(name, executed):
    """An install cell and the "Open In Colab" line first; one exercise cell; the self-test asserts last,
    under their own heading; the seed's own asserts stay where the seed has them."""
    cells = executed[name].cells
    assert "Open In Colab" in cells[0].source and "%pip install" in cells[1].source
    assert 'course_setup("zh-TW")' in cells[2].source
    heading = next(i for i, c in enumerate(cells) if c.cell_type == "markdown" and "## 自我檢查" in c.source)
    assert heading == len(cells) - 2 and cells[-1].cell_type == "code" and cells[-1].source.count("assert") >= 8
    exercises = [c for c in cells if c.cell_type == "code" and c.source.lstrip().startswith("my_")]
    assert len(exercises) == 1 and "exercise(" in exercises[0].source
    text, marked = EXERCISES[name]
    printed = "".join(o.get("text", "") for o in _code_outputs(exercises[0]))
    assert text in printed
    view = next(unpack(o["data"][MIME]) for o in _code_outputs(exercises[0]) if MIME in o.get("data", {}))
    assert view["title"] == "✘ 還沒對：看圖上標出來的 node" and len(view["notes"][1]) == marked
    # the self-test checks a wrong answer too, silently: a student who runs every cell sees no ✘ there (issue 26.4)
    self_test = "".join(o.get("text", "") for o in _code_outputs(cells[-1]))
    assert "✘" not in self_test and "exercise(" in cells[-1].source and "echo=False" in cells[-1].source


def test_m03_6_shows_done_where_the_text_says_so(executed):
    cells = executed["m03_6_partial_composable_order.ipynb"].cells
    at = next(i for i, c in enumerate(cells) if c.cell_type == "markdown" and "這裡的 `done()`" in c.source)
    shown = "".join(o.get("text", "") for o in _code_outputs(cells[at + 1]))
    assert shown.startswith("def done(*nodes):") and "a._annotated" in shown


def test_chapters_are_traditional_chinese_and_saved_without_outputs():
    import nbformat

    for name in CHAPTERS:
        nb = nbformat.read(NOTEBOOKS / name, as_version=4)
        text = "".join(c.source for c in nb.cells if c.cell_type == "markdown")
        assert "標註" in text and "为" not in text  # zh-TW (为 is the simplified form of 為)
        assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
