"""The quickstart notebook runs top to bottom and its outputs carry pt2e-lens views."""

import importlib.util
import os
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from pt2e_lens.display import MIME
from pt2e_lens.schema.packed import unpack

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "quickstart.ipynb"


def execute(path: Path = NOTEBOOK):
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", store_widget_state=True).execute()
    return nb


def _executed_quickstart() -> nbformat.NotebookNode:
    """The quickstart run once per test command and shared with the browser and host tests (PT2E_LENS_EXECUTED,
    tests/ui/notebook_page.py); run here, into a folder of its own, when no command names one."""
    spec = importlib.util.spec_from_file_location("notebook_page", Path(__file__).parent / "ui" / "notebook_page.py")
    assert spec and spec.loader
    page = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(page)
    out = os.environ.get("PT2E_LENS_EXECUTED") or tempfile.mkdtemp(prefix="pt2e-lens-quickstart-")
    return page.executed_quickstart(Path(out))


def test_quickstart_executes_and_outputs_views():
    nb = _executed_quickstart()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    views = [unpack(o["data"][MIME]) for o in outputs if MIME in o.get("data", {})]
    modes = [v["mode"] for v in views]
    assert modes.count("run") == 1 and modes.count("compare") == 1 and "graph" in modes
    assert all("text/html" in o["data"] for o in outputs if MIME in o.get("data", {}))
