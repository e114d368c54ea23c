"""What pt2e-lens outputs cost a saved notebook (issue 9, "Weight"), measured on the real MIME bundles.

Run: .venv/bin/python bench/notebook_size.py [--skip-quickstart] [--skip-runs] [--repeats 3]

1. The executed quickstart: bytes per pt2e-lens output as nbformat saves it (goal ≤ 120 kB on average), split
   into the inlined viewer, the View JSON of the MIME data, its duplicate inside text/html, and the rest.
2. Run displays of a ~550- and a ~4.7k-converted-node resnet (ConvQuantizer, 4 calibration batches):
   bytes per converted node (goal ≤ 400 B/node + a fixed part), the same split, and per stage/table.
3. What the ways of issue 9 would give, computed from the same bytes: one JSON copy instead of two, the
   viewer gzip-compressed + base64 (unpacked with DecompressionStream), the viewer once per page.
4. Saving a notebook with one ~4.7k-node Run display through jupyter_server's FileContentsManager (what
   JupyterLab's save runs on the server: validate + write; the browser's JSON.stringify is not included).
Medians of --repeats. kB = 1000 bytes, KiB = 1024 bytes.
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
from pt2e_lens._static import bundle  # noqa: E402
from pt2e_lens.display import MIME, mimebundle, script_json  # noqa: E402
from pt2e_lens.examples import ConvQuantizer  # noqa: E402

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "quickstart.ipynb"
# resnet blocks → converted nodes with ConvQuantizer (torch 2.13): ~23.4 per block, 24 → ~570, 200 → ~4.7k
RUNS = {"resnet-24": 24, "resnet-200": 200}
# what unpacking a gzip+base64 viewer costs in the page: fetch(data:) → DecompressionStream → text → eval
UNPACK_STUB = (
    "<script>(async()=>{const r=await fetch('data:application/octet-stream;base64,'+B);"
    "const s=r.body.pipeThrough(new DecompressionStream('gzip'));(0,eval)(await new Response(s).text())})()</script>"
)


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


def split(out: dict, js: str) -> dict[str, int]:
    """One output's saved bytes, split: viewer, MIME View JSON, its duplicate in text/html, the rest."""
    data = out["data"]
    total = saved_bytes([out])
    mime_only = saved_bytes([display_output({MIME: data[MIME]})]) - saved_bytes([display_output({})])
    html = data.get("text/html", "")
    html = "".join(html) if isinstance(html, list) else html
    dup = as_string(script_json(data[MIME]))
    viewer = as_string(js) if js and js in html else 0
    packed_json = len(base64.b64encode(gzip.compress(script_json(data[MIME]).encode(), 9)))
    return {"total": total, "viewer": viewer, "mime_json": mime_only, "html_json": dup, "json_gz": packed_json}


def gz_b64(js: str) -> int:
    return len(base64.b64encode(gzip.compress(js.encode(), 9))) + len(UNPACK_STUB)


def ways(parts: list[dict[str, int]], js: str) -> list[tuple[str, float, float]]:
    """(way, average bytes per output, of which the viewer's part) under each way of issue 9, from the split."""
    n = len(parts)
    total = sum(p["total"] for p in parts)
    viewer = sum(p["viewer"] for p in parts)
    with_viewer = sum(1 for p in parts if p["viewer"])
    mime = sum(p["mime_json"] for p in parts)
    in_html = sum(p["html_json"] for p in parts)
    packed = gz_b64(js) * with_viewer
    once = as_string(js) if with_viewer else 0
    once_gz = gz_b64(js) if with_viewer else 0
    json_gz = sum(p["json_gz"] for p in parts)
    return [
        ("as now", total / n, viewer / n),
        ("no View JSON in text/html (the MIME data keeps it)", (total - in_html) / n, viewer / n),
        ("no View JSON in the MIME data (text/html keeps it, compact)", (total - mime) / n, viewer / n),
        ("viewer gzip + base64", (total - viewer + packed) / n, packed / n),
        ("viewer once per page", (total - viewer + once) / n, once / n),
        ("no JSON in MIME data + viewer gzip + base64", (total - mime - viewer + packed) / n, packed / n),
        ("no JSON in MIME data + viewer once per page, gzip", (total - mime - viewer + once_gz) / n, once_gz / n),
        (
            "no JSON in MIME data + View JSON and viewer gzip + base64",
            (total - mime - in_html + json_gz - viewer + packed) / n,
            packed / n,
        ),
    ]


def quickstart(js: str) -> None:
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOK, as_version=4)
    t0 = time.perf_counter()
    NotebookClient(nb, timeout=900, kernel_name="python3").execute()
    outs = [o for c in nb.cells for o in c.get("outputs", []) if MIME in o.get("data", {})]
    whole = len(nbformat.writes(nb).encode())
    print(f"## 1. executed quickstart ({time.perf_counter() - t0:.0f} s to execute)\n")
    print(f"notebook {kb(whole)} ({whole / 1024 / 1024:.2f} MiB) with {len(outs)} pt2e-lens outputs\n")
    print("| output | saved | viewer | View JSON (MIME data, as saved) | View JSON in text/html | rest |")
    print("|---|---|---|---|---|---|")
    parts = []
    for i, o in enumerate(outs):
        p = split(o, js)
        parts.append(p)
        rest = p["total"] - p["viewer"] - p["mime_json"] - p["html_json"]
        mode = o["data"][MIME].get("mode", "?")
        print(
            f"| {i + 1} ({mode}) | {kb(p['total'])} | {kb(p['viewer'])} | {kb(p['mime_json'])} | "
            f"{kb(p['html_json'])} | {kb(rest)} |"
        )
    avg = sum(p["total"] for p in parts) / len(parts)
    share = sum(p["viewer"] for p in parts) / sum(p["total"] for p in parts)
    print(
        f"\naverage per pt2e-lens output: **{kb(avg)}** (goal ≤ 120 kB: {avg / 120e3:.2f}× goal); "
        f"the inlined viewer is {share:.0%} of it\n"
    )
    print("| way | average per output | ÷ goal |\n|---|---|---|")
    for name, v, _ in ways(parts, js):
        print(f"| {name} | {kb(v)} | {v / 120e3:.2f} |")
    print()


def capture(n: int) -> pl.Run:
    model, inputs = models.build("resnet", n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pl.capture(model, inputs, ConvQuantizer(), calibration=models.calibration("resnet", 4, inputs))


def run_display(name: str, run: pl.Run, js: str) -> dict:
    view = pl.show(run).view
    out = display_output(mimebundle(view))
    p = split(out, js)
    conv = next(pn for pn in view["panes"] if pn["label"] == "converted")
    nodes = len(conv["snapshot"]["nodes"])
    fixed = p["viewer"]
    per_node = (p["total"] - fixed) / nodes
    compact = {pn["label"]: len(json.dumps(pn, separators=(",", ":"))) for pn in view["panes"]}
    compact["tables"] = len(json.dumps(view["tables"], separators=(",", ":")))
    compact["diffs"] = len(json.dumps(view["diffs"], separators=(",", ":")))
    whole = len(json.dumps(view, separators=(",", ":")))
    print(f"### {name}: {nodes} converted nodes, {len(view['panes'])} stages\n")
    print(f"- saved output: {kb(p['total'])} = **{per_node:,.0f} B per converted node** + {kb(fixed)} viewer")
    print(f"  (goal ≤ 400 B/node + a fixed part: {per_node / 400:.1f}× goal)")
    print(
        f"- View JSON as saved in the MIME data (nbformat indents it): {kb(p['mime_json'])} "
        f"({p['mime_json'] / p['total']:.0%}); the same View in text/html: {kb(p['html_json'])} "
        f"({p['html_json'] / p['total']:.0%}); viewer {p['viewer'] / p['total']:.1%}"
    )
    print(
        f"- compact View JSON {kb(whole)}; gzip -9 of it {kb(len(gzip.compress(json.dumps(view).encode(), 9)))} "
        f"({len(gzip.compress(json.dumps(view).encode(), 9)) / nodes:,.0f} B/node)"
    )
    print("- its parts (compact JSON): " + ", ".join(f"{k} {v / whole:.0%}" for k, v in compact.items()))
    print()
    return {"name": name, "nodes": nodes, "out": out, **p, "per_node": per_node}


def save_time(out: dict, repeats: int) -> None:
    from jupyter_server.services.contents.filemanager import FileContentsManager

    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("run")
    cell.outputs = [out]
    nb.cells.append(cell)
    model = {"type": "notebook", "format": "json", "content": json.loads(json.dumps(nb))}
    with tempfile.TemporaryDirectory() as d:
        cm = FileContentsManager(root_dir=d)
        times, writes = [], []
        for _ in range(repeats):
            t0 = time.perf_counter()
            cm.save(copy.deepcopy(model), "run.ipynb")
            times.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            nbformat.writes(nbformat.from_dict(model["content"]))
            writes.append(time.perf_counter() - t0)
        size = (Path(d) / "run.ipynb").stat().st_size
    save, ser = statistics.median(times), statistics.median(writes)
    print(
        f"## 4. saving a notebook with one Run display ({out['data'][MIME]['mode']}, "
        f"{size / 1e6:.1f} MB file)\n\nFileContentsManager.save (validate + write): **{save:.2f} s**, "
        f"of which nbformat.writes alone {ser:.2f} s ({ser / save:.0%}); medians of {repeats}\n"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skip-quickstart", action="store_true")
    ap.add_argument("--skip-runs", action="store_true")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    js = bundle("report.js")
    if js is None:
        print("the report bundle is not built: run `npm run build` first", file=sys.stderr)
        return 2
    print(
        f"viewer (report.js): {kb(len(js.encode()))} raw, gzip -9 {kb(len(gzip.compress(js.encode(), 9)))}, "
        f"gzip + base64 + unpacker {kb(gz_b64(js))}\n"
    )
    if not a.skip_quickstart:
        quickstart(js)
    if not a.skip_runs:
        import torch

        torch.set_num_threads(1)
        print("## 2. Run displays (pl.show(run) of a resnet, ConvQuantizer)\n")
        shown = [run_display(name, capture(n), js) for name, n in RUNS.items()]
        print("| way | " + " | ".join(f"{s['name']} ({s['nodes']} nodes): B/node + fixed" for s in shown) + " |")
        print("|---|" + "---|" * len(shown))
        table = [ways([s], js) for s in shown]
        for i, (name, _, _) in enumerate(table[0]):
            cells = [f"{(w[i][1] - w[i][2]) / s['nodes']:,.0f} + {kb(w[i][2])}" for s, w in zip(shown, table)]
            print(f"| {name} | " + " | ".join(cells) + " |")
        print("\n(B/node = (output − its viewer part) ÷ converted nodes; goal ≤ 400 + a fixed part)\n")
        save_time(shown[-1]["out"], a.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
