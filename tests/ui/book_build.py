"""Build the two course chapters with Jupyter Book 1.x (Sphinx + MyST-NB), offline, and write what torchao says.

Usage: python tests/ui/book_build.py OUT_DIR → OUT_DIR/_build/html/<chapter>.html and OUT_DIR/expected.json,
and each executed chapter as nbconvert writes it (OUT_DIR/<chapter>.nbconvert.html, light, and -dark.html):
the page of the shipped chapter, `lang="en"`, that tests/ui/course.host.mjs reads in zh-TW with scripts on and off.
The notebooks are executed here with nbclient (as tests/test_course_notebooks.py does) and the book is built
from the executed copies with execution off, so the build itself needs no kernel and no network.
Jupyter Book 2 / mystmd download their site theme at build time; 1.x ships its theme (sphinx-book-theme) in
the wheel. The browser test (tests/ui/book.host.mjs) opens the pages with the network blocked and compares what
they draw with expected.json, whose numbers come from torchao's graphs (not from pt2e-lens's snapshot).
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbconvert import HTMLExporter

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = ["m00_3_decomposition", "m03_6_partial_composable_order"]

CONFIG = """\
title: pt2e-lens course
author: pt2e-lens
only_build_toc_files: true
execute:
  execute_notebooks: "off"
html:
  use_repository_button: false
  use_issues_button: false
  use_edit_page_button: false
sphinx:
  config:
    language: zh_TW
    html_show_sourcelink: false
    # MyST-NB shows each output's text/html (the self-contained viewer); our own MIME type is for live hosts
    suppress_warnings: [mystnb.unknown_mime_type]
    # Jupyter Book's list without sphinx_thebe (live cells from a CDN): on this stack it declares its config
    # twice per page, a script error on every page
    extensions: [sphinx_togglebutton, sphinx_copybutton, myst_nb, jupyter_book, sphinx_comments,
                 sphinx_external_toc, sphinx_design, sphinx_book_theme]
"""


def chain(gm, start: str) -> list[str]:
    """Node names from `start` along single users up to the first relu (the chapter's conv → bn → relu)."""
    node = next(n for n in gm.graph.nodes if n.name == start)
    out = []
    while node.op == "call_function":
        out.append(node.name)
        if "relu" in str(node.target) or len(node.users) != 1:
            break
        node = next(iter(node.users))
    return out


def expected() -> dict:
    """What torchao's (and torch.export's) own graphs say about the outputs the chapters draw."""
    import copy

    import torch

    from pt2e_lens.examples import (
        ComposableQuantizer,
        ConvQuantizer,
        ConvReluQuantizer,
        convert_pt2e,
        example_inputs,
        export_module,
        get_model,
        get_module_name_filter,
        prepare_pt2e,
    )

    ep = torch.export.export(get_model("tiny").eval(), example_inputs())
    pre, post = ep.module(), ep.run_decompositions({}).module()
    short = lambda n: n.target.__name__.split(".")[0]  # noqa: E731
    ops = lambda gm: {short(n) for n in gm.graph.nodes if n.op == "call_function"}  # noqa: E731
    gm = export_module(get_model("tiny").eval(), example_inputs(8))
    prepared = prepare_pt2e(copy.deepcopy(gm), ConvQuantizer(get_module_name_filter("stem")))
    prepared(*example_inputs(8))
    stem_only = convert_pt2e(prepared)
    # the chapter draws it with focus=pl.module("stem"), hops=1: the stem's nodes (torch.export's module stack)
    # and their neighbours; of those, the q/dq nodes torchao put in
    stem = {n for n in stem_only.graph.nodes if "stem" in [p for p, _ in n.meta.get("nn_module_stack", {}).values()]}
    near = stem | {m for n in stem for m in [*n.all_input_nodes, *n.users]}
    qdq = [n.name for n in near if n.op == "call_function" and "quantize" in str(n.target)]
    # m03_6 part C: where torchao put the observer that moves with the order (after relu / between conv2d and relu)
    cr = export_module(get_model("conv_relu").eval(), example_inputs(4))
    big = prepare_pt2e(copy.deepcopy(cr), ComposableQuantizer([ConvReluQuantizer(), ConvQuantizer()]))
    small = prepare_pt2e(copy.deepcopy(cr), ComposableQuantizer([ConvQuantizer(), ConvReluQuantizer()]))
    relu_of = lambda gm: next(n for n in gm.graph.nodes if n.op == "call_function" and short(n) == "relu")  # noqa: E731
    groups = lambda gm, names: sorted(n.name for n in gm.graph.nodes if n.op == "call_function" and short(n) in names)  # noqa: E731
    return {
        # m00_3: the stem's conv → bn → relu before and after run_decompositions, one pane each
        "stem_panes": [chain(pre, "conv2d"), chain(post, "conv2d")],
        # m00_3, the seed's own call (focus conv2d, batch_norm, relu; hops 0): all four groups, and in the
        # decomposed pane what their batch norms became
        "group_panes": [
            groups(pre, {"conv2d", "batch_norm", "relu"}),
            groups(post, {"conv2d", "_native_batch_norm_legit_no_training", "getitem", "relu"}),
        ],
        # m00_3: one row per op name in either graph (the op table)
        "op_rows": len(ops(pre) | ops(post)),
        # m03_6: the q/dq nodes torchao put around the stem when only the stem is quantized
        "stem_only_qdq": sorted(qdq),
        # m03_6 part C, the two orders side by side: [observer only the big-first graph has, only the small-first]
        "moved_observer": [next(iter(relu_of(big).users)).name, relu_of(small).args[0].name],
    }


def shared_dir() -> Path | None:
    """Where this test command keeps the built book (scripts/test.sh names a fresh PT2E_LENS_EXECUTED folder)."""
    shared = os.environ.get("PT2E_LENS_EXECUTED")
    return Path(shared) / "book" if shared else None


def executed_chapter(name: str, out: Path) -> nbformat.NotebookNode:
    """notebooks/<name>.ipynb run top to bottom (in notebooks/, as the book runs it), saved as OUT/<name>.ipynb:
    once per test command, whoever comes first — tests/test_course_notebooks.py or this build — and read back
    by the other. Outside the command's folder it always runs."""
    done, shared = out / f"{name}.ipynb", shared_dir()
    if shared and shared.resolve() == out.resolve() and done.exists():
        return nbformat.read(done, as_version=4)
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT / "notebooks")}}
    ).execute()
    out.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, out / f".{name}.ipynb")
    (out / f".{name}.ipynb").replace(done)  # whole or absent: a reader never sees half a notebook
    return nb


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    # host tests may run side by side: the first to need the book builds it while the others wait on this lock,
    # then read it; expected.json, written last, says it is whole
    with open(out / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        shared = shared_dir()
        if shared and shared.resolve() == out.resolve() and (out / "expected.json").exists():
            return 0
        return build(out)


def build(out: Path) -> int:
    for name in CHAPTERS:
        nb = executed_chapter(name, out)
        for theme, suffix in (("light", ""), ("dark", "-dark")):
            body, _ = HTMLExporter(template_name="lab", theme=theme).from_notebook_node(nb)
            (out / f"{name}.nbconvert{suffix}.html").write_text(body, encoding="utf-8")
    (out / "_config.yml").write_text(CONFIG, encoding="utf-8")
    toc = f"format: jb-book\nroot: {CHAPTERS[0]}\nchapters:\n" + "".join(f"- file: {c}\n" for c in CHAPTERS[1:])
    (out / "_toc.yml").write_text(toc, encoding="utf-8")
    jb = Path(sys.executable).with_name("jupyter-book")
    subprocess.run([str(jb), "build", "--all", "--quiet", str(out)], check=True)
    (out / "expected.json").write_text(json.dumps(expected()), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
