"""Private copies survive a tensor constant with autograd history. ExecuTorch's Arm passes keep one on Hugging
Face DistilBERT (`_tensor_constant0`, a weight's `nan_to_num` folded with grad on); deepcopy refuses such a tensor,
so pl.capture failed where torchao's own flow (which never copies) runs. Here a quantizer does the same in its
`transform_for_annotation`: pl.capture equals torchao's flow, and the copy holds a leaf with the same values."""

import warnings

import pytest
import torch
from _fingerprint import fingerprint
from _graph_reads import observer_types, qdq_nodes, torchao_flow

import pt2e_lens as pl
from pt2e_lens._copy import private_copy
from pt2e_lens._torchao import prepare_pt2e

X = (torch.randn(2, 8),)


def _quantizer():
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    class FoldsWithGrad(XNNPACKQuantizer):
        """Adds the linear's bias, folded with autograd on, after the linear (as a get_attr constant)."""

        def transform_for_annotation(self, model: torch.fx.GraphModule) -> torch.fx.GraphModule:
            linear = next(n for n in model.graph.nodes if n.target == torch.ops.aten.linear.default)
            model._folded = torch.nan_to_num(model.get_parameter("fc.bias") * 1.0)
            with model.graph.inserting_after(linear):
                const = model.graph.get_attr("_folded")
            with model.graph.inserting_after(const):
                add = model.graph.call_function(torch.ops.aten.add.Tensor, (linear, const))
            linear.replace_all_uses_with(add, delete_user_cb=lambda user: user is not add)
            model.recompile()
            return super().transform_for_annotation(model)

    return FoldsWithGrad().set_global(get_symmetric_quantization_config())


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        return torch.relu(self.fc(x))


def _batches(n: int) -> list[tuple]:
    g = torch.Generator().manual_seed(1)
    return [(torch.randn(2, 8, generator=g),) for _ in range(n)]


@pytest.fixture(scope="module")
def model() -> torch.nn.Module:
    torch.manual_seed(0)
    return Net().eval()


def test_the_quantizer_really_leaves_a_constant_with_autograd_history(model):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prepared = prepare_pt2e(torch.export.export(model, X).module(), _quantizer())
    assert not prepared._folded.is_leaf
    with pytest.raises(RuntimeError, match="deepcopy"):
        prepared._folded.__deepcopy__({})


def test_capture_equals_torchao(model):
    batches = _batches(3)
    observers, converted = torchao_flow(torch.export.export(model, X).module(), _quantizer(), batches)
    before = fingerprint(model)
    run = pl.capture(model, X, _quantizer(), calibration=batches)
    assert observer_types(run["prepared"].graph_module) == observers
    assert qdq_nodes(run["converted"].graph_module, "quantize_per") == qdq_nodes(converted, "quantize_per")
    assert torch.equal(run["converted"].graph_module(*X), converted(*X))
    assert fingerprint(model) == before


def test_the_copy_holds_a_leaf_with_the_same_values_and_leaves_the_original(model):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prepared = prepare_pt2e(torch.export.export(model, X).module(), _quantizer())
    original = prepared._folded
    grad_fn = original.grad_fn
    copy = private_copy(prepared)
    assert copy._folded is not original and copy._folded.is_leaf
    assert copy._folded.requires_grad and torch.equal(copy._folded, original)
    assert copy._folded.untyped_storage().data_ptr() != original.untyped_storage().data_ptr()
    assert prepared._folded is original and original.grad_fn is grad_fn
    assert torch.equal(copy(*X), prepared(*X))
