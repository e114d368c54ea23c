"""A stage's kept copy (`private_copy(..., kept=True)`) generates its Python code when first run or read, not when
copied: torch.fx compiles a GraphModule's code on every deepcopy, a third of the CPU of copying a prepared ViT,
for a stage that may never run. The copy must still be the same module: same outputs, same code, annotations on
its own nodes; the copied module keeps its class, also when the copy fails."""

import pytest
import torch
from _graph_reads import observer_types

from pt2e_lens._copy import private_copy
from pt2e_lens._torchao import Q_ANNOTATION_KEY, prepare_pt2e
from pt2e_lens.errors import Pt2eLensError

X = (torch.randn(2, 3, 8, 8),)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3)
        self.fc = torch.nn.Linear(4 * 6 * 6, 5)

    def forward(self, x):
        y = torch.relu(self.conv(x))
        return self.fc(y.flatten(1)) + 1


def _quantizer():
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config())


@pytest.fixture()
def prepared() -> torch.fx.GraphModule:
    torch.manual_seed(0)
    gm = torch.export.export(Net().eval(), X).module()
    return prepare_pt2e(gm, _quantizer())


def test_a_kept_copy_runs_and_reads_as_the_module_it_copies(prepared):
    cls = type(prepared)
    kept = private_copy(prepared, kept=True)
    assert type(prepared) is cls  # the class swapped for the copy is back
    assert "_code" not in vars(kept)  # nothing generated yet
    assert torch.equal(kept(*X), prepared(*X))
    assert kept.code == prepared.code
    assert observer_types(kept) == observer_types(prepared)
    own = {id(m) for m in prepared.modules()}
    assert not any(id(m) in own for m in kept.modules())
    again = private_copy(kept)  # a copy of the kept copy is a module like any other
    assert torch.equal(again(*X), prepared(*X))


def test_a_kept_copy_of_an_annotated_graph_refers_to_its_own_nodes():
    torch.manual_seed(0)
    gm = _quantizer().annotate(torch.export.export(Net().eval(), X).module())  # annotations, before prepare
    kept = private_copy(gm, kept=True)
    mine = {id(n) for n in kept.graph.nodes}
    anns = [n.meta[Q_ANNOTATION_KEY] for n in kept.graph.nodes if Q_ANNOTATION_KEY in n.meta]
    assert anns and all(id(k) in mine for a in anns for k in a.input_qspec_map)
    assert kept.code == gm.code


class _Uncopyable(torch.nn.Module):
    def forward(self, x):
        return x

    def __deepcopy__(self, memo):
        raise RuntimeError("no copies of me")


def test_the_module_keeps_its_class_when_the_copy_fails(prepared):
    prepared.add_submodule("odd", _Uncopyable())
    cls, forward, out = type(prepared), type(prepared).forward, prepared(*X)
    with pytest.raises(Pt2eLensError, match="odd"):
        private_copy(prepared, kept=True)
    assert type(prepared) is cls and cls.forward is forward
    assert torch.equal(prepared(*X), out)


def test_a_subclass_of_graph_module_is_copied_as_it_is(prepared):
    class Mine(torch.fx.GraphModule):
        pass

    mine = Mine(prepared, prepared.graph)
    kept = private_copy(mine, kept=True)
    assert isinstance(kept, Mine) and type(mine).__mro__[1] is Mine
    assert "_code" in vars(kept)  # its own class decides: compiled as deepcopy does
    assert torch.equal(kept(*X), prepared(*X))
