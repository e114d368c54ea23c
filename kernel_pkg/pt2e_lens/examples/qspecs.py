"""The course's quantization specs: int8 per-tensor activations, int8 per-channel symmetric weights."""

from __future__ import annotations

import torch
from torchao.quantization.pt2e.observer import HistogramObserver, PerChannelMinMaxObserver

from .._torchao import QuantizationSpec

_EPS = 2**-12


def act_spec() -> QuantizationSpec:
    return QuantizationSpec(
        dtype=torch.int8,
        quant_min=-128,
        quant_max=127,
        qscheme=torch.per_tensor_affine,
        is_dynamic=False,
        observer_or_fake_quant_ctr=HistogramObserver.with_args(eps=_EPS),
    )


def weight_spec() -> QuantizationSpec:
    return QuantizationSpec(
        dtype=torch.int8,
        quant_min=-127,
        quant_max=127,
        qscheme=torch.per_channel_symmetric,
        ch_axis=0,
        is_dynamic=False,
        observer_or_fake_quant_ctr=PerChannelMinMaxObserver.with_args(eps=_EPS),
    )
