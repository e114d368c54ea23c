"""The built front-end bundles shipped inside the package (`_static/`, made by `npm run build`)."""

from __future__ import annotations

import gzip
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

# Unpacks the viewer (report.js, gzip + the base91 above; N its byte count) where no other copy of it has loaded,
# then draws every output of the page. A page holds many outputs: the first one loads, the others wait for it.
# An older viewer (0.1 outputs in the same page: no renderOutput) is replaced. Without DecompressionStream the
# static fallback of each output stays.
_UNPACKER = (
    "(function(B,N){var g=globalThis,d=document,go=function(){g.pt2eLens.renderAll(d)};"
    "if(g.pt2eLens&&g.pt2eLens.renderOutput)return go();if(g.__pt2eLensLoad)return g.__pt2eLensLoad.then(go);"
    "if(typeof DecompressionStream==='undefined')return;"
    f'var A="{_ALPHABET}",m={{}},u=new Uint8Array(N+2),j=0,a=0,b=0,i;'
    "for(i=0;i<91;i++)m[A.charCodeAt(i)]=i;"
    "for(i=0;i<B.length;i+=2)for(a|=(m[B.charCodeAt(i)]+91*m[B.charCodeAt(i+1)])<<b,b+=13;b>7;b-=8)u[j++]=a&255,a>>>=8;"
    "g.__pt2eLensLoad=new Response(new Response(u.subarray(0,N)).body"
    ".pipeThrough(new DecompressionStream('gzip'))).text()"
    ".then(function(t){var e=d.createElement('script');e.textContent=t;(d.head||d.documentElement).appendChild(e)})"
    "})"
)


def viewer_text(data: bytes) -> str:
    """`data` in the unpacker's base91 (what `_UNPACKER` decodes, given `len(data)`)."""
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


@cache
def packed_viewer() -> str | None:
    """report.js as one self-unpacking `<script>` (gzip + base91: ~42 % of the raw size), or None if not built."""
    js = bundle("report.js")
    if js is None:
        return None
    data = gzip.compress(js.encode("utf-8"), compresslevel=9, mtime=0)
    return f'<script>{_UNPACKER}("{viewer_text(data)}",{len(data)})</script>'
