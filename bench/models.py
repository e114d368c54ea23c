"""Model builders for the benchmarks: deterministic weights, eval mode, sized by block/layer count.

Pure torch (no pt2e_lens import) so the Model Explorer worker can build the very same graphs in its
own venv. Node counts are of `torch.export.export(model, inputs).module()` on torch 2.13:
  convnet(n)      n × conv-bn-relu (8 channels)                 200 → ~3k nodes (the capture benchmark)
  resnet(n)       n × conv-bn-relu-conv-bn-add-relu (8 channels)   250 → ~5k, 1000 → ~20k
  transformer(n)  n × nn.TransformerEncoderLayer(d=32, 4 heads)    ~106 → ~5k, ~425 → ~20k
  decoder(n)      a GPT-like decoder-only LM, n blocks (d=16, 2 heads, 8 tokens, vocab 64): DECODER_100K
                  blocks give ~100k nodes once quantized with torchao's XNNPACKQuantizer and converted
"""

from __future__ import annotations

import torch
from torch import nn

CHANNELS = 8


def _init(model: nn.Module, seed: int = 0) -> nn.Module:
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=gen) * 0.3)
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.copy_(torch.randn(m.num_features, generator=gen) * 0.1)
                m.running_var.copy_(torch.rand(m.num_features, generator=gen) + 0.5)
    return model.eval()


def _conv(cin: int, cout: int) -> nn.Conv2d:
    return nn.Conv2d(cin, cout, 3, padding=1, bias=False)


class ConvNet(nn.Module):
    """A stem conv to CHANNELS, then n-1 conv-bn-relu blocks: n convs in all."""

    def __init__(self, n: int):
        super().__init__()
        blocks = [nn.Sequential(_conv(3, CHANNELS), nn.BatchNorm2d(CHANNELS), nn.ReLU())]
        blocks += [nn.Sequential(_conv(CHANNELS, CHANNELS), nn.BatchNorm2d(CHANNELS), nn.ReLU()) for _ in range(n - 1)]
        self.blocks = nn.Sequential(*blocks)

    def forward(self, x):
        return self.blocks(x)


class Block(nn.Module):
    def __init__(self, c: int):
        super().__init__()
        self.conv1, self.bn1, self.relu1 = _conv(c, c), nn.BatchNorm2d(c), nn.ReLU()
        self.conv2, self.bn2, self.relu2 = _conv(c, c), nn.BatchNorm2d(c), nn.ReLU()

    def forward(self, x):
        y = self.relu1(self.bn1(self.conv1(x)))
        return self.relu2(self.bn2(self.conv2(y)) + x)


class ResNet(nn.Module):
    def __init__(self, n: int):
        super().__init__()
        self.stem = _conv(3, CHANNELS)
        self.blocks = nn.Sequential(*[Block(CHANNELS) for _ in range(n)])

    def forward(self, x):
        return self.blocks(self.stem(x))


class Transformer(nn.Module):
    def __init__(self, n: int, d: int = 32):
        super().__init__()
        self.layers = nn.Sequential(
            *[nn.TransformerEncoderLayer(d, 4, dim_feedforward=2 * d, dropout=0.0, batch_first=True) for _ in range(n)]
        )

    def forward(self, x):
        return self.layers(x)


class DecoderBlock(nn.Module):
    """Pre-norm GPT block: x + attn(ln1(x)), then x + mlp(ln2(x)); causal attention spelled out in ops
    (q/k/v linear, matmul, scale, mask, softmax, matmul) so the graph holds what a decoder LLM's does."""

    def __init__(self, d: int, heads: int):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.q, self.k, self.v, self.proj = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.fc, self.gelu, self.out = nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)

    def attn(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        hd = d // self.heads

        def split(y: torch.Tensor) -> torch.Tensor:  # (b, t, d) → (b, heads, t, hd)
            return y.view(b, t, self.heads, hd).transpose(1, 2)

        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        scores = torch.matmul(q, k.transpose(-2, -1)) * (hd**-0.5)
        scores = scores.masked_fill(mask[:t, :t], float("-inf"))
        y = torch.matmul(torch.softmax(scores, dim=-1), v)
        return self.proj(y.transpose(1, 2).reshape(b, t, d))

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln1(x), mask)
        return x + self.out(self.gelu(self.fc(self.ln2(x))))


class Decoder(nn.Module):
    """Token + position embeddings, n DecoderBlocks, a final LayerNorm and the LM head."""

    def __init__(self, n: int, d: int = 16, heads: int = 2, vocab: int = 64, context: int = 8):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(context, d)
        self.blocks = nn.ModuleList([DecoderBlock(d, heads) for _ in range(n)])
        self.ln_f, self.head = nn.LayerNorm(d), nn.Linear(d, vocab, bias=False)
        # True above the diagonal: a token attends to itself and the tokens before it
        self.register_buffer("causal", torch.triu(torch.ones(context, context, dtype=torch.bool), diagonal=1))

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        x = self.tok(ids) + self.pos(torch.arange(ids.shape[1], device=ids.device))
        for block in self.blocks:
            x = block(x, self.causal)
        return self.head(self.ln_f(x))


DECODER_VOCAB, DECODER_CONTEXT = 64, 8
DECODER_100K = 1136  # 26 + 88 nodes a block once converted (measured at 2, 10 and 40 blocks): 99,994 nodes


def build(kind: str, n: int) -> tuple[nn.Module, tuple]:
    """(model in eval mode, example inputs)."""
    gen = torch.Generator().manual_seed(1234)
    if kind == "convnet":
        return _init(ConvNet(n)), (torch.randn(8, 3, 32, 32, generator=gen),)
    if kind == "resnet":
        return _init(ResNet(n)), (torch.randn(2, 3, 16, 16, generator=gen),)
    if kind == "transformer":
        return _init(Transformer(n)), (torch.randn(2, 8, 32, generator=gen),)
    if kind == "decoder":
        return _init(Decoder(n)), (torch.randint(0, DECODER_VOCAB, (2, DECODER_CONTEXT), generator=gen),)
    raise ValueError(f"unknown model kind {kind!r}: convnet, resnet, transformer or decoder")


def calibration(kind: str, n_batches: int, like: tuple) -> list[tuple]:
    """Batches shaped like `like`: token ids in the vocabulary for the decoder, normal floats otherwise."""
    gen = torch.Generator().manual_seed(7)
    if kind == "decoder":
        return [tuple(torch.randint(0, DECODER_VOCAB, t.shape, generator=gen) for t in like) for _ in range(n_batches)]
    return [tuple(torch.randn(t.shape, generator=gen) for t in like) for _ in range(n_batches)]


def export(kind: str, n: int) -> torch.export.ExportedProgram:
    model, inputs = build(kind, n)
    return torch.export.export(model, inputs)
