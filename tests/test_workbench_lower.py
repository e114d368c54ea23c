"""The workbench's last step lowers with the preset's backend: the outcomes are ExecuTorch's (pl.backend of the
lowered stage), `wb.code` lowers the same, and a rerun compares the outcomes."""

import torch
from _xnnpack_models import ResBlock

import pt2e_lens as pl


def _batches(n=2, seed=4):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(1, 8, 8, 8, generator=g),) for _ in range(n)]


def test_lower_with_xnnpack_and_the_code_lowers_the_same():
    model, batches = ResBlock().eval(), _batches()
    wb = pl.workbench(model, batches[0], calibration=batches).run_all()
    assert wb.done == ["export", "prepare", "calibrate", "convert", "lower"] and "lowered" in wb.run
    assert "run.lower('xnnpack')" in wb.code
    namespace = {"model": model, "example_inputs": batches[0], "calibration": batches}
    exec(compile(wb.code, "<wb.code>", "exec"), namespace)  # noqa: S102
    assert pl.backend(namespace["run"]).counts == pl.backend(wb.run).counts
    assert pl.backend(wb.run).ops == pl.backend(namespace["run"]).ops
    wb.keep_fp32(model.fc)
    result = wb.rerun()
    assert "lowered" in wb.run
    outcome_rows = [r for r in result.rows if r[0].startswith("backend: ")]
    assert outcome_rows and {r[0][len("backend: ") :] for r in outcome_rows} == set(pl.backend(wb.run).counts) | set(
        pl.backend(wb.previous).counts
    )
