"""Real models from the zoos users quantize, random weights, nothing downloaded (bench/zoo.py).

torchvision's architectures with `weights=None`, timm's with `pretrained=False`, Hugging Face transformers from
small configs (2 layers, hidden 128). `build(name)` returns (model in eval mode, example inputs, calibration
batches) or raises `Missing` when the zoo's package does not import here (torchvision only imports with the
torch it was built for: torch 2.14.1 + torchvision 0.29.1 on this project's machines).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable

import torch
from torch import nn

from .conformance_quantizers import Missing

CALIBRATION_BATCHES = 4


@dataclasses.dataclass(frozen=True)
class ZooModel:
    zoo: str
    make: Callable[[], nn.Module]
    inputs: Callable[[int], tuple]  # seed -> one input tuple (static shapes: every batch alike)


def _need(module: str):
    try:
        return importlib.import_module(module)
    except Exception as e:  # torchvision built for another torch raises RuntimeError or OSError, not only ImportError
        raise Missing(f"{module} does not import here ({type(e).__name__}: {str(e).splitlines()[0][:80]})") from None


def _image(size: int) -> Callable[[int], tuple]:
    def make(seed: int) -> tuple:
        return (torch.randn(1, 3, size, size, generator=torch.Generator().manual_seed(seed)),)

    return make


def _tokens(seed: int) -> tuple:
    return (torch.randint(0, 1000, (1, 32), generator=torch.Generator().manual_seed(seed)),)


class FirstOutput(nn.Module):
    """A transformers model returning its first output (logits or last hidden state) as a plain tensor."""

    def __init__(self, inner: nn.Module) -> None:
        super().__init__()
        self.inner = inner

    def forward(self, x):
        return self.inner(x)[0]


def _torchvision(name: str) -> ZooModel:
    return ZooModel("torchvision", lambda: _need("torchvision.models").get_model(name, weights=None), _image(224))


def _timm(name: str) -> ZooModel:
    return ZooModel("timm", lambda: _need("timm").create_model(name, pretrained=False), _image(224))


SMALL = {"hidden_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 256}


def _bert() -> nn.Module:
    t = _need("transformers")
    return FirstOutput(t.BertModel(t.BertConfig(vocab_size=1000, max_position_embeddings=64, **SMALL)))


def _gpt2() -> nn.Module:
    t = _need("transformers")
    config = t.GPT2Config(vocab_size=1000, n_positions=64, n_embd=128, n_layer=2, n_head=4, use_cache=False)
    return FirstOutput(t.GPT2LMHeadModel(config))


def _llama() -> nn.Module:
    t = _need("transformers")
    config = t.LlamaConfig(vocab_size=1000, max_position_embeddings=64, num_key_value_heads=2, use_cache=False, **SMALL)
    return FirstOutput(t.LlamaForCausalLM(config))


def _vit() -> nn.Module:
    t = _need("transformers")
    return FirstOutput(t.ViTModel(t.ViTConfig(image_size=64, patch_size=16, **SMALL)))


ZOO: dict[str, ZooModel] = {
    "resnet18": _torchvision("resnet18"),
    "resnet50": _torchvision("resnet50"),
    "mobilenet_v2": _torchvision("mobilenet_v2"),
    "mobilenet_v3_large": _torchvision("mobilenet_v3_large"),
    "efficientnet_b0": _torchvision("efficientnet_b0"),
    "convnext_tiny": _torchvision("convnext_tiny"),
    "swin_t": _torchvision("swin_t"),
    "vit_b_16": _torchvision("vit_b_16"),
    "timm resnet18": _timm("resnet18"),
    "timm vit_tiny_patch16_224": _timm("vit_tiny_patch16_224"),
    "HF BERT": ZooModel("transformers", _bert, _tokens),
    "HF GPT-2": ZooModel("transformers", _gpt2, _tokens),
    "HF Llama": ZooModel("transformers", _llama, _tokens),
    "HF ViT": ZooModel("transformers", _vit, _image(64)),
}


def build(name: str) -> tuple[nn.Module, tuple, list[tuple]]:
    entry = ZOO[name]
    torch.manual_seed(0)
    model = entry.make().eval()
    return model, entry.inputs(0), [entry.inputs(seed) for seed in range(1, 1 + CALIBRATION_BATCHES)]
