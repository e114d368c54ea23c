"""What pt2e-lens outputs cost a saved notebook (issue 9, "Weight"), measured on the real MIME bundles.

Run: .venv/bin/python bench/notebook_size.py [--skip-quickstart] [--skip-runs] [--repeats 3]

1. The executed quickstart: bytes per pt2e-lens output as nbformat saves it (goal ≤ 120 kB on average), split
   into the inlined viewer, the packed View of the MIME data, the same in text/html, and the static fallback;
   with PT2E_LENS_VIEWER=once (the viewer in the first output only) computed from the same bytes.
2. Run displays of a ~550- and a ~4.7k-converted-node resnet (ConvQuantizer, 4 calibration batches):
   bytes per converted node (goal ≤ 400 B/node + a fixed part), the same split, and what the same View cost
   in pt2e-lens 0.1's form (the View JSON in the MIME data and again in text/html, the viewer raw).
3. Packing time against plain `json.dumps` of the same View (a ratio), and the tabular layout's share.
4. Saving a notebook with one ~4.7k-node Run display through jupyter_server's FileContentsManager (what
   JupyterLab's save runs on the server: validate + write), packed and in 0.1's form (a ratio).
Medians of --repeats. kB = 1000 bytes.
"""

from __future__ import annotations

import argparse
import base64
import copy
import gzip
import json
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import nbformat  # noqa: E402

import pt2e_lens as pl  # noqa: E402
from bench import models  # noqa: E402
from pt2e_lens._static import bundle, packed_viewer  # noqa: E402
from pt2e_lens.display import MIME, bundle_of, html_fragment, script_json, summary  # noqa: E402
from pt2e_lens.examples import ConvQuantizer  # noqa: E402
from pt2e_lens.schema.packed import compact_json, pack, unpack  # noqa: E402

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "quickstart.ipynb"
# resnet blocks → converted nodes with ConvQuantizer (torch 2.13): ~23.4 per block, 24 → ~570, 200 → ~4.7k
RUNS = {"resnet-24": 24, "resnet-200": 200}


def kb(n: float) -> str:
    return f"{n / 1000:,.1f} kB"


def saved_bytes(outputs: list) -> int:
    """Bytes these outputs add to a notebook file as nbformat writes it (indent 1, strings split in lines)."""
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("x")
    nb.cells.append(cell)
    empty = len(nbformat.writes(nb).encode())
    cell.outputs = [nbformat.from_dict(copy.deepcopy(o)) for o in outputs]
    return len(nbformat.writes(nb).encode()) - empty


def as_string(text: str) -> int:
    """Bytes of a text inside a saved notebook: a JSON string, so quotes and backslashes are escaped."""
    return len(json.dumps(text, ensure_ascii=False).encode()) - 2


def display_output(data: dict) -> dict:
    return nbformat.v4.new_output("display_data", data=data)


def text_of(v) -> str:
    return "".join(v) if isinstance(v, list) else v


def split(out: dict) -> dict[str, int]:
    """One output's saved bytes, split: viewer, packed View in the MIME data, the same in text/html, the rest
    (the static fallback: summary and tables as HTML, text/plain, keys)."""
    data = out["data"]
    html = text_of(data.get("text/html", ""))
    viewer = packed_viewer() or ""
    return {
        "total": saved_bytes([out]),
        "viewer": as_string(viewer) if viewer and viewer in html else 0,
        "mime": saved_bytes([display_output({MIME: data[MIME]})]) - saved_bytes([display_output({})]),
        "html_view": as_string(script_json(data[MIME])),
    }


def old_form(view: dict) -> dict:
    """The output pt2e-lens 0.1 wrote for the same View: the View JSON twice, the viewer raw (for the ratios)."""
    js = bundle("report.js") or ""
    fallback = html_fragment(view, viewer=False).split("<script", 1)[0]
    html = f'{fallback}<script type="{MIME}">{script_json(view)}</script><script>{js}</script>'
    return display_output({MIME: view, "text/html": html, "text/plain": summary(view)})


def quickstart() -> None:
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOK, as_version=4)
    t0 = time.perf_counter()
    NotebookClient(nb, timeout=900, kernel_name="python3").execute()
    outs = [o for c in nb.cells for o in c.get("outputs", []) if MIME in o.get("data", {})]
    whole = len(nbformat.writes(nb).encode())
    print(f"## 1. executed quickstart ({time.perf_counter() - t0:.0f} s to execute)\n")
    print(f"notebook {kb(whole)} ({whole / 1024 / 1024:.2f} MiB) with {len(outs)} pt2e-lens outputs\n")
    print("| output | saved | viewer | packed View (MIME data) | packed View (text/html) | fallback + rest |")
    print("|---|---|---|---|---|---|")
    parts = []
    for i, o in enumerate(outs):
        p = split(o)
        parts.append(p)
        rest = p["total"] - p["viewer"] - p["mime"] - p["html_view"]
        mode = unpack(o["data"][MIME]).get("mode", "?")
        print(
            f"| {i + 1} ({mode}) | {kb(p['total'])} | {kb(p['viewer'])} | {kb(p['mime'])} | "
            f"{kb(p['html_view'])} | {kb(rest)} |"
        )
    n = len(parts)
    total = sum(p["total"] for p in parts)
    viewers = [p["viewer"] for p in parts if p["viewer"]]
    once = total - sum(viewers[1:])
    old = sum(saved_bytes([old_form(unpack(o["data"][MIME]))]) for o in outs)
    print(
        f"\naverage per pt2e-lens output: **{kb(total / n)}** (goal ≤ 120 kB: {total / n / 120e3:.2f}× goal); "
        f"the inlined viewer is {sum(viewers) / total:.0%} of it\n"
    )
    print("| form | average per output | ÷ goal |\n|---|---|---|")
    print(f"| pt2e-lens 0.1 (View JSON twice, viewer raw) | {kb(old / n)} | {old / n / 120e3:.2f} |")
    print(f"| packed, viewer in every output (default) | {kb(total / n)} | {total / n / 120e3:.2f} |")
    print(f"| packed, PT2E_LENS_VIEWER=once | {kb(once / n)} | {once / n / 120e3:.2f} |")
    print()


def capture(n: int) -> pl.Run:
    model, inputs = models.build("resnet", n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pl.capture(model, inputs, ConvQuantizer(), calibration=models.calibration("resnet", 4, inputs))


def median_time(f, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def run_display(name: str, run: pl.Run, repeats: int) -> dict:
    view = pl.show(run).view
    out = display_output(bundle_of(view))
    p = split(out)
    conv = next(pn for pn in view["panes"] if pn["label"] == "converted")
    nodes = len(conv["snapshot"]["nodes"])
    per_node = (p["total"] - p["viewer"]) / nodes
    old = old_form(view)
    old_total = saved_bytes([old])
    old_per_node = (old_total - as_string(bundle("report.js") or "")) / nodes
    fallback = p["total"] - p["viewer"] - p["mime"] - p["html_view"]
    text = compact_json(view)
    plain_gz = len(base64.b64encode(gzip.compress(text.encode(), 6)))
    t_json = median_time(lambda: compact_json(view), repeats)
    t_pack = median_time(lambda: pack(view), repeats)
    t_unpack = median_time(lambda: unpack(out["data"][MIME]), repeats)
    print(f"### {name}: {nodes} converted nodes, {len(view['panes'])} stages\n")
    print(
        f"- saved output: {kb(p['total'])} = {kb(p['viewer'])} viewer + {per_node:,.0f} B per converted node for the "
        f"rest (0.1's form: {kb(old_total)}, {old_per_node:,.0f} B/node)"
    )
    print(
        f"- packed View in the MIME data {kb(p['mime'])} ({p['mime'] / nodes:,.0f} B/node), the same in text/html "
        f"{kb(p['html_view'])}, static fallback (summary + tables as HTML) and rest {kb(fallback)} "
        f"({fallback / nodes:,.0f} B/node)"
    )
    print(
        f"- compact View JSON {kb(len(text))}; gzip + base64 alone {kb(plain_gz)} ({plain_gz / nodes:,.0f} B/node); "
        f"with the tabular layout first {kb(len(pack(view)['data']))} ({len(pack(view)['data']) / nodes:,.0f} B/node)"
    )
    print(
        f"- time: pack {t_pack:.2f} s = {t_pack / t_json:.1f}× json.dumps of the View ({t_json:.2f} s); "
        f"unpack (Python, checked) {t_unpack:.2f} s; medians of {repeats}\n"
    )
    return {"name": name, "nodes": nodes, "out": out, "old": old, "per_node": per_node}


def save_time(out: dict, repeats: int) -> tuple[float, int]:
    from jupyter_server.services.contents.filemanager import FileContentsManager

    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("run")
    cell.outputs = [out]
    nb.cells.append(cell)
    model = {"type": "notebook", "format": "json", "content": json.loads(json.dumps(nb))}
    with tempfile.TemporaryDirectory() as d:
        cm = FileContentsManager(root_dir=d)
        t = median_time(lambda: cm.save(copy.deepcopy(model), "run.ipynb"), repeats)
        size = (Path(d) / "run.ipynb").stat().st_size
    return t, size


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skip-quickstart", action="store_true")
    ap.add_argument("--skip-runs", action="store_true")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    js, viewer = bundle("report.js"), packed_viewer()
    if js is None or viewer is None:
        print("the report bundle is not built: run `npm run build` first", file=sys.stderr)
        return 2
    print(
        f"viewer (report.js): {kb(len(js.encode()))} raw, gzip -9 {kb(len(gzip.compress(js.encode(), 9)))}, "
        f"as inlined (LZMA + base91 + unpacker) {kb(len(viewer))}\n"
    )
    if not a.skip_quickstart:
        quickstart()
    if not a.skip_runs:
        import torch

        torch.set_num_threads(1)
        print("## 2. Run displays (pl.show(run) of a resnet, ConvQuantizer)\n")
        shown = [run_display(name, capture(n), a.repeats) for name, n in RUNS.items()]
        # the goal's form, "B per node + a fixed part", fitted through both Runs: the fixed part is the viewer
        # and the script-free fallback (tables capped at display.FALLBACK_ROWS rows), the rest grows with the model
        small, big = shown[0], shown[-1]
        size = {s["name"]: saved_bytes([s["out"]]) for s in shown}
        slope = (size[big["name"]] - size[small["name"]]) / (big["nodes"] - small["nodes"])
        fixed = size[small["name"]] - slope * small["nodes"]
        old = {s["name"]: saved_bytes([s["old"]]) for s in shown}
        old_slope = (old[big["name"]] - old[small["name"]]) / (big["nodes"] - small["nodes"])
        print(
            f"fitted through both Runs: **{slope:,.0f} B per converted node + {kb(fixed)} fixed** "
            f"(goal ≤ 400 B/node: {slope / 400:.2f}× goal; the viewer is {kb(len(viewer))} of the fixed part); "
            f"0.1's form: {old_slope:,.0f} B/node ({old_slope / slope:.0f}× more)\n"
        )
        big = shown[-1]
        t_new, size_new = save_time(big["out"], a.repeats)
        t_old, size_old = save_time(big["old"], a.repeats)
        print(
            f"\n## 4. saving a notebook with the {big['name']} Run display (FileContentsManager.save)\n\n"
            f"packed: {size_new / 1e6:.2f} MB file, {t_new:.2f} s; 0.1's form: {size_old / 1e6:.1f} MB, {t_old:.2f} s "
            f"— **{t_old / t_new:.0f}× faster** for a {size_old / size_new:.0f}× smaller file; medians of {a.repeats}\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
