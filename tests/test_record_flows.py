"""`pl.record` around QAT and around ExecuTorch's documented XNNPACK flow (quantizers nobody here wrote)."""

import torch
from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
    XNNPACKQuantizer,
    get_symmetric_quantization_config,
)
from executorch.devtools.backend_debug import get_delegation_info
from executorch.exir import to_edge_transform_and_lower
from torchao.quantization.pt2e import move_exported_model_to_eval
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e, prepare_qat_pt2e

import pt2e_lens as pl
from pt2e_lens._torchao import is_fake_quant_module, is_observer_module


def _mlp():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))


def _ptq_xnnpack(x: tuple) -> torch.fx.GraphModule:
    """The documented PTQ flow up to convert_pt2e (XNNPACKQuantizer, `x` as the one calibration batch): what the
    user runs inside pl.record before lowering."""
    ep = torch.export.export(_mlp().eval(), x)
    prepared = prepare_pt2e(ep.module(), XNNPACKQuantizer().set_global(get_symmetric_quantization_config()))
    prepared(*x)
    return convert_pt2e(prepared)


def test_qat_training_loop_is_recorded_as_trained():
    x = (torch.randn(4, 8),)
    with pl.record() as rec:
        ep = torch.export.export(_mlp().train(), x)
        prepared = prepare_qat_pt2e(
            ep.module(), XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_qat=True))
        )
        n_fake = sum(is_fake_quant_module(m) for m in prepared.modules())
        opt = torch.optim.SGD(prepared.parameters(), lr=0.1)
        for _ in range(3):
            opt.zero_grad()
            prepared(torch.randn(4, 8)).pow(2).mean().backward()
            opt.step()
        move_exported_model_to_eval(prepared)
        converted = convert_pt2e(prepared)
    run = rec.run
    assert run.stages == ["exported", "annotated", "prepared", "trained", "converted"]
    assert len(run["prepared"].snapshot.observers) == n_fake > 0
    qdq = sum("quantize_per" in str(n.target) for n in converted.graph.nodes)
    assert len(run["converted"].snapshot.qdq) == qdq > 0
    # the trained stage holds the weights the user's loop trained (read before the user's convert)
    trained = dict(run["trained"].graph_module.named_parameters())
    assert trained and not torch.equal(
        next(iter(trained.values())), next(iter(dict(_mlp().named_parameters()).values()))
    )


def test_executorch_xnnpack_flow_gives_a_lowered_stage():
    x = (torch.randn(2, 8),)
    with pl.record() as rec:
        converted = _ptq_xnnpack(x)
        edge = to_edge_transform_and_lower(torch.export.export(converted, x), partitioner=[XnnpackPartitioner()])
    run = rec.run
    assert run.stages[-2:] == ["converted", "lowered"] and run["lowered"].info["backend"] == "xnnpack"
    # ExecuTorch's own count of delegated nodes for the user's lowering, and pt2e-lens's for its own copy
    theirs = get_delegation_info(edge.exported_program().graph_module)
    ours = run["lowered"].backend.records
    assert ours["num_delegated_subgraphs"] == theirs.num_delegated_subgraphs > 0
    assert ours["delegation_info"] == {
        op: {"delegated": b.delegated, "non_delegated": b.non_delegated}
        for op, b in sorted(theirs.delegation_by_operator.items())
    }
    assert not any(is_observer_module(m) for m in converted.modules())


def test_torch_compile_of_the_converted_module_gives_an_inductor_lowered_stage():
    x = (torch.randn(2, 8),)
    with pl.record() as rec:
        converted = _ptq_xnnpack(x)
        compiled = torch.compile(converted)
    assert compiled._orig_mod is converted  # torch.compile's own wrapper of the user's module, as without pl.record
    run = rec.run
    assert run.stages[-1] == "lowered" and run["lowered"].info["backend"] == "inductor"
    converted_calls = {n.name for n in converted.graph.nodes if n.op == "call_function"}
    assert converted_calls and set(run["lowered"].snapshot.data["backend"]["nodes"]) <= set(
        run["converted"].snapshot.node
    )
