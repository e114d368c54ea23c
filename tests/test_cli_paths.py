"""`pt2e-lens report`: unusable paths are refused before the pipeline runs, a full disk keeps the earlier
report whole, and the files are written with the user's umask."""

from __future__ import annotations

import errno
import os
import stat

import pytest

from pt2e_lens import _outputs
from pt2e_lens.capture.stage import STAGE_ORDER
from pt2e_lens.cli import main


def _refused(capsys, argv: list[str], *words: str) -> str:
    assert main(["report", "--example", "conv_relu", *argv]) == 2
    err = capsys.readouterr().err
    assert "[1/" not in err, "refused only after the pipeline ran"
    line = err.strip().splitlines()[-1]
    assert line.startswith("pt2e-lens: error:") and "Traceback" not in err
    for w in words:
        assert w in line, line
    return line


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--out", "{o}", "--html", "{o}/annotated.json"], ["would replace a stage snapshot"]),
        (["--out", "{o}", "--html", "{o}"], ["is the --out folder itself"]),
        (["--out", "{o}", "--html", "{o}/sub/../converted.json"], ["would replace a stage snapshot"]),
        (["--out", "", "--html", "{tmp}/r.html"], ["--out needs a folder name"]),
        (["--out", "/proc/x"], ["cannot write files in /proc"]),
        (["--out", "{tmp}/o", "--html", "/proc/r.html"], ["cannot write files in /proc"]),
        (["--out", "{tmp}/link/o"], ["link", "choose another path"]),
        (["--out", "{tmp}/" + "n" * 256], ["256 bytes", "255"]),
        (["--out", "{tmp}/o", "--html", ""], ["--html needs a file name"]),
    ],
)
def test_unusable_paths_are_refused_first(tmp_path, capsys, argv, words):
    (tmp_path / "link").symlink_to("/proc/self")
    o = tmp_path / "o"
    argv = [a.format(o=o, tmp=tmp_path) for a in argv]
    _refused(capsys, argv, *words)
    assert not o.exists() or not any(o.iterdir())


def test_a_device_or_a_pipe_is_never_replaced(tmp_path, capsys):
    """`--html /dev/null --force` once renamed a plain file over /dev/null; a FIFO stands in for it here."""
    pipe = tmp_path / "pipe.html"
    os.mkfifo(pipe)
    _refused(capsys, ["--out", str(tmp_path / "o"), "--html", str(pipe), "--force"], "not a regular file")
    assert stat.S_ISFIFO(pipe.stat().st_mode)
    with pytest.raises(Exception, match="not a regular file"):
        _outputs.write_all({pipe: "x"})
    assert stat.S_ISFIFO(pipe.stat().st_mode)


def test_strict_with_a_pt2_file_is_refused(tmp_path, capsys):
    f = tmp_path / "m.pt2"
    f.write_bytes(b"x")
    assert main(["report", str(f), "--strict", "--out", str(tmp_path / "o")]) == 2
    assert "--strict applies only with --example" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["folder", "fifo", "device"])
def test_a_model_that_is_not_a_file_says_what_it_is(tmp_path, capsys, kind):
    path = {"folder": tmp_path, "device": "/dev/zero"}.get(kind)
    if kind == "fifo":
        path = tmp_path / "pipe"
        os.mkfifo(path)
    assert main(["report", str(path), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert "no such file" not in err
    assert ("is a folder" if kind == "folder" else "not a regular file") in err


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """One real report: its bytes are the 'earlier report' the full-disk case must keep whole."""
    out = tmp_path_factory.mktemp("report") / "o"
    old = os.umask(0o022)
    try:
        assert main(["report", "--example", "conv_relu", "--out", str(out), "--html", str(out / "r.html")]) == 0
    finally:
        os.umask(old)
    return out


def test_report_files_honour_the_umask(report):
    for f in [*(report / f"{s}.json" for s in STAGE_ORDER if (report / f"{s}.json").exists()), report / "r.html"]:
        assert stat.S_IMODE(f.stat().st_mode) == 0o644, f


def test_a_full_disk_keeps_the_earlier_report_whole(report, capsys, monkeypatch):
    before = {p.name: p.read_bytes() for p in report.iterdir()}
    real, calls = _outputs._write_file, []

    def fills_up(fd, text):
        calls.append(fd)
        if len(calls) == 3:  # the third file of the new report hits ENOSPC
            os.close(fd)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd, text)

    monkeypatch.setattr(_outputs, "_write_file", fills_up)
    argv = ["report", "--example", "conv_relu", "--quantizer", "conv_relu", "--out", str(report)]
    assert main([*argv, "--html", str(report / "r.html"), "--force"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("pt2e-lens: error: the disk is full") and "Traceback" not in "\n".join(err)
    assert {p.name: p.read_bytes() for p in report.iterdir()} == before  # no temporary file left, nothing mixed
