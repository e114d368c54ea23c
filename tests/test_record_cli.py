"""`pt2e-lens run SCRIPT.py`: an unchanged script recorded; a failing one shows its own error and keeps what was recorded."""

import json
import subprocess
import sys
import textwrap

from pt2e_lens.cli import main

SCRIPT = textwrap.dedent(
    """
    import sys
    import torch
    from torchao.quantization.pt2e import ObserverBase
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config
    from pt2e_lens.examples import calibration_batches, example_inputs, get_model

    assert __name__ == "__main__"
    n = int(sys.argv[1])
    ep = torch.export.export(get_model("tiny").eval(), example_inputs(2))
    prepared = prepare_pt2e(ep.module(), XNNPACKQuantizer().set_global(get_symmetric_quantization_config()))
    print("observers", sum(isinstance(m, ObserverBase) for m in prepared.modules()))
    for (x,) in calibration_batches(n, 2):
        prepared(x)
    if sys.argv[2:] == ["fail"]:
        raise RuntimeError("the script's own failure")
    converted = convert_pt2e(prepared)
    print("qdq", sum("quantize_per" in str(n.target) for n in converted.graph.nodes))
    """
)


def _counts(out: str) -> dict[str, int]:
    return {k: int(v) for k, v in (line.split() for line in out.splitlines() if line.startswith(("observers", "qdq")))}


def test_run_a_good_script_with_its_arguments(tmp_path, capsys):
    script = tmp_path / "quantize.py"
    script.write_text(SCRIPT)
    out_dir, html = tmp_path / "out", tmp_path / "r.html"
    assert main(["run", str(script), "2", "--html", str(html), "--out", str(out_dir)]) == 0
    out = capsys.readouterr().out
    counts = _counts(out)  # what the script itself counted in torchao's graphs
    converted = json.loads((out_dir / "converted.json").read_text())
    prepared = json.loads((out_dir / "prepared.json").read_text())
    assert len(prepared["observers"]) == counts["observers"] > 0
    assert len(converted["qdq"]) == counts["qdq"] > 0
    assert sorted(p.name for p in out_dir.iterdir()) == sorted(
        f"{s}.json" for s in ("exported", "annotated", "prepared", "calibrated", "converted")
    )
    assert html.stat().st_size > 0 and "== converted:" in out


def test_a_failing_script_shows_its_own_error_and_keeps_what_was_recorded(tmp_path):
    script = tmp_path / "broken.py"
    script.write_text(SCRIPT)
    out_dir = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "pt2e_lens", "run", str(script), "1", "fail", "--out", str(out_dir)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 1
    assert "Traceback" in done.stderr and "RuntimeError: the script's own failure" in done.stderr
    assert f'File "{script}"' in done.stderr and "runpy" not in done.stderr  # the script's frames, not ours
    assert json.loads((out_dir / "prepared.json").read_text())["stage"] == "prepared"
    assert not (out_dir / "converted.json").exists()


def test_a_script_that_never_quantizes_says_so_in_one_line(tmp_path, capsys):
    script = tmp_path / "plain.py"
    script.write_text("print('hello')\n")
    assert main(["run", str(script), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert [line for line in err if "never called prepare_pt2e" in line] == [err[-1]]


def test_missing_script_is_one_line(tmp_path, capsys):
    assert main(["run", str(tmp_path / "nope.py")]) == 2
    err = capsys.readouterr().err.strip()
    assert "no such script" in err and "\n" not in err


def test_own_options_before_the_script_or_last_and_dash_dash_keeps_them_the_scripts():
    import argparse

    from pt2e_lens.cli_run import split_trailing

    def split(args, **before):
        ns = argparse.Namespace(args=args, html=None, out="pt2e-lens-out", force=False, lang=None, **before)
        split_trailing(ns)
        return ns.args, ns.html, ns.out, ns.force

    assert split(["2", "--html", "r.html", "--out", "d", "--force"]) == (["2"], "r.html", "d", True)
    assert split(["--out", "mine", "x", "--"]) == (["--out", "mine", "x"], None, "pt2e-lens-out", False)
    assert split(["--html", "a", "b"]) == (["--html", "a", "b"], None, "pt2e-lens-out", False)
