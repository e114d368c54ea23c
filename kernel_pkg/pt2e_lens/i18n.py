"""The words users read, in their language: one catalogue per locale (`locales/<lang>.json`, flat keys with
`{name}` placeholders), shared with the TypeScript core, which bundles the same files.

The locale is `set_locale(...)`, else the `PT2E_LENS_LANG` environment variable, else English."""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from .errors import Pt2eLensError, Pt2eLensWarning

LOCALES = Path(__file__).parent / "locales"
DEFAULT = "en"
ENV = "PT2E_LENS_LANG"

_chosen: str | None = None


def available() -> list[str]:
    """The locales with a catalogue, e.g. ['en', 'zh-TW']."""
    return sorted(p.stem for p in LOCALES.glob("*.json"))


def normalize(lang: str) -> str:
    """`zh_TW`, `zh-tw`, `zh-Hant-TW` → `zh-TW`; `en-US` → `en`. A locale with no catalogue is one clear error."""
    if not isinstance(lang, str) or not lang.strip():
        raise Pt2eLensError(_error_text("error.locale_not_a_name", available=", ".join(available())))
    parts = lang.strip().replace("_", "-").split(".")[0].split("-")
    parts = [p for p in parts if p.lower() != "hant"]
    names = {n.lower(): n for n in available()}
    for cand in ("-".join(parts), parts[0]):
        if cand.lower() in names:
            return names[cand.lower()]
    raise Pt2eLensError(_error_text("error.locale_unknown", lang=repr(lang), available=", ".join(available())))


def _error_text(key: str, **params: object) -> str:
    """A locale error in the language already chosen (or English): the environment may be what is wrong."""
    cat = catalogue(_chosen) if _chosen is not None else catalogue(DEFAULT)
    return (cat.get(key) or catalogue(DEFAULT)[key]).format(**params)


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The key → text table of one locale (a normalized name)."""
    return json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))


def set_locale(lang: str | None) -> str:
    """Choose the language of pt2e-lens's tables, findings and reports (None: back to PT2E_LENS_LANG / English).
    Returns the locale now in use."""
    global _chosen
    _chosen = None if lang is None else normalize(lang)
    return get_locale()


def get_locale() -> str:
    """The locale in use: set_locale's, else PT2E_LENS_LANG's, else English (also when PT2E_LENS_LANG names
    a language without a catalogue: one warning, then English)."""
    if _chosen is not None:
        return _chosen
    env = os.environ.get(ENV, "").strip()
    if not env:
        return DEFAULT
    try:
        return normalize(env)
    except Pt2eLensError:
        _warn_unknown_env(env)
        return DEFAULT


_warned_env: set[str] = set()


def _warn_unknown_env(env: str) -> None:
    if env in _warned_env:
        return
    _warned_env.add(env)
    text = catalogue(DEFAULT)["warning.env_locale_unknown"]  # English: the language we fall back to
    warnings.warn(text.format(env=ENV, lang=repr(env), available=", ".join(available())), Pt2eLensWarning, stacklevel=3)


@contextmanager
def using(lang: str | None) -> Iterator[str]:
    """Use `lang` inside the block (None: leave the locale as it is), then restore the previous choice."""
    global _chosen
    before = _chosen
    if lang is not None:
        _chosen = normalize(lang)
    try:
        yield get_locale()
    finally:
        _chosen = before


def named(prefix: str, name: str) -> str:
    """A name the data spells (a table column, a finding kind) in the current locale's words: the catalogue's
    `prefix + name` if it has one, else the name itself. Columns stay data keys; only what is shown changes."""
    key = prefix + name
    text = t(key)
    return name if text == key else text


def t(key: str, /, **params: object) -> str:
    """The text of `key` in the current locale with `{name}` placeholders filled in (English if the locale
    lacks the key; the key itself if no catalogue has it, so a missing word shows, never crashes)."""
    lang = get_locale()
    text = catalogue(lang).get(key)
    if text is None:
        text = catalogue(DEFAULT).get(key, key)
    return text.format(**params) if params else text
