"""Fill static pictures into an executed notebook, for readers where no script runs (GitHub, nbviewer, PDF).

`python -m pt2e_lens.pictures NOTEBOOK.ipynb [-o OUT.ipynb]`: every pt2e-lens output is drawn once in
headless Chromium (the same report bundle as the `text/html` form); what it drew is stored as `image/svg+xml`
and inside the `text/html` fallback, next to real HTML tables, so the output still shows with scripts stripped.
Needs a Chromium (`$PT2E_LENS_CHROMIUM`, else `chromium` / `chromium-browser` / `google-chrome` on PATH).
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ._notebook_input import read_notebook
from ._static import bundle
from .display import MIME, html_fragment, script_json
from .errors import Pt2eLensError
from .i18n import t
from .schema import VIEW_SCHEMA
from .schema.check import schema_error
from .schema.packed import PackedProblem, pack, unpack

_MARK = "pt2e-lens-pictures"
# waits for every output to finish drawing, then writes their pictures where --dump-dom shows them
# (layout on the main thread: a layout worker does not advance under --virtual-time-budget)
_COLLECT = f"""
[].forEach.call(document.querySelectorAll('.out'), function (o) {{
  pt2eLens.render(o, JSON.parse(o.nextElementSibling.textContent), {{ worker: false }});
}});
(function wait() {{
  var roots = document.querySelectorAll('.pt2e-lens');
  var busy = [].some.call(roots, function (r) {{ return r.getAttribute('data-state') === 'loading'; }});
  if (roots.length < document.querySelectorAll('.out').length || busy) return setTimeout(wait, 50);
  var pics = [].map.call(document.querySelectorAll('.out'), function (o) {{ return pt2eLens.picture(o); }});
  var pre = document.createElement('pre');
  pre.id = '{_MARK}';
  pre.textContent = JSON.stringify(pics);
  document.body.appendChild(pre);
}})();
"""


def _chromium() -> str:
    for name in (os.environ.get("PT2E_LENS_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and (path := shutil.which(name)):
            return path
    raise Pt2eLensError(t("error.pictures_no_chromium"))


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else value


def draw(views: list[dict], timeout: float = 300) -> list[str | None]:
    """The SVG picture of each View (None for a tables-only View), drawn in headless Chromium."""
    js = bundle("report.js")
    if js is None:
        raise Pt2eLensError(t("error.pictures_not_built"))
    outs = "".join(
        f'<div class="out" style="width:1200px"></div><script type="application/json">{script_json(v)}</script>'
        for v in views
    )
    page = f'<!doctype html><meta charset="utf-8"><body>{outs}<script>{js}</script><script>{_COLLECT}</script>'
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "pictures.html"
        file.write_text(page, encoding="utf-8")
        args = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
        args += ["--disable-background-networking", "--window-size=1300,900", f"--user-data-dir={tmp}/profile"]
        args += ["--virtual-time-budget=60000", "--dump-dom", file.as_uri()]
        try:
            done = subprocess.run(args, capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise Pt2eLensError(t("error.guard_pictures_timeout", seconds=round(timeout))) from None
    found = re.search(rf'<pre id="{_MARK}">(.*?)</pre>', done.stdout, re.S)
    if not found:
        raise Pt2eLensError(t("error.pictures_none_drawn", code=done.returncode, stderr=done.stderr.strip()[-300:]))
    return json.loads(html.unescape(found.group(1)))


def fill(nb: dict) -> int:
    """Adds `image/svg+xml` and a script-free fallback to every pt2e-lens output of `nb` (in place). Outputs
    of pt2e-lens 0.1 (a plain View in the MIME data) are packed on the way, as pt2e-lens writes them now."""
    outputs = [o for c in nb.get("cells", []) for o in c.get("outputs", []) if MIME in o.get("data", {})]
    try:
        views = [unpack(o["data"][MIME]) for o in outputs]
    except PackedProblem as e:
        raise Pt2eLensError(t("error.pictures_bad_output", problem=e)) from None
    if any(not isinstance(v, dict) for v in views):  # JSON text of a list or a number: nothing to draw
        raise Pt2eLensError(t("error.pictures_bad_output", problem="pt2e-lens output: not a View (a JSON object)"))
    for view in views:  # a View (or bare Snapshot) missing its fields would fail deep inside the drawing
        problem = schema_error(view, VIEW_SCHEMA, "View")
        if problem is not None and schema_error(view, VIEW_SCHEMA, "Snapshot") is not None:
            raise Pt2eLensError(t("error.pictures_bad_output", problem=f"pt2e-lens output: {problem}"))
    for out, view, svg in zip(outputs, views, draw(views) if views else [], strict=True):
        if svg:
            out["data"]["image/svg+xml"] = svg
        packed = out["data"][MIME] = pack(view)
        # an output keeps the viewer if it had one (PT2E_LENS_VIEWER=once leaves it in the first output only)
        viewer = "<script>" in _text(out["data"].get("text/html", "<script>"))
        out["data"]["text/html"] = html_fragment(view, picture=svg, packed=packed, viewer=viewer)
    return len(outputs)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m pt2e_lens.pictures", description=__doc__.splitlines()[0])
    p.add_argument("notebook", type=Path, help="an executed .ipynb")
    p.add_argument("-o", "--output", type=Path, help="where to write (default: in place)")
    a = p.parse_args(argv)
    try:
        nb = read_notebook(a.notebook)  # size and shape checked first: a crafted notebook is one line
        n = fill(nb)
    except (OSError, ValueError, Pt2eLensError) as e:
        print(f"pt2e-lens pictures: {e}", file=sys.stderr)
        return 1
    (a.output or a.notebook).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"pt2e-lens pictures: {n} outputs in {a.output or a.notebook}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
