"""The packed transport of a View (docs/contract.md, "Packed transport"): how a View travels in a saved output.

A View's JSON is ~2 kB per graph node in a Run (five stages, each a full snapshot); as plain JSON a saved
notebook held it twice, once indented. Packed, it is reshaped so gzip finds its repeats (`tabular.py`),
gzip-compressed and base64-encoded inside a small envelope (`$defs.Packed` of view.schema.json), which the
front end opens with the browser's `DecompressionStream` (src/core/packed.ts):

    {"format": "pt2e-lens.packed", "encoding": "tabular+gzip+base64", "schema_version": 2, "data": "H4sI…"}

`unpack` is the one way Python reads a bundle's MIME data back: it takes a packed envelope, a plain View
(what pt2e-lens 0.1 wrote, still valid) or either as JSON text, and raises `PackedProblem` (one line).
"""

from __future__ import annotations

import base64
import binascii
import gzip
import json
import zlib
from typing import Any

from .. import i18n
from . import LIMITS, SCHEMA_VERSION, VIEW_SCHEMA
from .bounds import TooBig, check_tree, gunzip
from .check import JsonProblem, parse, schema_error
from .tabular import TabularProblem, decode, encode

PACKED_FORMAT: str = VIEW_SCHEMA["$defs"]["Packed"]["properties"]["format"]["const"]
TABULAR, PLAIN = VIEW_SCHEMA["$defs"]["Packed"]["properties"]["encoding"]["enum"]
# a View is text with long repeats (module paths, op names): gzip's level 6 is within 3 % of 9 at half the time
_LEVEL = 6
_TEXT_LIMITS = {**LIMITS, "max_string_chars": LIMITS["max_json_bytes"]}


class PackedProblem(ValueError):
    """The MIME data is neither a View nor a packed envelope we can open; the message is one line."""


def _problem(line: object) -> PackedProblem:
    """The one line, in the current locale (the product's name leads it in every language)."""
    return PackedProblem(f"pt2e-lens output: {line}")


def compact_json(view: Any) -> str:
    """The View as compact JSON; NaN/Infinity are refused (JSON has none: views write them as strings)."""
    return json.dumps(view, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def pack(view: dict) -> dict:
    """The envelope of `view`. `mtime=0`: the same View packs to the same bytes (saved notebooks diff cleanly)."""
    tabular = encode(view)
    doc, encoding = (view, PLAIN) if tabular is None else (tabular, TABULAR)
    raw = gzip.compress(compact_json(doc).encode("utf-8"), compresslevel=_LEVEL, mtime=0)
    return {
        "format": PACKED_FORMAT,
        "encoding": encoding,
        "schema_version": view.get("schema_version", SCHEMA_VERSION),  # the document's own: an old one stays old
        "data": base64.b64encode(raw).decode("ascii"),
    }


def is_packed(data: Any) -> bool:
    return isinstance(data, dict) and data.get("format") == PACKED_FORMAT


def unpack(data: Any) -> Any:
    """The View in a bundle's MIME data: a packed envelope is checked and opened; anything else (a 0.1 View,
    a Snapshot) is returned as it is, parsed first if it is JSON text."""
    if isinstance(data, (str, bytes, bytearray)):
        try:
            # an envelope's data string is longer than any string of a View: bounded by its own check below
            data = parse(bytes(data) if isinstance(data, bytearray) else data, _TEXT_LIMITS)
        except JsonProblem as e:
            raise _problem(e) from None
    if not is_packed(data):
        try:
            check_tree(data)  # a plain View straight from a notebook: bounded like a parsed one
        except TooBig as e:
            raise _problem(e) from None
        return data
    problem = schema_error(data, VIEW_SCHEMA, "Packed", root="envelope")
    if problem:
        raise _problem(i18n.t("output.damaged", problem=problem))
    if len(data["data"]) > LIMITS["max_json_bytes"]:  # base64 of gzip is never longer than the JSON it holds
        raise _problem(i18n.t("output.data_over", n=f"{LIMITS['max_json_bytes']:,}"))
    try:
        compressed = base64.b64decode(data["data"], validate=True)
    except binascii.Error:
        raise _problem(i18n.t("output.damaged", problem=i18n.t("output.not_base64"))) from None
    try:
        raw = gunzip(compressed)
    except TooBig as e:
        raise _problem(e) from None
    except (OSError, EOFError, zlib.error) as e:
        raise _problem(i18n.t("output.damaged", problem=f"{i18n.t('output.not_gzip')}: {e}")) from None
    try:
        doc = parse(raw)
        return decode(doc) if data["encoding"] == TABULAR else doc
    except TooBig as e:  # not damaged: too big to open, and which bound says so
        raise _problem(e) from None
    except (JsonProblem, TabularProblem) as e:
        raise _problem(i18n.t("output.damaged", problem=e)) from None
