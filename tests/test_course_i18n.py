"""Issue 18, point 1: under pl.set_locale("zh-TW") the Python-made words speak zh-TW too: the sharing "why"
column, compare_orders' change column, the magics' help and errors, the comm's error replies."""

import re

import pytest
from IPython.core.error import UsageError

import pt2e_lens as pl
from pt2e_lens.examples import (
    AddQuantizer,
    ComposableQuantizer,
    ConvQuantizer,
    example_inputs,
    export_module,
    get_model,
)
from pt2e_lens.kernel.comm import Backend, Client
from pt2e_lens.kernel.tracker import Tracker

# English words the zh-TW text must not leave in the cells people read (code names such as
# allow_implicit_sharing or SharedQuantizationSpec are not among them)
ENGLISH = re.compile(r"\b(anchor|group|output|own|spec|implicit|explicit|same tensor|transitive|not merged)\b")


@pytest.fixture
def zh_tw():
    pl.set_locale("zh-TW")
    yield
    pl.set_locale(None)


@pytest.fixture(scope="module")
def composed():
    """M03-6's residual model with ConvQuantizer + AddQuantizer: implicit sharing at x and at conv2d_1."""
    from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e

    gm = export_module(get_model("residual").eval(), example_inputs(4))
    return prepare_pt2e(gm, ComposableQuantizer([ConvQuantizer(), AddQuantizer()]))


def test_sharing_why_column_in_zh_tw(zh_tw, composed):
    table = pl.sharing(composed)
    why = {r[3]: r[5] for r in table.rows}
    assert why["x→add"].startswith("隱式共用：和 x→conv2d 是同一個 tensor x")
    assert why["conv2d_1→add"].startswith("隱式共用：和 conv2d_1（輸出） 是同一個 tensor conv2d_1")
    assert "自己的標籤：這個共享群組的第一個成員" in why.values()
    assert not [w for w in why.values() if ENGLISH.search(w)], why
    assert not [m for m in why if ENGLISH.search(m)]  # the member column: relu（輸出）, not relu (output)


def test_sharing_why_column_in_english_is_unchanged(composed):
    why = {r[3]: r[5] for r in pl.sharing(composed).rows}
    assert why["x→add"].startswith("implicit: same tensor x as x→conv2d")
    assert "own spec: the group's anchor" in why.values()


def test_compare_orders_change_column_in_zh_tw(zh_tw):
    from pt2e_lens.examples import ConvReluQuantizer

    result = pl.compare_orders(get_model("conv_relu").eval(), [ConvReluQuantizer(), ConvQuantizer()], example_inputs(2))
    changes = [r[1] for r in result.rows]
    assert set(changes) == {"多了一個 observer", "少了一個 observer", "標註換了 Quantizer"}
    assert not [r for r in result.rows if ENGLISH.search(r[2])]


@pytest.fixture
def shell():
    # IPython's one test shell, as the other magics tests use it: a plain InteractiveShell made here first would
    # refuse that (TerminalInteractiveShell) one to every test after it in the session
    # imported here, not at the top: once the shell is started, globalipapp rebinds get_ipython to the shell's own,
    # and the first one, bound at collection, answers None to every later call
    from IPython.testing.globalipapp import get_ipython

    ip = get_ipython()
    ip.run_line_magic("load_ext", "pt2e_lens")
    return ip


def test_magics_help_and_errors_in_zh_tw(zh_tw, shell, capsys):
    shell.run_line_magic("pt2e", "help")
    text = capsys.readouterr().out
    assert text.startswith("%pt2e —— 看 torchao 的 PT2E quantizer 做了什麼")
    assert "並排比較幾張圖" in text and "the graph" not in text
    with pytest.raises(UsageError, match=r"^%pt2e：沒有 'shwo' 這個指令——是不是要找 show？（見 %pt2e help）$"):
        shell.run_line_magic("pt2e", "shwo x")
    with pytest.raises(UsageError, match=r"^%pt2e compare：請給兩個以上的模型"):
        shell.run_line_magic("pt2e", "compare x")
    with pytest.raises(UsageError, match=r"（檢查引號）$"):
        shell.run_line_magic("pt2e", "show 'x")
    shell.run_line_magic("pt2e", "watch --auto")
    assert capsys.readouterr().out.startswith("pt2e-lens：目前的模型")


def test_comm_error_replies_in_zh_tw(zh_tw):
    backend = Backend(Tracker({}, {}))
    client = Client(comm=None)
    unknown = backend.reply(client, {"type": "get_stag", "id": 1})
    assert unknown["error"]["code"] == "unknown_request"
    assert unknown["error"]["message"].startswith("沒有 'get_stag' 這種請求——是不是要找 get_stage？")
    none = backend.reply(client, {"type": "get_stage", "id": 2})
    assert none["error"] == {"code": "no_model", "message": "命名空間裡還沒有 Run、ExportedProgram 或 GraphModule"}
    field = backend.reply(client, {"type": "list_models", "id": 3, "x": 1})
    assert field["error"]["message"] == "list_models 沒有 'x' 這個欄位；可用的欄位：（沒有）"


def test_a_saved_view_keeps_its_language_when_its_html_is_made_again(composed):
    """What `python -m pt2e_lens.pictures` does later, in an English process: the summary and the tables of
    the script-free fallback stay in the language the view was made in."""
    from pt2e_lens.display import html_fragment, summary

    with pl.i18n.using("zh-TW"):
        view = pl.show(pl.sharing(composed)).view
        graph = pl.show(composed, title="殘差").view
    assert pl.i18n.get_locale() == "en"
    page = html_fragment(view, viewer=False)
    assert "成員" in page and ">member<" not in page and "自己的標籤" in page
    assert summary(graph).startswith("pt2e-lens graph —— 殘差：") and " nodes" not in summary(graph)
    assert summary({**graph, "locale": "xx-evil"}).startswith("pt2e-lens graph — 殘差: ")  # unknown: as before
