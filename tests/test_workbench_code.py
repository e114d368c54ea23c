"""`wb.code` is plain Python that makes the workbench's run again: executed here, its run has the same counts
(observers in the prepared graph, q/dq and nodes in the converted one) and the same output SQNR."""

import pytest
import torch
from _xnnpack_models import ResBlock

import pt2e_lens as pl
from pt2e_lens.examples import xnnpack_quantizer
from pt2e_lens.stepwise.measure import counts, output_sqnr


def _batches(n=3, seed=1):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(2, 8, 8, 8, generator=g),) for _ in range(n)]


def _executed(wb, **names):
    namespace = {"model": wb.model, "example_inputs": wb.example_inputs, **names}
    exec(compile(wb.code, "<wb.code>", "exec"), namespace)  # noqa: S102 - the test is that it runs as pasted
    return namespace["run"]


@pytest.mark.parametrize("preset", ["xnnpack", "xnnpack_per_tensor", "xnnpack_dynamic", "x86"])
def test_the_code_of_a_converted_run_with_picks_makes_the_same_run(preset):
    model, batches = ResBlock().eval(), _batches()
    wb = pl.workbench(model, batches[0], quantizer=preset, calibration=batches)
    for _ in range(4):
        wb.advance()
    wb.keep_fp32(model.conv1)
    wb.rerun()
    assert "pl.KeepFp32(" in wb.code and "pl.capture(" in wb.code
    run = _executed(wb, calibration=batches)
    assert run.stages == wb.run.stages
    assert counts(run) == counts(wb.run)
    assert output_sqnr(run, batches) == pytest.approx(wb.sqnr, abs=1e-9)


def test_the_code_of_a_run_stopped_after_prepare_and_of_a_run_calibrated_on_example_inputs():
    model, batches = ResBlock().eval(), _batches()
    wb = pl.workbench(model, batches[0], quantizer=xnnpack_quantizer())
    wb.advance().advance()
    assert "your own" in wb.code and "pl.capture" not in wb.code
    run = _executed(wb, quantizer=xnnpack_quantizer())
    assert run.stages == ["exported", "annotated", "prepared"] and counts(run) == counts(wb.run)
    wb.advance().advance()  # calibrated on [example_inputs], converted
    run = _executed(wb, quantizer=xnnpack_quantizer())
    assert counts(run) == counts(wb.run)
    assert output_sqnr(run, [batches[0]]) == pytest.approx(wb.sqnr, abs=1e-9)
