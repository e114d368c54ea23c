"""X86 Inductor: compile a private copy of a converted module and read back which nodes became int8 kernels.

The record comes from Inductor itself: the post-grad graph, seen through its documented custom-pass hook
(`post_grad_custom_post_pass`), where a fused q/dq pattern is one node whose target is the quantized
conv/linear lowering and whose kwargs carry the fused post-op and output dtype; each post-grad node's
`meta["from_node"]` chain leads back to the converted graph's node it replaced. The pattern-matcher
counters (`torch._dynamo.utils.counters["inductor"]`) are kept in `records` as Inductor wrote them.

Everything is scoped to the call: `torch._inductor.config.patch` (freezing, the hook, no caches), the
counters restored afterwards, the user's module never compiled (a private copy is).
"""

from __future__ import annotations

import copy
import errno
import functools
import os
import tempfile
from collections import Counter
from typing import Any

import torch

from .. import i18n
from .._copy import private_copy
from .._targets import qdq_kind, short_name
from .._torchao import Q_ANNOTATION_KEY
from ..errors import Pt2eLensError, first_line
from .failure import lowering_error
from .graph_match import fused_regions, post_grad_nodes
from .record import BackendRecord, NodeOutcome

OPTIONS = ("freezing",)
# a dynamic-quantization chain (choose_qparams → quantize → dequantize) is q/dq work too
_QPARAMS = ("choose_qparams",)
# the ops Inductor's oneDNN int8 patterns fuse: they take uint8 activations only
_ONEDNN_OPS = ("conv1d", "conv2d", "conv3d", "linear", "convolution", "addmm", "mm")


def lower(gm: torch.fx.GraphModule, example_inputs: tuple, freezing: bool = True, **options: Any) -> BackendRecord:
    """`torch.compile` a private copy of the converted `gm` with Inductor and say what became of each node."""
    if options:
        raise Pt2eLensError(i18n.t("error.inductor_option", names=", ".join(sorted(options))))
    check_cache_dir()
    model = private_copy(gm)
    _check_inputs(model, tuple(example_inputs))
    seen: list[torch.fx.Graph] = []
    patch = {"freezing": bool(freezing), "force_disable_caches": True}
    counted, runner = _compile(model, example_inputs, {**patch, "post_grad_custom_post_pass": _Recorder(seen)})
    nodes = outcomes(model, post_grad_nodes(seen, model.graph), bool(freezing))
    records = {"counters": counted, "post_grad_nodes": sum(len(g.nodes) for g in seen)}
    return BackendRecord("inductor", nodes, records, {"freezing": bool(freezing)}, runner=_Runner(runner, patch))


class _Recorder:
    """The post-grad custom pass: it changes nothing, it keeps a copy of the graph Inductor is about to lower."""

    def __init__(self, seen: list[torch.fx.Graph]):
        self.seen = seen

    def __call__(self, graph: torch.fx.Graph) -> None:
        self.seen.append(_graph_copy(graph))

    def uuid(self) -> None:
        return None  # never cached: caches are off for this compile anyway (force_disable_caches)


def _graph_copy(graph: torch.fx.Graph) -> torch.fx.Graph:
    """Nodes, targets, kwargs and meta as they are now (later passes and the lowering may change them)."""
    new = torch.fx.Graph()
    env: dict[torch.fx.Node, torch.fx.Node] = {}
    for n in graph.nodes:
        env[n] = new.node_copy(n, lambda a: env[a])
        env[n].meta = {k: v for k, v in n.meta.items() if k in ("from_node", "val")}
    return new


class _Runner:
    """Calls the compiled module as it was compiled (freezing, under no_grad): what the backend computes."""

    def __init__(self, compiled: Any, patch: dict):
        self.compiled, self.patch = compiled, patch

    def __call__(self, *args: Any) -> Any:
        with torch._inductor.config.patch(self.patch), torch.no_grad():
            return self.compiled(*args)


def _compile(model: torch.fx.GraphModule, inputs: tuple, patch: dict) -> tuple[dict[str, int], Any]:
    """Compile and run once; Inductor's counters for this compile only (the global ones are put back)."""
    from torch._dynamo.utils import counters

    saved = {k: Counter(v) for k, v in counters.items()}
    counters.clear()
    try:
        with torch._inductor.config.patch(patch), torch.no_grad():
            compiled = torch.compile(model, backend="inductor")
            compiled(*copy.deepcopy(inputs))
        return dict(counters["inductor"]), compiled
    except Exception as e:
        raise _compile_error(e) from None
    finally:
        counters.clear()
        counters.update(saved)


def _check_inputs(model: torch.fx.GraphModule, inputs: tuple) -> None:
    """Wrong example inputs fail eagerly in a second, before a compile that would bury them in its own error."""
    try:
        with torch.no_grad():
            model(*copy.deepcopy(inputs))
    except Exception as e:
        expected = ", ".join(
            str(tuple(v.shape)) if isinstance(v := n.meta.get("val"), torch.Tensor) else repr(v)
            for n in model.graph.nodes
            if n.op == "placeholder"
        )
        raise lowering_error("inputs", e, reason=first_line(e, 160), expected=expected or "()") from None


# a file Inductor could not write: its cache folder is read-only, full, or not a folder
_WRITE_ERRNOS = (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT, errno.ENOTDIR, errno.EEXIST)


def _cache_dir() -> str:
    from torch._inductor.runtime.cache_dir_utils import default_cache_dir

    return os.path.abspath(os.environ.get("TORCHINDUCTOR_CACHE_DIR") or default_cache_dir())


def check_cache_dir() -> None:
    """Inductor compiles into a fresh folder it makes inside its cache folder (caches off): make one the same
    way now, so a read-only, full or missing cache says so before anything is compiled."""
    cache = _cache_dir()
    try:
        os.makedirs(cache, exist_ok=True)  # as Inductor's cache_dir() does
        os.rmdir(tempfile.mkdtemp(dir=cache))
    except OSError as e:
        raise lowering_error("cache_dir", e, path=cache, reason=e.strerror or str(e)) from None


def _compilers_tried() -> str:
    """The compilers Inductor looked for (`CXX`, else g++), named in full: its own message cuts them short."""
    cxx = torch._inductor.config.cpp.cxx
    return ", ".join(str(c) for c in (cxx if isinstance(cxx, (tuple, list)) else (cxx,)) if c)


def _chain(e: BaseException) -> list[BaseException]:
    """e and what it wraps: `__cause__`, Dynamo's `inner_exception`, then `__context__`."""
    out: list[BaseException] = []
    todo: list[BaseException | None] = [e]
    while todo:
        c = todo.pop(0)
        if c is None or any(c is x for x in out):
            continue
        out.append(c)
        todo += [c.__cause__, getattr(c, "inner_exception", None), c.__context__]
    return out


def _compile_error(e: BaseException) -> Pt2eLensError:
    from torch._inductor.exc import InvalidCxxCompiler

    for cause in _chain(e):
        if isinstance(cause, InvalidCxxCompiler):
            return lowering_error("no_compiler", e, reason=_compilers_tried() or first_line(cause, 120))
        if isinstance(cause, OSError) and cause.errno in _WRITE_ERRNOS:
            where = os.path.abspath(str(cause.filename)) if cause.filename else None
            cache = _cache_dir()
            if where is None or where == cache or where.startswith(cache + os.sep):
                return lowering_error("cache_dir", e, path=where or cache, reason=cause.strerror or str(cause))
        if "should have uint8" in str(cause):  # oneDNN's int8 conv/linear prepack: unsigned activations only
            return lowering_error("int8_activations", e)
    return lowering_error("failed", e, error=type(e).__name__, reason=first_line(e, 160))


# -- outcomes


def _is_qdq(node: torch.fx.Node) -> bool:
    if node.op != "call_function":
        return False
    if qdq_kind(node.target) is not None or short_name(node.target).startswith(_QPARAMS):
        return True
    # the getitem that picks scale / zero point out of choose_qparams
    src = node.args[0] if node.args else None
    return short_name(node.target) == "getitem" and isinstance(src, torch.fx.Node) and _is_qdq(src)


def _kernel(target: Any, kwargs: dict) -> str:
    """`qconv_pointwise + relu → uint8`: the oneDNN op the lowering calls, its fused post-ops and output dtype."""
    fn = target.func if isinstance(target, functools.partial) else target
    name = getattr(fn, "__name__", short_name(fn))
    posts = [str(kwargs[k]) for k in ("binary_op_name", "unary_op_name", "postop_name") if k in kwargs]
    posts = [p for p in posts if p not in ("none", "None", "")]
    out = kwargs.get("output_dtype")
    dtype = f" → {str(out).replace('torch.', '')}" if out is not None else ""
    binary = name.endswith("_binary")  # the lowering `qconv_binary` calls onednn's qconv2d_pointwise.binary
    base = name.removesuffix("_binary")
    # qconv / qlinear call oneDNN's *_pointwise kernels; other int8 patterns (qreshape, qmaxpool) are named as is
    op = base + "_pointwise" + (".binary" if binary else "") if base in ("qconv", "qlinear") else name
    return op + "".join(f" + {p}" for p in posts) + dtype


def outcomes(model: torch.fx.GraphModule, post: dict[str, list], freezing: bool) -> dict[str, NodeOutcome]:
    """Each converted node: int8 (inside a fused kernel), fp32 (an aten kernel of its own), or folded away.

    `post`: converted node name → the post-grad nodes (target, kwargs, dtype) whose from_node leads to it.
    """
    regions = fused_regions(model.graph, post)  # converted node name -> the fused post-grad node it went into
    out: dict[str, NodeOutcome] = {}
    for n in model.graph.nodes:
        if n.op in ("placeholder", "output") or (n.op == "call_module" and str(n.target).startswith("_guards")):
            continue
        qdq = _is_qdq(n)
        if n.name in regions:
            target, kwargs = regions[n.name]
            kernel = _kernel(target, kwargs)
            out[n.name] = NodeOutcome("folded" if qdq or n.op == "get_attr" else "int8", kernel)
        elif n.op == "get_attr":
            continue  # a constant the fp32 kernels read: no work of its own
        elif n.name in post:
            live = [p for p in post[n.name] if p.op == "call_function"]
            if not live:
                out[n.name] = NodeOutcome("folded", None, None)
                continue
            kernel = ", ".join(dict.fromkeys(short_name(p.target) for p in live))
            int8 = not qdq and any(_runs_on_int8(p) for p in live)
            reason: str | None = None
            if qdq:
                reason = i18n.t("finding.backend_reason.qdq_left", kind=qdq_kind(n.target) or "qparams")
            elif not int8 and Q_ANNOTATION_KEY in n.meta:
                reason = fp32_reason(n, freezing)
            out[n.name] = NodeOutcome("int8" if int8 else "fp32", kernel, reason)
        else:
            out[n.name] = NodeOutcome("folded")
    return out


def fp32_reason(n: torch.fx.Node, freezing: bool) -> str:
    """Why Inductor runs an annotated op in fp32, read off the converted graph around it."""
    if not freezing:
        return i18n.t("finding.backend_reason.freezing_off")
    tensors = [a for a in n.all_input_nodes if a.op != "get_attr"]
    dqs = [a for a in tensors if qdq_kind(a.target) == "dequantize"]
    if tensors and not dqs:
        return i18n.t("finding.backend_reason.input_fp32", src=tensors[0].name)
    for dq in dqs:
        dtype = next((a for a in reversed(dq.args) if isinstance(a, torch.dtype)), None)
        q = dq.args[0] if dq.args and isinstance(dq.args[0], torch.fx.Node) else None
        if q is not None and q.op != "get_attr" and dtype is torch.int8 and short_name(n.target) in _ONEDNN_OPS:
            return i18n.t("finding.backend_reason.dtype", dtype="int8")
        src = q.args[0] if q is not None and q.args and isinstance(q.args[0], torch.fx.Node) else None
        if q is not None and qdq_kind(q.target) == "quantize" and src is not None and qdq_kind(src.target):
            return i18n.t("finding.backend_reason.mismatch")
    return i18n.t("finding.backend_reason.no_pattern", op=short_name(n.target))


def _runs_on_int8(p: torch.fx.Node) -> bool:
    """An aten kernel that reads and writes int8/uint8 tensors (Inductor's uint8 max_pool2d, cat): int8 work.
    A dequantize, or an fp32 kernel whose int8 input Inductor dequantizes inside it, is not."""
    if qdq_kind(p.target) is not None or short_name(p.target).startswith(_QPARAMS):
        return False
    ins = [v for a in p.all_input_nodes if (v := _tensor(a.meta.get("val"))) is not None]
    out = _tensor(p.meta.get("val"))
    int8 = (torch.uint8, torch.int8)
    return bool(ins) and out is not None and out.dtype in int8 and all(v.dtype in int8 for v in ins)


def _tensor(v: Any) -> torch.Tensor | None:
    """A value's tensor; of a tuple (max_pool2d_with_indices: values, indices) its first."""
    if isinstance(v, (tuple, list)) and v:
        v = v[0]
    return v if isinstance(v, torch.Tensor) else None
