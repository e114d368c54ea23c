"""pl.accuracy keys rows by the converted graph's node ids in every export mode. torchao's numeric debugger
keys by the `from_node` root, which under strict export is dynamo's name (`x_6`, `out_49`): rows keyed by it
match no node, and the heat overlay would colour nothing."""

import warnings

import pytest
import torch
from _vision_blocks import TinyResNet, seeded

import pt2e_lens as pl
from pt2e_lens._targets import short_name


def _x86():
    from torchao.quantization.pt2e.quantizer import x86_inductor_quantizer as xiq

    return xiq.X86InductorQuantizer().set_global(xiq.get_default_x86_inductor_quantization_config())


def _xnnpack():
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))


# X86InductorQuantizer needs strict export on a resnet (docs/errors.md); XNNPACK's takes the non-strict graph
@pytest.mark.parametrize(("strict", "quantizer"), [(True, _x86), (False, _xnnpack)])
def test_every_row_names_a_converted_node_and_the_overlay_covers_the_ops(strict, quantizer):
    gen = torch.Generator().manual_seed(0)
    batches = [(torch.randn(2, 3, 16, 16, generator=gen),) for _ in range(2)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.capture(seeded(TinyResNet()).eval(), batches[0], quantizer(), calibration=batches, strict=strict)
        acc = pl.accuracy(run, batches)
    converted = run["converted"]
    ids = {n["id"] for n in converted.snapshot.nodes}
    compared = [r for r in acc.rows if r[2] is not None and " (q/dq " not in r[0]]
    assert len(compared) >= 12
    assert {r[0] for r in compared} <= ids
    float_ids = {n["id"] for n in run["exported"].snapshot.nodes}
    assert {r[1] for r in compared} <= float_ids  # and what each was compared with is a float graph node
    ops = {
        n.name
        for n in converted.graph_module.graph.nodes
        if n.op == "call_function" and converted.snapshot.node[n.name]["role"] == "compute"
    }
    targets = {short_name(n.target) for n in converted.graph_module.graph.nodes if n.name in ops}
    assert {"conv2d", "add", "adaptive_avg_pool2d", "flatten", "linear"} <= targets
    values = acc.overlay()["values"]
    assert ops <= set(values) <= ids  # every op of the converted graph is coloured
