"""The built front-end bundles shipped inside the package (`_static/`, made by `npm run build`)."""

from __future__ import annotations

import base64
import gzip
from functools import cache
from pathlib import Path

STATIC = Path(__file__).parent / "_static"


@cache
def bundle(name: str) -> str | None:
    """The text of `_static/<name>`, or None when the front end was not built (a bare source checkout)."""
    path = STATIC / name
    return path.read_text(encoding="utf-8") if path.is_file() else None


# Base85 (RFC 1924's alphabet, as Python's b85encode) with `<` and `>` swapped for `.` and `,`, which it does
# not use: 5 characters per 4 bytes (base64 takes 5.33), none of them `<`, `"` or `\`, so the text cannot close
# the <script> and needs no escaping inside a notebook's JSON. Saves ~6 kB in every output that inlines the viewer.
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;.=,?@^_`{|}~"
_TO_SAFE = str.maketrans("<>", ".,")

# Unpacks the viewer (report.js, gzip + the base85 above) where no other copy of it has loaded, then draws every
# output of the page. A page holds many outputs: the first one loads, the others wait for it. An older viewer
# (0.1 outputs in the same page: no renderOutput) is replaced. Without DecompressionStream the static
# fallback of each output stays.
_UNPACKER = (
    "(function(B){var g=globalThis,d=document,go=function(){g.pt2eLens.renderAll(d)};"
    "if(g.pt2eLens&&g.pt2eLens.renderOutput)return go();if(g.__pt2eLensLoad)return g.__pt2eLensLoad.then(go);"
    "if(typeof DecompressionStream==='undefined')return;"
    f'var A="{_ALPHABET}",m={{}},L=B.length,P=(5-L%5)%5,u=new Uint8Array((L+P)/5*4),j=0,i,k,v;'
    "for(i=0;i<85;i++)m[A.charCodeAt(i)]=i;"
    "for(i=0;i<L+P;i+=5){for(v=0,k=0;k<5;k++)v=v*85+(i+k<L?m[B.charCodeAt(i+k)]:84);"
    "u[j++]=v>>>24;u[j++]=v>>>16&255;u[j++]=v>>>8&255;u[j++]=v&255}"
    "g.__pt2eLensLoad=new Response(new Response(u.subarray(0,j-P)).body"
    ".pipeThrough(new DecompressionStream('gzip'))).text()"
    ".then(function(t){var e=d.createElement('script');e.textContent=t;(d.head||d.documentElement).appendChild(e)})"
    "})"
)


def viewer_text(data: bytes) -> str:
    """`data` in the unpacker's base85 (what `_UNPACKER` decodes)."""
    return base64.b85encode(data).decode("ascii").translate(_TO_SAFE)


@cache
def packed_viewer() -> str | None:
    """report.js as one self-unpacking `<script>` (gzip + base85: ~40 % of the raw size), or None if not built."""
    js = bundle("report.js")
    if js is None:
        return None
    return f'<script>{_UNPACKER}("{viewer_text(gzip.compress(js.encode("utf-8"), compresslevel=9, mtime=0))}")</script>'
