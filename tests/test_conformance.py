"""Conformance, the light half: torchao's own quantizers × the five model families of bench/conformance_models.py.
Wherever torchao's own flow (export, prepare_pt2e, calibrate, convert_pt2e) runs, pl.capture runs too, and its
snapshots hold exactly torchao's observers (call sites and instances of the real prepared graph), every op of
the real converted graph (q/dq included) and torchao's annotation map (which input edges / outputs carry a spec).

The vendor quantizers of ExecuTorch (Arm TOSA / Ethos-U and Cortex-M, which trip on torch.export's `_guards_fn`;
Cadence, whose stepwise annotations pl.check calls "overwritten"; XNNPACK, Vulkan, Samsung, OpenVINO) and the
why/findings/check/blame metrics are in the bench table only: `python bench/conformance.py` → docs/conformance.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.conformance_cases import capture, lens_annotations, lens_counts, run_row, torchao_flow  # noqa: E402
from bench.conformance_models import MODELS  # noqa: E402
from bench.conformance_quantizers import CASES  # noqa: E402

LIGHT = [c for c in CASES if c.light]


@pytest.mark.parametrize("model_name", list(MODELS))
@pytest.mark.parametrize("case", LIGHT, ids=[c.name for c in LIGHT])
def test_capture_equals_torchao(case, model_name):
    row = run_row(case, model_name, deep=False)
    if row.torchao_ok is None:
        pytest.skip(row.reason)
    if not row.torchao_ok:
        pytest.skip(row.reason)  # torchao itself fails: nothing for pt2e-lens to equal
    assert row.capture_ok, row.reason
    assert row.counts_equal, row.reason
    assert row.annotations_equal, row.reason


def test_the_comparison_can_fail():
    """The harness tells two quantizers apart: per-channel vs per-tensor XNNPACK differ in ops and specs."""
    per_channel = next(c for c in LIGHT if c.name == "torchao XNNPACK static per-channel")
    per_tensor = next(c for c in LIGHT if c.name == "torchao XNNPACK static per-tensor")
    real = torchao_flow(per_channel, "mlp_layernorm_gelu")
    run = capture(per_tensor, "mlp_layernorm_gelu")
    _, _, ops = lens_counts(run)
    assert ops != real.ops
    assert any("dequantize_per_channel" in op for op in real.ops)
    assert real.annotations and set(lens_annotations(run)) == set(real.annotations)  # same nodes, other specs
    module_type = next(c for c in LIGHT if c.name == "torchao XNNPACK set_module_type(Linear)")
    only_linear = lens_annotations(capture(module_type, "cat_mean"))
    everything = torchao_flow(per_channel, "cat_mean").annotations
    assert only_linear and set(only_linear) < set(everything)
