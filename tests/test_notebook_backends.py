"""notebooks/backends.ipynb runs top to bottom: both backends lower the course's tiny model, its asserts (every
number checked against Inductor's counters and ExecuTorch's get_delegation_info) run inside it, and it draws
the lowered stages."""

import re
from pathlib import Path

import nbformat
import pytest
from test_notebook import execute

from pt2e_lens.display import MIME
from pt2e_lens.schema.packed import unpack

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "backends.ipynb"


def test_backends_notebook_runs_with_its_numbers():
    pytest.importorskip("executorch", reason="the executorch extra: pip install 'pt2e-lens[executorch]'")
    nb = execute(NOTEBOOK)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    errors = [f"{o['ename']}: {o['evalue']}" for o in outputs if o.get("output_type") == "error"]
    assert not errors, errors  # an assert in the notebook that fails is an error output
    stdout = "".join(o["text"] for o in outputs if o.get("output_type") == "stream" and o["name"] == "stdout")
    assert re.search(r"Inductor：conv (\d+) 個，int8 \1 個；qconv_weight_prepack_matcher_count = \1", stdout)
    assert re.search(r"XNNPACK：\d+ 個 partition，delegate 內 \d+ 個 node", stdout)
    assert re.search(r"SQNR \d+\.\d dB|identical \(SQNR ∞\)", stdout) and "inf dB" not in stdout
    # issue 26.4: no red block of torchao's CPU-build .so messages or ExecuTorch's cpuinfo lines
    stderr = "".join(o["text"] for o in outputs if o.get("output_type") == "stream" and o["name"] == "stderr")
    assert stderr.strip() == "", stderr[:2000]
    views = [unpack(o["data"][MIME]) for o in outputs if MIME in o.get("data", {})]
    lowered = [v for v in views if "lowered" in str(v.get("mode")) or "lowered" in str(v)[:20000]]
    assert len(views) >= 3 and lowered
    compared = [v for v in views if v.get("mode") == "compare"]
    assert compared and [p["label"] for p in compared[-1]["panes"]] == ["Inductor", "XNNPACK"]


def test_backends_notebook_is_bilingual_and_saved_without_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    text = "".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "後端" in text and "为" not in text and "backend" in text  # zh-TW beside English
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
