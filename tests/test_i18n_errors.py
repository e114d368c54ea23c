"""Errors and warnings in the user's language: Pt2eLensError / Pt2eLensWarning texts come from the catalogues,
zh-TW ones hold no English words but code names, torchao's own text stays first where we chain it, a
PT2E_LENS_LANG without a catalogue falls back to English with one warning, and our warnings print as one line
(other libraries' warnings exactly as Python prints them)."""

from __future__ import annotations

import copy
import io
import json
import re
import subprocess
import sys
import warnings

import pytest
import torch
from torchao.quantization.pt2e.quantizer import ComposableQuantizer

import pt2e_lens as pl
from pt2e_lens import errors, i18n
from pt2e_lens._torchao import Q_ANNOTATION_KEY, QuantizationAnnotation, prepare_pt2e
from pt2e_lens.examples import ConvQuantizer, example_inputs, get_model

CJK = re.compile(r"[\u4e00-\u9fff]")
# words a zh-TW text may keep in English: code, API and library names the course spells that way too
CODE_WORDS = {
    "pt2e",
    "lens",
    "pl",
    "op",
    "focus",
    "hops",
    "title",
    "notes",
    "locale",
    "quantizer",
    "observer",
    "torchao",
    "ExecuTorch",
    "prepare",
    "convert",
    "export",
    "spec",
    "list",
    "dict",
    "tuple",
    "iterable",
    "None",
    "ComposableQuantizer",
    "SharedQuantizationSpec",
    "QuantizationSpec",
    "ExportedProgram",
    "Run",
    "compare",
    "exported",
    "decomposed",
    "run",
    "callable",
    "GraphModule",
    "Quantizer",
    "strict",
    "True",
    "False",
    "scale",
    "zero",
    "point",
    "NAME",
    "tiny",
    "residual",
    "Stage",
    "path",
    "tablefmt",
    "snapshot",
    "Chromium",
    "Debian",
}


def _cat(lang: str) -> dict[str, str]:
    return json.loads((i18n.LOCALES / f"{lang}.json").read_text(encoding="utf-8"))


def _english_words(text: str) -> set[str]:
    """ASCII words left once placeholders, quoted code and dotted/underscored/called names are removed."""
    text = re.sub(r"\{\{[^}]*\}\}|\{\w+\}", " ", text)
    text = re.sub(r"'[^']*'|`[^`]*`|(?<!\w)--?\w+|[\w-]*\d[\w-]*", " ", text)  # quoted, --flags, pt2e-lens
    text = re.sub(r"[\w.]*[._(=\[#/][\w.()\[\]'=,#/]*", " ", text)  # pl.module(…), run['prepared'], pytorch/ao#…
    return set(re.findall(r"[A-Za-z]{2,}", text)) - CODE_WORDS  # one letter: a variable (x, a, b)


def test_every_error_and_warning_text_is_in_both_catalogues_and_zh_tw_is_chinese():
    en, zh = _cat("en"), _cat("zh-TW")
    ours = [k for k in en if k.startswith(("error.", "warning."))]
    assert len(ours) >= 40
    for key in ours:
        assert key in zh, key
        if CJK.search(en[key]) is None and not re.fullmatch(r"[\s{}\w—-]*", en[key]):
            assert CJK.search(zh[key]), (key, zh[key])  # translated, not copied
        assert _english_words(zh[key]) == set(), (key, zh[key])


@pytest.fixture()
def zh_tw():
    with i18n.using("zh-TW"):
        yield


def test_raised_errors_speak_zh_tw(zh_tw):
    snap = pl.snapshot(torch.export.export(get_model("tiny").eval(), example_inputs()))
    cases = [
        (lambda: pl.module(""), "error.module_path"),
        (lambda: pl.focus(snap, 3), "error.focus_type"),
        (lambda: pl.focus(snap, "conv2d", hops=-1), "error.hops"),
        (lambda: pl.chain(snap, "nope"), "error.no_such_node"),
        (lambda: pl.compare([(snap, "a")]), "error.compare_needs_two"),
    ]
    zh = _cat("zh-TW")
    for call, key in cases:
        with pytest.raises(pl.Pt2eLensError) as e:
            call()
        msg = str(e.value)
        head = re.split(r"\{\w+\}", zh[key])[0]
        assert msg.startswith(head) and CJK.search(msg) and "\n" not in msg, (key, msg)


class Meddling(ConvQuantizer):
    """Re-annotates the convs ConvQuantizer annotated: torchao's "changed annotations" RuntimeError."""

    def annotate(self, model):
        for n in model.graph.nodes:
            if n.target == torch.ops.aten.conv2d.default:
                n.meta[Q_ANNOTATION_KEY] = QuantizationAnnotation()
        return model


def test_chained_torchao_error_keeps_its_type_and_text_first_in_zh_tw(zh_tw):
    gm = torch.export.export(get_model("residual").eval(), example_inputs(4)).module()
    with pytest.raises(RuntimeError) as plain:
        prepare_pt2e(copy.deepcopy(gm), ComposableQuantizer([ConvQuantizer(), Meddling()]))
    torchao_text = str(plain.value).strip().splitlines()[0]
    run = pl.Run(gm)
    with pytest.raises(RuntimeError) as info:
        run.prepare(ComposableQuantizer([ConvQuantizer(), Meddling()]))
    msg = str(info.value)
    assert isinstance(info.value, pl.Pt2eLensError) and "\n" not in msg
    assert msg.startswith(torchao_text)  # torchao's own words first, untranslated
    rest = msg[len(torchao_text) :]
    assert CJK.search(rest) and "ConvQuantizer" in rest and "Meddling" in rest
    assert run.stages == ["exported"]


def test_unknown_env_locale_falls_back_to_english_with_one_warning(monkeypatch):
    monkeypatch.setenv(i18n.ENV, "xx-unknown")
    monkeypatch.setattr(i18n, "_chosen", None)
    monkeypatch.setattr(i18n, "_warned_env", set())
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        assert pl.get_locale() == "en"
        assert i18n.t("ui.fit") == "Fit"  # every translated call works, in English
        assert pl.findings(pl.snapshot(torch.export.export(get_model("tiny").eval(), example_inputs()))) is not None
    ours = [w for w in got if issubclass(w.category, pl.Pt2eLensWarning)]
    assert len(ours) == 1, [str(w.message) for w in got]
    text = str(ours[0].message)
    assert "\n" not in text and "xx-unknown" in text and "en, zh-TW" in text and "English" in text
    with pytest.raises(pl.Pt2eLensError) as e:  # asking for it by name is still an error
        pl.set_locale("xx")
    assert "\n" not in str(e.value) and "en, zh-TW" in str(e.value)


def test_our_warning_prints_as_one_line_and_others_go_to_the_previous_showwarning():
    calls, err = [], io.StringIO()
    show = errors._one_line_showwarning(lambda *a: calls.append(a))
    show(pl.Pt2eLensWarning("pt2e-lens: focus 'nope' matches no node"), pl.Pt2eLensWarning, "x.py", 3, err, "src")
    show("someone else's warning", DeprecationWarning, "lib.py", 7, None, None)
    assert err.getvalue() == "Pt2eLensWarning: pt2e-lens: focus 'nope' matches no node\n"
    assert calls == [("someone else's warning", DeprecationWarning, "lib.py", 7, None, None)]  # untouched


def test_one_line_warning_is_installed_on_import_in_a_fresh_process():
    code = (
        "import warnings, torch, pt2e_lens as pl\n"
        "from pt2e_lens.examples import get_model, example_inputs\n"
        "snap = pl.snapshot(torch.export.export(get_model('tiny').eval(), example_inputs()))\n"
        "pl.focus(snap, 'nope')\n"
        "warnings.warn_explicit('someone else', DeprecationWarning, 'lib.py', 7)\n"
    )
    r = subprocess.run([sys.executable, "-W", "always", "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    ours = [ln for ln in r.stderr.splitlines() if "nope" in ln]
    assert len(ours) == 1 and ours[0].startswith("Pt2eLensWarning: pt2e-lens: focus 'nope' matches no node"), r.stderr
    assert warnings.formatwarning("someone else", DeprecationWarning, "lib.py", 7) in r.stderr  # as Python prints it


def test_one_line_warning_in_an_ipython_shell_as_in_a_notebook():
    code = (
        "from IPython.testing.globalipapp import start_ipython\n"
        "ip = start_ipython()\n"
        "ip.run_cell('import torch, pt2e_lens as pl; from pt2e_lens.examples import get_model, example_inputs')\n"
        "ip.run_cell(\"pl.focus(pl.snapshot(torch.export.export(get_model('tiny').eval(), example_inputs())), 'nope')\")\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    lines = [ln for ln in (r.stdout + r.stderr).splitlines() if "nope" in ln or "pl.focus" in ln]
    assert len(lines) == 1 and lines[0].startswith("Pt2eLensWarning: pt2e-lens: focus 'nope'"), r.stderr[-2000:]
