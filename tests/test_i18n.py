"""Locales: one key set for every catalogue (Python and the TS core read the same files), set_locale /
PT2E_LENS_LANG / --lang, and the report's `<html lang>`."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import pt2e_lens as pl
from pt2e_lens import i18n

HOLES = re.compile(r"\{(\w+)\}")


def _cats() -> dict[str, dict[str, str]]:
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(i18n.LOCALES.glob("*.json"))}


def test_every_catalogue_has_the_same_keys_and_placeholders():
    cats = _cats()
    assert set(cats) == {"en", "zh-TW"}
    en = cats["en"]
    for lang, cat in cats.items():
        assert set(cat) == set(en), (lang, set(cat) ^ set(en))
        for key, text in en.items():
            assert sorted(HOLES.findall(cat[key])) == sorted(HOLES.findall(text)), (lang, key)
            assert cat[key].strip(), (lang, key)


def test_zh_tw_catalogue_is_translated():
    """Words the course keeps in English (op names, observer, q/dq, SQNR…) may stay; most text must not."""
    en, zh = _cats()["en"], _cats()["zh-TW"]
    same = [k for k in en if en[k] == zh[k] and re.search(r"[a-z]{4,}", en[k])]
    assert len(same) < len(en) // 10, same


def test_every_column_of_the_why_tables_has_a_header_in_every_catalogue():
    """A column without a `col.` key shows its data key, in English, in every locale's table."""
    from pt2e_lens.analyses.backend import COLUMNS as BACKEND
    from pt2e_lens.analyses.observer_ranges import COLUMNS as RANGES
    from pt2e_lens.why.recipe import COLUMNS as RECIPE
    from pt2e_lens.why.sensitivity import COLUMNS as SENSITIVITY
    from pt2e_lens.why.sensitivity import METRIC_COLUMNS

    for lang, cat in _cats().items():
        missing = [c for c in SENSITIVITY + METRIC_COLUMNS + RECIPE + RANGES + BACKEND if f"col.{c}" not in cat]
        assert not missing, (lang, missing)


def test_set_locale_env_and_default(monkeypatch):
    monkeypatch.delenv(i18n.ENV, raising=False)
    try:
        assert pl.set_locale(None) == "en"
        assert i18n.t("ui.fit") == "Fit"
        monkeypatch.setenv(i18n.ENV, "zh_TW")
        assert pl.get_locale() == "zh-TW"
        assert i18n.t("ui.rows", n=3, total=9) == "3 / 9 列"
        assert pl.set_locale("en-US") == "en"  # the call wins over the environment
        with i18n.using("zh-TW"):
            assert i18n.t("ui.fit") == "置中"
        assert i18n.t("ui.fit") == "Fit"
    finally:
        pl.set_locale(None)


def test_bad_locale_is_one_line_naming_the_available_ones(monkeypatch):
    before = pl.get_locale()
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.set_locale("klingon")
    assert "\n" not in str(e.value) and "en, zh-TW" in str(e.value)
    assert pl.get_locale() == before  # a bad call changes nothing
    monkeypatch.setenv(i18n.ENV, "xx")  # the environment falls back to English with one warning
    monkeypatch.setattr(i18n, "_warned_env", set())
    with pytest.warns(pl.Pt2eLensWarning, match="PT2E_LENS_LANG='xx' has no catalogue .*available: en, zh-TW"):
        assert pl.get_locale() == before


def test_cli_bad_lang_is_one_line(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "pt2e_lens", "report", "--example", "tiny", "--lang", "xx", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2
    last = r.stderr.strip().splitlines()[-1]  # torch may warn on import above it; the error is one line
    assert last.startswith("pt2e-lens: error: no catalogue for locale 'xx'") and last.endswith("available: en, zh-TW")
    assert not list(tmp_path.iterdir())  # nothing ran


@pytest.fixture
def zh_tw():
    pl.set_locale("zh-TW")
    yield
    pl.set_locale(None)


def test_compare_orders_speaks_the_locale_and_keeps_its_column_keys(zh_tw):
    from pt2e_lens.examples import ConvQuantizer, ConvReluQuantizer, example_inputs, get_model

    result = pl.compare_orders(get_model("conv_relu").eval(), [ConvReluQuantizer(), ConvQuantizer()], example_inputs(2))
    # the same fact the English test reads, worded as the course would
    assert result.summary.startswith("順序有影響：小 pattern（ConvQuantizer，在 ConvReluQuantizer 之前）排在前面時，")
    assert "conv2d 與 relu 之間會出現一個 observer" in result.summary
    changes = {r[1]: r[2] for r in result.rows}  # the change column is worded in the locale (issue 18)
    assert changes["多了一個 observer"] == "conv2d（輸出）" and changes["少了一個 observer"] == "relu（輸出）"
    assert result.columns == ["order", "change", "at", "detail"]
    assert result.to_text().splitlines()[1].split() == ["順序", "變化", "位置", "細節"]


def test_tables_and_findings_in_zh_tw(zh_tw):
    from pt2e_lens.examples import ConvQuantizer, example_inputs, get_model

    run = pl.Run(get_model("tiny").eval(), example_inputs(2))
    run.prepare(ConvQuantizer())
    obs = pl.observers(run["prepared"])
    assert obs.title == "observer" and obs.columns[0] == "id"  # columns are keys; only headers change
    head = obs.to_text().splitlines()[1]
    assert "觀察對象" in head and "observes" not in head
    # an unannotated op between two observers in torchao's prepared graph: the finding says so in zh-TW
    island = [f for f in run["prepared"].snapshot.findings if f["kind"] == "fp32-island"]
    assert island
    ops = [
        n for n in run["prepared"].graph_module.graph.nodes if n.name in island[0]["nodes"] and n.op != "call_module"
    ]
    assert ops[0].args[0].op == "call_module" and any(u.op == "call_module" for n in ops for u in n.users)
    assert re.match(
        rf"\d+ 個 op 的 fp32 孤島（{ops[0].name}( \(\w+\))?.*）：.*（前後各有一個 observer）", island[0]["message"]
    )
