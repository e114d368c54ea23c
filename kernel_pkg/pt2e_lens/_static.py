"""The built front-end bundles shipped inside the package (`_static/`, made by `npm run build`)."""

from __future__ import annotations

import lzma
from functools import cache
from pathlib import Path

STATIC = Path(__file__).parent / "_static"


@cache
def bundle(name: str) -> str | None:
    """The text of `_static/<name>`, or None when the front end was not built (a bare source checkout)."""
    path = STATIC / name
    return path.read_text(encoding="utf-8") if path.is_file() else None


# Base91 in pairs: every 13 bits of the data (little-endian bit order) are two characters of a 91-letter
# alphabet (91² = 8281 ≥ 2¹³), 16 characters per 13 bytes (base85 takes 5 per 4, 1.6 % more; base64 8 %
# more). The alphabet is printable ASCII without `"`, `\\` and `<`: the text cannot close the <script> and
# needs no escaping inside a notebook's JSON.
_ALPHABET = "".join(c for c in map(chr, range(0x21, 0x7F)) if c not in '"\\<')
assert len(_ALPHABET) == 91


def viewer_text(data: bytes) -> str:
    """`data` in the unpacker's base91 (what src/report/unpacker.ts decodes, given `len(data)`)."""
    out: list[str] = []
    acc = bits = 0
    for byte in data:
        acc |= byte << bits
        bits += 8
        if bits >= 13:
            out += (_ALPHABET[(acc & 8191) % 91], _ALPHABET[(acc & 8191) // 91])
            acc >>= 13
            bits -= 13
    if bits:
        out += (_ALPHABET[acc % 91], _ALPHABET[acc // 91])
    return "".join(out)


# raw LZMA1 as src/report/unpacker.ts decodes it (one position state, lc=3): 12 % smaller than gzip -9 on
# report.js, and its decoder (~1.7 kB, in every output) is far smaller than what it saves (docs/bench.md, "Weight")
VIEWER_FILTERS = [{"id": lzma.FILTER_LZMA1, "preset": 6, "lc": 3, "lp": 0, "pb": 0}]


@cache
def packed_viewer() -> str | None:
    """report.js as one self-unpacking `<script>` (LZMA + base91: ~37 % of the raw size), or None if not built.
    Compressed once per process (~0.4 s)."""
    js, unpacker = bundle("report.js"), bundle("unpacker.js")
    if js is None or unpacker is None:
        return None
    raw = js.encode("utf-8")
    data = lzma.compress(raw, format=lzma.FORMAT_RAW, filters=VIEWER_FILTERS)
    return f'<script>{unpacker.strip()}("{viewer_text(data)}",{len(data)},{len(raw)})</script>'
