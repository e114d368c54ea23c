"""`pt2e-lens report --backend`: what can be known is checked before the pipeline runs; a lowering that fails
late keeps what was made (the stages before it are written to --out) and says its real cause on a line of its
own, with a fix the CLI can pass. The compile failures are real ones, each in a fresh process: no C++ compiler
(CXX names one that does not exist) and a cache folder Inductor cannot write (TORCHINDUCTOR_CACHE_DIR)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import torch

import pt2e_lens as pl
from pt2e_lens.cli import main

BEFORE_LOWERING = ("exported", "annotated", "prepared", "calibrated", "converted")


@pytest.mark.parametrize("quantizer", ["conv", "conv_relu", "composable"])
def test_signed_int8_quantizer_with_inductor_is_refused_before_anything_runs(tmp_path, capsys, quantizer):
    out = tmp_path / "out"
    args = ["report", "--example", "tiny", "--backend", "inductor", "--out", str(out)]
    assert main([*args, "--quantizer", quantizer] if quantizer != "conv" else args) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pt2e-lens: error:"), err  # no progress line: nothing ran
    assert f"--quantizer {quantizer}" in lines[0] and "--quantizer x86" in lines[0]
    assert "freezing" not in lines[0]  # an option of run.lower, not of the CLI
    assert not out.exists()


@pytest.mark.parametrize("quantizer", ["conv", "conv_relu", "composable", "x86"])
def test_the_up_front_check_is_what_each_quantizer_really_annotates(quantizer):
    """Refused exactly when the quantizer's activation specs (per-tensor) are signed int8 in the real graph."""
    from pt2e_lens.cli import _check_backend
    from pt2e_lens.examples import example_inputs, get_model, quantizer_by_name

    run = pl.Run(get_model("tiny").eval(), example_inputs(2)).prepare(quantizer_by_name(quantizer))
    dtypes = {s["dtype"] for s in run["annotated"].snapshot.specs if (s["qscheme"] or "").startswith("per_tensor")}
    assert dtypes in ({"int8"}, {"uint8"})
    try:
        _check_backend("inductor", quantizer)
        refused = False
    except pl.Pt2eLensError:
        refused = True
    assert refused == (dtypes == {"int8"})
    _check_backend("xnnpack", quantizer)  # XNNPACK runs signed int8: nothing to refuse


def _report(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "pt2e_lens", "report", "--example", "tiny", "--quantizer", "x86"]
    cmd += ["--backend", "inductor", "--out", str(out)]
    return subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **env}, timeout=1800)


def _written(tmp_path: Path) -> list[str]:
    return sorted(p.stem for p in (tmp_path / "out").glob("*.json"))


def _assert_late_failure(r: subprocess.CompletedProcess, tmp_path: Path, says: str) -> str:
    assert r.returncode == 2, r.stderr[-2000:]
    lines = r.stderr.strip().splitlines()
    last = lines[-1]
    assert last.startswith("pt2e-lens: error: lowering with inductor failed:"), r.stderr[-2000:]
    assert says in last, last
    # the progress line of the failed step ends before the error, on its own line
    step = [ln for ln in lines if ln.startswith("[5/5]")][-1]  # the step named again when it failed
    assert "pt2e-lens: error" not in step and step.rstrip().endswith("failed")
    assert "freezing" not in last and "earlier stages are kept" not in last
    assert _written(tmp_path) == sorted(BEFORE_LOWERING)
    snap = json.loads((tmp_path / "out" / "converted.json").read_text())
    assert snap["stage"] == "converted" and snap["qdq"]
    assert "== converted:" in r.stdout  # the tables of the stages made are printed too
    return last


def test_no_cxx_compiler_is_named_and_the_stages_made_are_written(tmp_path):
    missing = tmp_path / "no-such-compiler" / "g++"
    r = _report(tmp_path, CXX=str(missing))
    last = _assert_late_failure(r, tmp_path, "no working C++ compiler")
    assert str(missing) in last and "set CXX" in last and "run the report again" in last


def _unwritable_folder(tmp_path: Path) -> Path:
    """A folder nothing can be made in: chmod 555 for a user; for root (who writes there anyway) sysfs."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        folder = Path("/sys/fs")
    else:
        folder = tmp_path / "read-only"
        folder.mkdir()
        folder.chmod(0o555)
    try:
        os.rmdir(tempfile.mkdtemp(dir=folder))
    except OSError:
        return folder
    pytest.skip(f"{folder} takes new folders here")


def test_an_unwritable_inductor_cache_is_refused_before_the_pipeline(tmp_path):
    cache = _unwritable_folder(tmp_path)
    r = _report(tmp_path, TORCHINDUCTOR_CACHE_DIR=str(cache))
    assert r.returncode == 2, r.stderr[-2000:]
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pt2e-lens: error: Inductor could not write"), r.stderr[-2000:]
    assert str(cache) in lines[0] and "TORCHINDUCTOR_CACHE_DIR" in lines[0] and "run the report again" in lines[0]
    assert not (tmp_path / "out").exists()


def test_an_unwritable_inductor_cache_stops_run_lower_before_compiling(tmp_path, composable_run, monkeypatch):
    from torch._dynamo.utils import counters

    cache = _unwritable_folder(tmp_path)
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(cache))
    counters.clear()
    with pytest.raises(pl.Pt2eLensError) as e:
        composable_run.lower("inductor")
    msg = str(e.value)
    assert msg.startswith(f"Inductor could not write its compiled kernels to {cache}") and "\n" not in msg
    assert "then lower again" in msg and composable_run.stages[-1] == "converted"
    assert not counters["inductor"]  # nothing was compiled


def test_wrong_example_inputs_are_named_before_compiling(composable_run):
    run = composable_run
    stages = run.stages
    with pytest.raises(pl.Pt2eLensError) as e:
        run.lower("inductor", example_inputs=(torch.randn(2, 5, 8, 8),))
    msg = str(e.value)
    assert msg.startswith("the example inputs do not fit the converted module") and "\n" not in msg
    assert "example_inputs=" in msg and "earlier stages are kept" in msg
    assert run.stages == stages
