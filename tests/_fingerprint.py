"""One fingerprint of everything a user owns: an nn.Module, a GraphModule or an ExportedProgram.

"Untouched" means bit-identical: generated code, every parameter / buffer / tensor constant (compared as
raw bytes, so NaN and -0.0 count), node meta (including which annotation object each node holds),
train/eval flags, attributes, and every hook dict. Compare two fingerprints with `==`.
"""

import torch

_HOOKS = (
    "_forward_hooks",
    "_forward_pre_hooks",
    "_backward_hooks",
    "_backward_pre_hooks",
    "_state_dict_hooks",
    "_state_dict_pre_hooks",
    "_load_state_dict_pre_hooks",
    "_load_state_dict_post_hooks",
)


def _bytes(t: torch.Tensor) -> tuple:
    t = t.detach().cpu().contiguous()
    raw = t.reshape(-1).view(torch.uint8) if t.numel() else t.reshape(-1)
    return (str(t.dtype), tuple(t.shape), t.requires_grad, bytes(raw.tolist()))


def _tensors(named) -> dict:
    return {k: _bytes(v) for k, v in named if isinstance(v, torch.Tensor)}


def _module(m: torch.nn.Module) -> tuple:
    mods = []
    for name, sub in m.named_modules(remove_duplicate=False):
        hooks = tuple((h, tuple((k, id(f)) for k, f in getattr(sub, h, {}).items())) for h in _HOOKS)
        attrs = tuple(sorted(vars(sub)))
        mods.append((name, type(sub).__qualname__, sub.training, hooks, attrs))
    tensors = _tensors(m.state_dict(keep_vars=True).items())
    tensors.update(_tensors((f"attr:{k}", v) for sub in m.modules() for k, v in vars(sub).items()))
    tensors.update(_tensors((f"param:{k}", p) for k, p in m.named_parameters(remove_duplicate=False)))
    return tuple(mods), tensors


def _graph(g: torch.fx.Graph) -> list:
    out = []
    for n in g.nodes:
        meta = tuple(sorted((k, repr(v), id(v) if k == "quantization_annotation" else 0) for k, v in n.meta.items()))
        out.append((n.name, n.op, str(n.target), repr(n.args), repr(n.kwargs), meta, id(n.meta)))
    return out


def fingerprint(x) -> tuple:
    if isinstance(x, torch.export.ExportedProgram):
        return (
            "ep",
            x.graph_module.code,
            _graph(x.graph),
            str(x.graph_signature),
            _tensors(x.state_dict.items()),
            _tensors(x.constants.items()),
            repr(x.range_constraints),
            _module(x.graph_module),
        )
    if isinstance(x, torch.fx.GraphModule):
        return ("gm", x.code, _graph(x.graph), _module(x))
    return ("module", repr(x), _module(x))
