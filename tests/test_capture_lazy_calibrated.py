"""The calibrated stage is made when first asked for (from the prepared copy plus what calibration changed):
it must hold what torchao's own prepared-and-calibrated module holds, whenever and in whatever order it is made."""

import warnings

import pytest
import torch
from torch import nn
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

import pt2e_lens as pl


class Counting(nn.Module):
    """A buffer the forward updates in place: calibration changes more than the observers."""

    def __init__(self) -> None:
        super().__init__()
        self.lin1, self.lin2 = nn.Linear(6, 6), nn.Linear(6, 3)
        self.register_buffer("seen", torch.zeros(()))

    def forward(self, x):
        self.seen.add_(1)
        return self.lin2(torch.relu(self.lin1(x)))


def _model() -> Counting:
    torch.manual_seed(0)
    return Counting().eval()


def _quantizer() -> XNNPACKQuantizer:
    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config())


INPUTS = (torch.randn(2, 6, generator=torch.Generator().manual_seed(1)),)
BATCHES = [(torch.randn(2, 6, generator=torch.Generator().manual_seed(s)) * s,) for s in range(2, 8)]


def _state(gm: torch.fx.GraphModule) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in gm.state_dict().items()}


@pytest.fixture(scope="module")
def torchao_states() -> list[dict[str, torch.Tensor]]:
    """torchao's prepared module (no pt2e-lens) after 0, 2, 4 and 6 batches: what each calibrated stage must hold."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = prepare_pt2e(torch.export.export(_model(), INPUTS).module(), _quantizer())
        states = [_state(m)]
        with torch.no_grad():
            for i in range(0, len(BATCHES), 2):
                for b in BATCHES[i : i + 2]:
                    m(*b)
                states.append(_state(m))
    return states


def _assert_same(gm: torch.fx.GraphModule, want: dict[str, torch.Tensor]) -> None:
    got = _state(gm)
    assert got.keys() == want.keys()
    differ = [k for k in want if not torch.equal(got[k], want[k])]
    assert not differ, f"differ from torchao's calibrated module: {differ}"


def test_capture_calibrated_stage_holds_torchaos_observer_statistics(torchao_states):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.capture(_model(), INPUTS, _quantizer(), calibration=BATCHES[:2])
    assert torchao_states[1]["seen"] == 2  # the buffer really moved: the case a copy of observers alone would miss
    _assert_same(run["calibrated"].graph_module, torchao_states[1])
    _assert_same(run["prepared"].graph_module, torchao_states[0])


def test_stages_made_later_see_nothing_that_changed_since(torchao_states):
    run = pl.Run(_model(), INPUTS).prepare(_quantizer()).calibrate(BATCHES[:2])
    first = run["calibrated"]
    run.calibrate(BATCHES[2:4])
    # the prepared graph handed out, run and edited: the stages made from it must see none of that
    prepared = run["prepared"].graph_module
    with torch.no_grad():
        prepared(BATCHES[5][0] * 100)
        for p in prepared.parameters():
            p.add_(1)
    assert not torch.equal(_state(prepared)["seen"], torchao_states[0]["seen"])
    _assert_same(first.graph_module, torchao_states[1])
    _assert_same(run["calibrated"].graph_module, torchao_states[2])
    # calibrating on after that: made from the working module, not from the changed prepared graph
    run.calibrate(BATCHES[4:6])
    _assert_same(run["calibrated"].graph_module, torchao_states[3])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run.convert()  # consumes the working module: the stage keeps what it held
    _assert_same(run["calibrated"].graph_module, torchao_states[3])
