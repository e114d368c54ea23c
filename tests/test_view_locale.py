"""A View carries the locale the user chose (pl.set_locale / PT2E_LENS_LANG) so the front end draws in the
language its tables and findings are already worded in; without a choice it carries none (the page decides)."""

from __future__ import annotations

import jsonschema
import pytest

import pt2e_lens as pl
from pt2e_lens import i18n
from pt2e_lens.schema import VIEW_SCHEMA
from pt2e_lens.views import graph_view, run_view


@pytest.fixture()
def no_locale(monkeypatch):
    monkeypatch.delenv(i18n.ENV, raising=False)
    before = i18n._chosen
    pl.set_locale(None)
    yield
    i18n._chosen = before


def test_a_view_made_under_set_locale_carries_it_and_is_valid(no_locale, tiny_ep, composable_run):
    pl.set_locale("zh_tw")
    for view in (graph_view(tiny_ep), run_view(composable_run)):
        assert view["locale"] == "zh-TW"
        jsonschema.validate(view, VIEW_SCHEMA)


def test_the_environment_variable_counts_as_a_choice(no_locale, monkeypatch, tiny_ep):
    monkeypatch.setenv(i18n.ENV, "zh-TW")
    assert graph_view(tiny_ep)["locale"] == "zh-TW"


def test_no_choice_no_field(no_locale, tiny_ep):
    view = graph_view(tiny_ep)
    assert "locale" not in view
    jsonschema.validate(view, VIEW_SCHEMA)


def test_english_chosen_explicitly_is_carried_too(no_locale, composable_run):
    """On a zh-TW JupyterLab page, a view made under pl.set_locale("en") stays English."""
    pl.set_locale("en")
    assert run_view(composable_run)["locale"] == "en"
