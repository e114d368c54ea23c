"""`pt2e-lens report` never overwrites silently, leaves no stale files, and checks its paths before running."""

import json
import os

import pytest

from pt2e_lens.cli import main


def _err(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    return err[-1] if err else ""


def test_refuses_to_overwrite_an_earlier_report_without_force(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["report", "--example", "conv_relu", "--out", str(out)]) == 0
    first = (out / "converted.json").read_bytes()
    capsys.readouterr()
    assert main(["report", "--example", "conv_relu", "--quantizer", "conv_relu", "--out", str(out)]) == 2
    err = _err(capsys)
    assert err.startswith("pt2e-lens: error:") and "--force" in err and "already holds a report" in err
    assert (out / "converted.json").read_bytes() == first
    assert "[1/" not in capsys.readouterr().err  # refused before the pipeline ran


def test_a_refusal_speaks_the_report_language(tmp_path, capsys):
    out = tmp_path / "out"
    out.write_text("not a folder")
    assert main(["report", "--example", "conv_relu", "--out", str(out), "--lang", "zh-TW"]) == 2
    err = _err(capsys)
    assert "--out" in err and "資料夾" in err and "is a file" not in err
    assert out.read_text() == "not a folder"


def test_force_replaces_and_removes_stale_stage_files(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["report", "--example", "conv_relu", "--decompose", "empty", "--out", str(out)]) == 0
    assert (out / "decomposed.json").exists()
    mine = out / "notes.txt"
    mine.write_text("the user's own file")
    assert main(["report", "--example", "conv_relu", "--out", str(out), "--force"]) == 0
    assert not (out / "decomposed.json").exists()  # no stage of this run: not left behind
    assert mine.read_text() == "the user's own file"  # files that are not ours stay
    assert json.loads((out / "exported.json").read_text())["stage"] == "exported"
    assert not [p for p in os.listdir(out) if p.endswith(".tmp")]
    assert "removed decomposed.json" in capsys.readouterr().out


def test_html_is_not_overwritten_without_force(tmp_path, capsys):
    html = tmp_path / "r.html"
    html.write_text("keep me")
    assert main(["report", "--example", "conv_relu", "--out", str(tmp_path / "o"), "--html", str(html)]) == 2
    assert "--html" in _err(capsys) and html.read_text() == "keep me"
    assert not (tmp_path / "o").exists()  # checked before anything was written
    assert main(["report", "--example", "conv_relu", "--out", str(tmp_path / "o"), "--html", str(html), "--force"]) == 0
    assert html.read_text().startswith("<!doctype html>")


@pytest.mark.parametrize(
    "args, words",
    [
        (["--out", "{f}"], "is a file, not a folder"),
        (["--out", "{f}/sub"], "is a file, not a folder"),
        (["--html", "{d}"], "is a folder"),
        (["--html", "{f}/r.html"], "is a file, not a folder"),
    ],
)
def test_bad_paths_fail_in_one_line_before_the_pipeline(tmp_path, capsys, args, words):
    f = tmp_path / "plain.txt"
    f.write_text("x")
    d = tmp_path / "dir"
    d.mkdir()
    args = [a.format(f=f, d=d) for a in args]
    if "--out" not in args:
        args += ["--out", str(tmp_path / "out")]
    assert main(["report", "--example", "conv_relu", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and "[1/" not in err
