"""Cancel mid-step (the widget's cancel, from another thread) on every step but calibration (between batches:
tests/test_workbench_bad_input.py): the step is interrupted as Ctrl-C would interrupt it, the run keeps exactly the
stages it had, the step is not recorded, the user's model is untouched, and advance() then takes the step as torchao
and ExecuTorch take it uninterrupted."""

import threading
import warnings

import pytest
import torch
from _fingerprint import fingerprint
from _xnnpack_models import ResBlock

import pt2e_lens as pl
from pt2e_lens._torchao import convert_pt2e, prepare_pt2e
from pt2e_lens.prepare.presets import PRESETS

STEPS = ["export", "prepare", "convert", "lower"]


def _batches(n=2, seed=5):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(1, 8, 8, 8, generator=g),) for _ in range(n)]


class _MidStep:
    """Armed: the next GraphModule.recompile (every step calls it part way) tells the test it is inside the step
    and waits there until the test has pressed cancel, so cancel lands mid-step, never before or after it."""

    def __init__(self, monkeypatch):
        self.armed = False
        self.inside, self.pressed = threading.Event(), threading.Event()
        original = torch.fx.GraphModule.recompile

        def recompile(gm, *args, **kwargs):
            if self.armed and threading.current_thread() is not threading.main_thread():
                self.armed = False
                self.inside.set()
                self.pressed.wait()  # a C wait: the KeyboardInterrupt lands at the first bytecode after it
            return original(gm, *args, **kwargs)

        monkeypatch.setattr(torch.fx.GraphModule, "recompile", recompile)


def _cancel_mid(wb, hook):
    """advance() in a worker thread, as the widget runs it; cancel pressed from this thread once it is inside."""
    raised = []

    def step():
        try:
            wb.advance()
        except BaseException as e:  # the worker's outcome, for the test to read
            raised.append(e)

    hook.armed = True
    worker = threading.Thread(target=step)
    worker.start()
    assert hook.inside.wait(600), "the step never reached recompile"
    wb.cancel()
    hook.pressed.set()
    worker.join()
    return raised


def _qdq(gm):
    return sorted(str(n.target) for n in gm.graph.nodes if n.op == "call_function" and "quantize" in str(n.target))


def _torchao_converted(model, batches):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ep = torch.export.export(model, batches[0])
        prepared = prepare_pt2e(ep.module(check_guards=False), PRESETS["xnnpack"].build())
        with torch.no_grad():
            for b in batches:
                prepared(*b)
        return convert_pt2e(prepared)


@pytest.fixture(scope="module")
def uninterrupted():
    """One model (never changed: each test checks its fingerprint), its batches, and what an uninterrupted
    workbench, torchao and the backend make of it: built once for the module, not once per step cancelled."""
    model, batches = ResBlock().eval(), _batches()
    whole = pl.workbench(model, batches[0], calibration=batches).run_all()
    torchao_qdq = _qdq(_torchao_converted(model, batches))
    return model, batches, whole.run["converted"].graph_module, torchao_qdq, pl.backend(whole.run).counts


@pytest.mark.parametrize("step", STEPS)
def test_cancel_mid_step_keeps_the_run_as_it_was_and_the_step_then_goes_as_torchao_goes(
    step, monkeypatch, uninterrupted
):
    model, batches, whole_converted, torchao_qdq, whole_counts = uninterrupted
    before_model = fingerprint(model)
    wb = pl.workbench(model, batches[0], calibration=batches)
    while wb.next_step != step:
        wb.advance()
    hook = _MidStep(monkeypatch)
    run, stages, done = wb.run, list(wb.run.stages) if wb.run is not None else [], list(wb.done)

    raised = _cancel_mid(wb, hook)

    assert len(raised) == 1 and isinstance(raised[0], KeyboardInterrupt), raised
    assert wb.run is run and (run is None or run.stages == stages) and wb.done == done
    assert wb.running is None and wb.next_step == step
    assert wb.error and "\n" not in wb.error and pl.i18n.t(f"workbench.step.{step}") in wb.error
    assert fingerprint(model) == before_model

    wb.run_all()  # the interrupted step again, then the rest: as an uninterrupted run
    assert wb.done == ["export", "prepare", "calibrate", "convert", "lower"] and wb.error is None
    ours = wb.run["converted"].graph_module
    with torch.no_grad():
        for b in batches:
            torch.testing.assert_close(ours(*b), whole_converted(*b), rtol=0, atol=0)
    # and as torchao converts it: the same q/dq ops, op for op
    assert _qdq(ours) == torchao_qdq
    assert pl.backend(wb.run).counts == whole_counts
    assert fingerprint(model) == before_model


def test_cancel_with_no_step_under_way_changes_nothing():
    model, batches = ResBlock().eval(), _batches()
    wb = pl.workbench(model, batches[0], calibration=batches).advance()
    wb.cancel()
    wb.advance()  # the cancel pressed between steps is not carried into the next one
    assert wb.done == ["export", "prepare"] and wb.error is None


def test_the_widgets_cancel_stops_a_step_in_its_worker_thread(monkeypatch):
    pytest.importorskip("anywidget")
    import json

    model, batches = ResBlock().eval(), _batches()
    wb = pl.workbench(model, batches[0], calibration=batches).advance()
    widget, hook = wb.widget, _MidStep(monkeypatch)
    hook.armed = True
    widget._on_msg(widget, {"action": "advance"}, None)  # the prepare button: a worker thread
    assert hook.inside.wait(600), "prepare never reached recompile"
    widget._on_msg(widget, {"action": "cancel"}, None)
    heard = json.loads(widget.state_json)  # the press is heard before the step stops: the controls say so
    assert heard["cancelling"] is True and heard["running"] == "prepare"
    assert heard["status"] == pl.i18n.t("workbench.cancelling", step=pl.i18n.t("workbench.step.prepare"))
    hook.pressed.set()
    widget._worker.join()
    state = json.loads(widget.state_json)
    assert wb.done == ["export"] and wb.run.stages == ["exported"] and state["running"] is None
    assert state["error"] == wb.error and pl.i18n.t("workbench.step.prepare") in state["error"]
    assert [s["done"] for s in state["steps"]] == [True, False, False, False, False]
    assert state["cancelling"] is False
