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


# Unpacks the viewer (report.js, gzip + base64) where no other copy of it has loaded, then draws every output
# of the page. A page holds many outputs: the first one loads, the others wait for it. An older viewer
# (0.1 outputs in the same page: no renderOutput) is replaced. Without DecompressionStream the static
# fallback of each output stays. `B` is base64 only: nothing in it can close the <script>.
_UNPACKER = (
    "(function(B){var g=globalThis,d=document,go=function(){g.pt2eLens.renderAll(d)};"
    "if(g.pt2eLens&&g.pt2eLens.renderOutput)return go();if(g.__pt2eLensLoad)return g.__pt2eLensLoad.then(go);"
    "if(typeof DecompressionStream==='undefined')return;"
    "var s=atob(B),u=new Uint8Array(s.length);for(var i=0;i<s.length;i++)u[i]=s.charCodeAt(i);"
    "g.__pt2eLensLoad=new Response(new Response(u).body.pipeThrough(new DecompressionStream('gzip'))).text()"
    ".then(function(t){var e=d.createElement('script');e.textContent=t;(d.head||d.documentElement).appendChild(e)})"
    "})"
)


@cache
def packed_viewer() -> str | None:
    """report.js as one self-unpacking `<script>` (gzip + base64: 1/3 of the raw size), or None if not built."""
    js = bundle("report.js")
    if js is None:
        return None
    data = base64.b64encode(gzip.compress(js.encode("utf-8"), compresslevel=9, mtime=0)).decode("ascii")
    return f'<script>{_UNPACKER}("{data}")</script>'
