"""Execute notebooks/quickstart.ipynb (nbclient), export it with nbconvert, and write what torchao says.

Usage: python tests/ui/notebook_page.py OUT_DIR → OUT_DIR/quickstart.html, OUT_DIR/quickstart.ipynb (executed),
OUT_DIR/expected.json
The browser test opens the HTML offline and compares what it draws with expected.json, whose numbers come
from torchao's own graphs (not from pt2e-lens's snapshot); its why lines and finding rules are what pl.why_not and
the converted stage say in a process of their own.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
from pathlib import Path

import nbformat
import torch
from nbclient import NotebookClient
from nbconvert import HTMLExporter

ROOT = Path(__file__).resolve().parents[2]


def expected() -> dict:
    import pt2e_lens as pl
    from pt2e_lens.examples import ConvQuantizer, calibration_batches, example_inputs, get_model

    pl.quiet()
    run = pl.capture(
        get_model("tiny").eval(),
        example_inputs(8),
        ConvQuantizer(),
        calibration=calibration_batches(2, 16),
        dynamic_batch=True,
    )
    converted = run["converted"].graph_module
    q = [n.name for n in converted.graph.nodes if n.op == "call_function" and "quantize" in str(n.target)]
    ep = torch.export.export(get_model("tiny").eval(), example_inputs())
    pre, post = ep.module(), ep.run_decompositions({}).module()
    post_names = {n.name for n in post.graph.nodes}
    gone_bn = [
        n.name
        for n in pre.graph.nodes
        if n.op == "call_function" and "batch_norm" in str(n.target) and n.name not in post_names
    ]
    # the converted stage's reading (issue 15 points 1, 2), from the kernel side: pl.why_not's lines for the ops
    # ConvQuantizer leaves fp32, and each finding's rule in the findings' order
    conv = run["converted"]
    why = {i: [line for _, line in pl.why_not(conv, i).rows] for i in ("add", "linear")}
    findings = [f["kind"] for f in conv.snapshot.findings]
    return {"qdq_nodes": sorted(q), "removed_batch_norms": sorted(gone_bn), "why": why, "findings": findings}


def executed_quickstart(out: Path) -> nbformat.NotebookNode:
    """notebooks/quickstart.ipynb run top to bottom, saved as OUT/quickstart.ipynb: run once per test command
    (scripts/test.sh empties the folder it names in PT2E_LENS_EXECUTED), whoever comes first —
    tests/test_notebook.py or this page — and read back by the others. Outside such a folder it always runs."""
    src, done = ROOT / "notebooks" / "quickstart.ipynb", out / "quickstart.ipynb"
    shared = os.environ.get("PT2E_LENS_EXECUTED")
    if shared and Path(shared).resolve() == out.resolve() and done.exists():
        return nbformat.read(done, as_version=4)
    nb = nbformat.read(src, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    out.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, out / ".quickstart.ipynb")
    (out / ".quickstart.ipynb").replace(done)  # whole or absent: a reader never sees half a notebook
    return nb


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    # the browser and host tests run side by side (scripts/test-ui.sh): the first to need the pages makes them while
    # the others wait on this lock, then read its pages; expected.json, written last, says they are whole
    with open(out / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        shared = os.environ.get("PT2E_LENS_EXECUTED")
        if shared and Path(shared).resolve() == out.resolve() and (out / "expected.json").exists():
            return 0
        return make_pages(out)


def make_pages(out: Path) -> int:
    nb = executed_quickstart(out)
    body, _ = HTMLExporter(template_name="lab").from_notebook_node(nb)
    (out / "quickstart.html").write_text(body, encoding="utf-8")
    dark, _ = HTMLExporter(template_name="lab", theme="dark").from_notebook_node(nb)  # the views follow it
    (out / "quickstart-dark.html").write_text(dark, encoding="utf-8")
    facts = expected()
    # executed again with the viewer once per page (docs/display.md): only the first output carries it
    once = nbformat.read(ROOT / "notebooks" / "quickstart.ipynb", as_version=4)
    os.environ["PT2E_LENS_VIEWER"] = "once"  # the kernel NotebookClient starts inherits it
    try:
        NotebookClient(once, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    finally:
        del os.environ["PT2E_LENS_VIEWER"]
    body, _ = HTMLExporter(template_name="lab").from_notebook_node(once)
    (out / "quickstart-once.html").write_text(body, encoding="utf-8")
    (out / "expected.json").write_text(json.dumps(facts), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
