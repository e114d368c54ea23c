"""Progress of long calls: what a terminal, a log and a notebook show, counted against the real work done."""

from __future__ import annotations

import io

import pytest
from kernel_client import Kernel

import pt2e_lens as pl
from pt2e_lens import _progress as progress
from pt2e_lens.examples import ConvQuantizer, calibration_batches, example_inputs, get_model


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture()
def shown(monkeypatch):
    """Progress from the first step (as PT2E_LENS_PROGRESS=1), on a terminal or a log the test reads."""

    def on(stream: io.StringIO) -> io.StringIO:
        monkeypatch.setenv("PT2E_LENS_PROGRESS", "1")
        monkeypatch.setattr("sys.stderr", stream)
        return stream

    return on


def _capture(batches):
    return pl.capture(get_model("tiny").eval(), example_inputs(4), ConvQuantizer(), calibration=batches)


def test_a_log_gets_lines_and_one_summary_with_the_real_counts(shown):
    log = shown(io.StringIO())
    run = _capture(calibration_batches(5, 4))
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue()  # no bar drawing where there is no terminal
    assert run["calibrated"].info["batches"] == 5
    # the first line names the call; the last is the one summary: every step of pl.capture done
    assert lines[0].startswith("pl.capture 0/4 steps")
    assert lines[-1].startswith("pl.capture: 4 steps in ")
    assert sum(line.startswith("pl.capture:") for line in lines) == 1


def test_a_terminal_bar_redraws_in_place_and_ends_in_one_line(shown, monkeypatch):
    tty = shown(_Tty())
    monkeypatch.setattr(progress, "EVERY", 0.0)  # redraw on every step: each count shows
    _capture(calibration_batches(3, 4))
    text = tty.getvalue()
    frames = text.split("\r")
    # nested: while calibrating, the bar shows pl.capture's label, then calibrate's own count
    for i in range(1, 4):
        assert any(f"pl.capture · calibrate {i}/3 batches" in f for f in frames), i
    assert text.endswith("\x1b[K\n") and text.count("\n") == 1  # the bar left one line behind
    assert frames[-1].startswith("pl.capture: 4 steps in ")


def test_an_estimate_follows_the_steps_done(monkeypatch):
    monkeypatch.setattr(progress, "_now", lambda: 0.0)
    t = progress.Task("calibrate", 8, "batches")  # started at 0 s
    t.done = 2
    assert t.left(10.0) == pytest.approx(30.0)  # 5 s a batch, 6 to go
    assert "about 30.0 s left" in t.count(10.0)


def test_a_short_call_shows_nothing_and_a_long_one_shows_after_the_delay(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(progress, "_now", lambda: now[0])
    monkeypatch.delenv("PT2E_LENS_PROGRESS", raising=False)
    log = io.StringIO()
    monkeypatch.setattr("sys.stderr", log)
    with progress.task("quick", 3) as t:
        for _ in range(3):
            now[0] += 0.1
            t.advance()
    assert log.getvalue() == ""
    with progress.task("slow", 3, "steps") as t:
        now[0] += progress.DELAY + 0.1
        t.advance()
        now[0] += 1.0
        t.advance(2)
    assert log.getvalue().splitlines() == ["slow 1/3 steps · about 1.2 s left", "slow: 3 steps in 1.6 s"]


def test_off_prints_nothing_and_a_failure_says_where_it_stopped(shown, monkeypatch):
    log = shown(io.StringIO())
    monkeypatch.setenv("PT2E_LENS_PROGRESS", "0")
    _capture(calibration_batches(2, 4))
    assert log.getvalue() == ""
    monkeypatch.setenv("PT2E_LENS_PROGRESS", "1")
    bad = [*calibration_batches(2, 4), ("not a tensor",)]
    with pytest.raises(pl.Pt2eLensError):
        _capture(bad)
    assert log.getvalue().splitlines()[-1].startswith("pl.capture: stopped at 2/4 steps after ")


def test_pl_progress_switches_and_refuses_other_values(shown):
    log = shown(io.StringIO())
    try:
        pl.progress(False)
        _capture(calibration_batches(2, 4))
        assert log.getvalue() == ""
        with pytest.raises(pl.Pt2eLensError, match="True .*False .*None"):
            pl.progress("yes")
    finally:
        pl.progress(None)


def test_sensitivity_counts_every_configuration_it_runs(shown, monkeypatch):
    run = _capture(calibration_batches(2, 4))
    log = shown(io.StringIO())
    monkeypatch.setattr(progress, "LINE_EVERY", 0.0)
    monkeypatch.setattr(progress, "EVERY", 0.0)
    table = pl.sensitivity(run, calibration_batches(2, 4))
    configs = 1 + 2 * len(table)  # every site quantized, then each site alone fp32, then each alone quantized
    lines = log.getvalue().splitlines()
    assert lines[-1].startswith(f"pl.sensitivity: {configs} configurations in ")
    assert f"pl.sensitivity {configs - 1}/{configs} configurations" in "\n".join(lines)


@pytest.mark.kernel  # a real ipykernel: the full tier only
def test_a_notebook_gets_one_bar_updated_in_place_and_left_as_one_line():
    k = Kernel()
    try:
        setup = "import pt2e_lens as pl\nfrom pt2e_lens.examples import *\npl.progress(True)\n"
        assert k.execute(setup)["ok"]
        msg_id = k.kc.execute(
            "run = pl.capture(get_model('tiny').eval(), example_inputs(4), ConvQuantizer(),"
            " calibration=calibration_batches(3, 4))"
        )
        shown, updates, streams = [], [], []
        while True:
            msg = k.kc.get_iopub_msg(timeout=120)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "display_data":
                shown.append(content)
            elif kind == "update_display_data":
                updates.append(content)
            elif kind == "stream":
                streams.append(content["text"])
            elif kind == "status" and content["execution_state"] == "idle":
                break
        assert len(shown) == 1 and updates  # one output, redrawn in place
        display_id = shown[0]["transient"]["display_id"]
        assert all(u["transient"]["display_id"] == display_id for u in updates)
        assert "<progress" in shown[0]["data"]["text/html"]
        last = updates[-1]["data"]
        assert last["text/plain"].startswith("pl.capture: 4 steps in ") and "<progress" not in last["text/html"]
        assert not any("pl.capture" in s for s in streams)  # nothing on stderr besides
    finally:
        k.stop()
