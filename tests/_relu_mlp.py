"""The small MLP the shared-weights and lent-weights tests quantize (two Linears: two weights and two biases for
a quantizer to write into), seeded, with its example inputs and calibration batches."""

import torch
from torch import nn


class Mlp(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin1, self.lin2 = nn.Linear(16, 16), nn.Linear(16, 4)

    def forward(self, x):
        return self.lin2(torch.relu(self.lin1(x)))


def seeded_mlp() -> Mlp:
    torch.manual_seed(0)
    return Mlp().eval()


INPUTS = (torch.randn(2, 16, generator=torch.Generator().manual_seed(1)),)
BATCHES = [(torch.randn(2, 16, generator=torch.Generator().manual_seed(s)),) for s in range(2, 5)]


def state_copy(module: nn.Module) -> dict[str, torch.Tensor]:
    """Every parameter and buffer of `module`, cloned: what it holds now, to compare with later."""
    return {k: v.detach().clone() for k, v in module.state_dict().items()}
