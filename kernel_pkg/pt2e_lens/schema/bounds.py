"""Bounds on what an opened document may hold (contract.json "limits", the same numbers as src/core/bounds.ts).

A saved output comes from an untrusted notebook: a 1 MB gzip can unpack to a GB, a tabular reference chain to
2^40 values, one string to 400 M characters. Each size is checked before the next step builds anything
(decompressed bytes while inflating, the expanded size of a tabular layout from its table of values, string
length, value count and depth of a parsed tree), and a breach is one line that names the bound.
"""

from __future__ import annotations

import re
import zlib
from typing import Any

from .. import i18n
from . import LIMITS

_SURROGATE = re.compile("[\ud800-\udfff]")


class TooBig(ValueError):
    """The document breaks one of the contract's limits; the message is one line that names it."""


def too_big(what: str, n: int, limit: int, name: str) -> TooBig:
    """The one line of a breach, in the current locale: `what` is an `output.bound.*` key filled with `n`."""
    return TooBig(
        i18n.t("output.refused", what=i18n.t(f"output.bound.{what}", n=f"{n:,}"), limit=f"{limit:,}", name=name)
    )


def check_text_size(n: int, limits: dict = LIMITS) -> None:
    if n > limits["max_json_bytes"]:
        raise too_big("json_bytes", limits["max_json_bytes"], limits["max_json_bytes"], "max_json_bytes")


# DEFLATE inflates at most ~1032 bytes per byte: a trailer declaring more than that cannot be a whole stream's
# (a truncated one ends in arbitrary bytes) and is left to the inflating bound and the stream's own error
MAX_RATIO = 1032


def declared_size(data: bytes) -> int:
    """The size a gzip stream says it unpacks to: its trailer's ISIZE (the last 4 bytes, modulo 2^32); 0 when
    the trailer cannot be a complete stream's."""
    declared = int.from_bytes(data[-4:], "little") if len(data) >= 18 else 0
    return declared if declared <= MAX_RATIO * len(data) else 0


def gunzip(data: bytes, limits: dict = LIMITS) -> bytes:
    """gzip.decompress that stops one byte past `max_json_bytes` (a 1 GB bomb costs 128 MB, not 1 GB).
    A stream whose trailer already declares more is refused before inflating anything (a bomb made by gzip
    says its size; one whose trailer lies is still stopped at the bound while inflating).
    Raises TooBig, or zlib.error / EOFError for data that is not one complete gzip stream."""
    cap = limits["max_json_bytes"]
    if data[:2] != b"\x1f\x8b":
        raise OSError(f"Not a gzipped file ({data[:2]!r})")  # gzip.decompress's words
    if declared_size(data) > cap:
        raise too_big("unpacks", cap, cap, "max_json_bytes")
    d = zlib.decompressobj(wbits=31)
    out = d.decompress(data, cap + 1)
    if len(out) > cap:
        raise too_big("unpacks", cap, cap, "max_json_bytes")
    if not d.eof:
        raise EOFError("Compressed file ended before the end-of-stream marker was reached")
    return out


def check_tree(doc: Any, limits: dict = LIMITS) -> None:
    """A parsed document: at most `max_values` values, `max_depth` levels, strings of `max_string_chars`
    characters that are valid Unicode (a lone surrogate cannot be written as UTF-8). Iterative: no recursion;
    one step per container, its scalars checked in its own loop (most values are scalars)."""
    max_values, max_depth, max_chars = limits["max_values"], limits["max_depth"], limits["max_string_chars"]
    if isinstance(doc, str):
        _check_string(doc, max_chars)
    if not isinstance(doc, (list, dict)):
        return
    stack: list[tuple[Any, int]] = [(doc, 1)]
    count = 1
    while stack:
        x, depth = stack.pop()
        if depth > max_depth:
            raise too_big("depth", max_depth, max_depth, "max_depth")
        count += len(x)
        if count > max_values:
            raise too_big("values", max_values, max_values, "max_values")
        if type(x) is dict:
            for k in x:
                _check_string(k, max_chars)
            items = x.values()
        else:
            items = x
        for v in items:
            t = type(v)
            if t is str:
                if len(v) > max_chars or not v.isascii():
                    _check_string(v, max_chars)
            elif t is list or t is dict:
                stack.append((v, depth + 1))


def _check_string(s: Any, max_chars: int) -> None:
    if not isinstance(s, str):
        return
    if len(s) > max_chars:
        raise too_big("string", len(s), max_chars, "max_string_chars")
    if not s.isascii() and _SURROGATE.search(s):
        raise TooBig(i18n.t("output.bound.surrogate", s=f"{s[:20]!r}"))


def check_tabular(values: list, root: Any, limits: dict = LIMITS) -> None:
    """The size a tabular layout expands to, from its table of values (each entry measured once, in order:
    an entry refers only to earlier ones), before anything is expanded. Bad references are left to decode."""
    sizes: list[tuple[int, int, int]] = []  # entry → (values, depth, ~JSON characters) once expanded

    def measure(x: Any) -> tuple[int, int, int]:  # recursion as deep as the parsed entry (≤ max_depth)
        if isinstance(x, str):
            return 1, 0, len(x) + 2
        if isinstance(x, list):
            parts = [measure(v) for v in x]
            return (
                1 + sum(p[0] for p in parts),
                1 + max((p[1] for p in parts), default=0),
                2 + sum(p[2] + 1 for p in parts),
            )
        if isinstance(x, dict):
            ref = x.get("$")
            if len(x) == 1 and type(ref) is int and 0 <= ref < len(sizes):
                return sizes[ref]
            if "$cols" in x and isinstance(x["$cols"], list):
                keys = [k for k in x["$cols"] if isinstance(k, str)]
                n, d, chars = measure(x.get("$rows"))
                rows = n // max(1, len(keys))  # each row repeats every key
                return n + rows, d, chars + rows * sum(len(k) + 4 for k in keys)
            parts = [measure(v) for v in x.values()]
            keys_chars = sum(len(k) + 4 for k in x)
            return (
                1 + sum(p[0] for p in parts),
                1 + max((p[1] for p in parts), default=0),
                2 + keys_chars + sum(p[2] for p in parts),
            )
        return 1, 0, 8

    def check(size: tuple[int, int, int]) -> None:
        n, depth, chars = size
        if n > limits["max_values"]:
            raise too_big("expands_values", limits["max_values"], limits["max_values"], "max_values")
        if depth > limits["max_depth"]:
            raise too_big("expands_depth", limits["max_depth"], limits["max_depth"], "max_depth")
        if chars > limits["max_json_bytes"]:
            cap = limits["max_json_bytes"]
            raise too_big("expands_bytes", cap, cap, "max_json_bytes")

    for entry in values:
        sizes.append(measure(entry))
        check(sizes[-1])
    check(measure(root))
