"""`pt2e-lens report`: the README's main job, on an example and on a .pt2 file."""

import json

import torch

import pt2e_lens as pl
from pt2e_lens.cli import main
from pt2e_lens.examples import example_inputs, get_model


def test_report_example_prints_stage_tables_and_writes_snapshots(tmp_path, capsys):
    assert main(["report", "--example", "tiny", "--out", str(tmp_path), "--html", str(tmp_path / "r.html")]) == 0
    out = capsys.readouterr().out
    assert "== exported: 47 nodes" in out
    assert "== prepared: 39 nodes, 12 observers" in out
    assert "== converted: 55 nodes, 0 observers, 20 q/dq" in out
    for stage in ("exported", "annotated", "prepared", "calibrated", "converted"):
        data = json.loads((tmp_path / f"{stage}.json").read_text())
        assert data["stage"] == stage and data["schema_version"] == pl.SCHEMA_VERSION
    assert (tmp_path / "r.html").stat().st_size > 0


def test_report_on_a_saved_program(tmp_path, capsys):
    path = tmp_path / "m.pt2"
    torch.export.save(torch.export.export(get_model("conv_relu").eval(), example_inputs(2)), str(path))
    assert main(["report", str(path), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "== prepared:" in out and "3 observers" in out
    assert (tmp_path / "out" / "converted.json").exists()


def test_missing_and_corrupt_files_give_one_line(tmp_path, capsys):
    assert main(["report", str(tmp_path / "nope.pt2")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("pt2e-lens: error:") and "no such file" in err and "\n" not in err
    bad = tmp_path / "bad.pt2"
    bad.write_bytes(b"not a zip archive at all")
    assert main(["report", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert "not a readable torch.export archive" in err and "\n" not in err


def test_model_or_example_is_required(capsys):
    assert main(["report"]) == 2
    assert "either a .pt2 file or --example" in capsys.readouterr().err
