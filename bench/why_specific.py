"""How specific `pl.why_not` is, and whether any line is wrong, on real quantizers nobody here wrote.

For each quantizer × model: every call_function node's why-lines in the annotated stage, judged against
torchao's own annotated graph (the real quantizer run by plain `prepare_pt2e` on a fresh export, stopped
after annotate):
- wrong: a node with a spec said to be unannotated or claimed without spec (or the reverse); "no annotator
  of Q handles op" while Q annotated another node of that op; "part of a fused pattern" with no neighbour
  carrying a spec; a line that names a quantizer that did not write the annotation;
- specific: the line names the quantizer and the annotator or config that decided, or says that nothing in
  that quantizer handles the op (not "pattern did not complete, a filter said no, or it was already taken",
  not only the top-level `annotate`).

    python bench/why_specific.py          # prints the share per case and in all, and every wrong line
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402
from torch import nn  # noqa: E402

import pt2e_lens as pl  # noqa: E402
from pt2e_lens._torchao import Q_ANNOTATION_KEY, Quantizer, prepare_pt2e  # noqa: E402

pl.quiet()
warnings.simplefilter("ignore")


class Encoder(nn.Module):
    """A transformer encoder layer (nn.MultiheadAttention, LayerNorm, a GELU MLP) and an embedding in front."""

    def __init__(self, d: int = 16, vocab: int = 32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.layer = nn.TransformerEncoderLayer(d, 2, 2 * d, dropout=0.0, activation="gelu", batch_first=True)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        return self.head(self.layer(self.emb(ids)))


class Mlp(nn.Module):
    def __init__(self, d: int = 16):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.fc1, self.act, self.fc2 = nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d)

    def forward(self, x):
        return x + self.fc2(self.act(self.fc1(self.ln(x))))


class ConvMlp(nn.Module):
    """conv-relu, pooling and a linear: what Cadence's and Cortex-M's patterns cover."""

    def __init__(self):
        super().__init__()
        self.conv, self.relu = nn.Conv2d(3, 8, 3), nn.ReLU()
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(8 * 3 * 3, 10)

    def forward(self, x):
        y = self.pool(self.relu(self.conv(x)))
        return torch.sigmoid(self.fc(y.flatten(1))) + 1.0


TOKENS = (torch.randint(0, 32, (2, 6)),)
FEATURES = (torch.randn(2, 6, 16),)
IMAGE = (torch.randn(2, 3, 8, 8),)


def xnnpack():
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))


def xnnpack_no_linear():
    return xnnpack().set_module_type(nn.Linear, None)


def x86(none_for: str | None = None):
    def make():
        from torchao.quantization.pt2e.quantizer import x86_inductor_quantizer as x86q

        q = x86q.X86InductorQuantizer().set_global(x86q.get_default_x86_inductor_quantization_config())
        return q.set_module_name_qconfig(none_for, None) if none_for else q

    make.none_for = none_for  # type: ignore[attr-defined]
    return make


def cadence():
    from executorch.backends.cadence.aot.quantizer.quantizer import CadenceDefaultQuantizer

    return CadenceDefaultQuantizer()


def cortex_m():
    from executorch.backends.cortex_m.quantizer.quantizer import CortexMQuantizer

    return CortexMQuantizer()


cortex_m.graph_only = True  # type: ignore[attr-defined]


CASES = [
    ("xnnpack", "encoder", xnnpack, Encoder, TOKENS, False),
    ("xnnpack", "mlp", xnnpack, Mlp, FEATURES, False),
    ("xnnpack Linear=None", "mlp", xnnpack_no_linear, Mlp, FEATURES, False),
    ("x86", "encoder", x86(), Encoder, TOKENS, True),
    ("x86 fc1=None", "mlp", x86("fc1"), Mlp, FEATURES, True),
    ("x86 layer.linear1=None", "encoder", x86("layer.linear1"), Encoder, TOKENS, True),
    ("cadence", "convmlp", cadence, ConvMlp, IMAGE, True),
    ("cadence", "encoder", cadence, Encoder, TOKENS, True),
    ("cortex-m", "convmlp", cortex_m, ConvMlp, IMAGE, False),
]

VAGUE = ("its pattern did not complete, a filter said no, or it was already taken",)


class _Stop(Exception):
    pass


def torchao_annotated(model: nn.Module, inputs, make, strict: bool) -> torch.fx.GraphModule:
    """The real quantizer's annotated graph, by plain prepare_pt2e on a fresh export (no pt2e-lens)."""
    got = {}

    class Keep(Quantizer):
        def __init__(self, q):
            super().__init__()
            self.q = q

        def transform_for_annotation(self, m):
            return self.q.transform_for_annotation(m)

        def annotate(self, m):
            return self.q.annotate(m)

        def validate(self, m):
            got["gm"] = m
            raise _Stop

    gm = torch.export.export(model, inputs, strict=strict).module(check_guards=False)
    try:
        prepare_pt2e(gm, Keep(make()))
    except _Stop:
        pass
    return got["gm"]


_NONE_FOR: list[str | None] = [None]  # the module the running case gives a None config


def _none_config_here(n) -> bool:
    """Whether torchao's node comes from the module the case set to None (its nn_module_stack paths)."""
    name = _NONE_FOR[0]
    paths = [p for p, _ in (n.meta.get("nn_module_stack") or {}).values()]
    return name is not None and any(p == name or p.startswith(name + ".") for p in paths)


def _specs(n) -> bool:
    a = n.meta.get(Q_ANNOTATION_KEY)
    return a is not None and (a.output_qspec is not None or any(s is not None for s in a.input_qspec_map.values()))


def judge(lines: list[str], n, gm, quantizers: list[str]) -> str | None:
    """Why the first line is wrong against torchao's graph, or None."""
    first = lines[0] if lines else ""
    ann = n.meta.get(Q_ANNOTATION_KEY)
    if _specs(n) and not first.startswith("annotated by"):
        return "has a spec in torchao's graph"
    if ann is None and first.startswith(("annotated by", "claimed by", "kept fp32 by")):
        return "unannotated in torchao's graph"
    if ann is not None and not _specs(n) and not first.startswith(("claimed by", "kept fp32 by")):
        return "claimed without spec in torchao's graph"
    if "user's None config" in first and not _none_config_here(n):
        return "no None config covers it"
    if "as part of a fused pattern" in first:
        near = [*n.all_input_nodes, *n.users]
        if not any(_specs(m) for m in near):
            return "no neighbour carries a spec"
    if "handles" in first and "no annotator" in first:
        same = [m for m in gm.graph.nodes if m.target == n.target and m is not n and m.meta.get(Q_ANNOTATION_KEY)]
        if same:
            return f"{same[0].name} of the same op is annotated"
    return None


def specific(lines: list[str], quantizers: list[str]) -> bool:
    """Names a quantizer, and not only the top-level quantizer's own `annotate` (a sub-quantizer's own
    `annotate` is its only annotator: naming the sub-quantizer is specific)."""
    first = lines[0] if lines else ""
    if not first or any(v in first for v in VAGUE) or "did not watch" in first:
        return False
    if not any(q in first for q in quantizers):
        return False
    top = quantizers[-1]
    return not (f"by {top} in annotate" in first or f"{top} looked at it in annotate" in first)


def run_case(label: str, model_name: str, make, model_cls, inputs, strict: bool):
    torch.manual_seed(0)
    _NONE_FOR[0] = getattr(make, "none_for", None)
    model = model_cls().eval()
    gm = torchao_annotated(model, inputs, make, strict)
    real = {n.name: n for n in gm.graph.nodes}
    if getattr(make, "graph_only", False):  # its passes reject export's _guards_fn node: ExecuTorch's own flow
        run = pl.Run(torch.export.export(model, inputs).module(check_guards=False)).prepare(make())
    else:
        run = pl.Run(model, inputs, strict=strict).prepare(make())
    snap = pl.snapshot(run["annotated"])
    record = run["annotated"].record.annotators
    quantizers = [*record.get("ran", []), record.get("top") or type(make()).__name__]
    total, good, wrong, vague = 0, 0, [], []
    for node in snap.nodes:
        if node["op"] != "call_function" or node["id"] not in real:
            continue
        lines = node.get("why") or []
        total += 1
        bad = judge(lines, real[node["id"]], gm, quantizers)
        if bad:
            wrong.append((node["id"], bad, lines[0] if lines else ""))
        elif specific(lines, quantizers):
            good += 1
        else:
            vague.append((node["id"], lines[0] if lines else ""))
    return total, good, wrong, vague


def main() -> None:
    all_total = all_good = all_wrong = 0
    for label, model_name, make, model_cls, inputs, strict in CASES:
        try:
            total, good, wrong, vague = run_case(label, model_name, make, model_cls, inputs, strict)
        except Exception as e:  # a quantizer that does not run here: say so, go on
            print(f"{label:24} {model_name:9} skipped: {type(e).__name__}: {str(e).splitlines()[0][:100]}")
            continue
        all_total, all_good, all_wrong = all_total + total, all_good + good, all_wrong + len(wrong)
        print(f"{label:24} {model_name:9} specific {good}/{total} = {good / max(total, 1):.2f}, wrong {len(wrong)}")
        for nid, why, line in wrong:
            print(f"    WRONG {nid}: {why} — {line}")
        for nid, line in vague[:6]:
            print(f"    vague {nid}: {line}")
    print(f"all: specific {all_good}/{all_total} = {all_good / max(all_total, 1):.3f}, wrong {all_wrong}")


if __name__ == "__main__":
    main()
