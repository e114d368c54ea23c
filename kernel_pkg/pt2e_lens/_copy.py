"""Private copies of GraphModules that keep their quantization annotations consistent.

`copy.deepcopy(gm)` copies nodes but shares each node's QuantizationAnnotation object, whose keys
and SharedQuantizationSpec targets still point at the ORIGINAL graph's nodes. Reading or preparing
such a copy would silently mix two graphs (and mutate the user's annotations), so every copy we
take re-creates the annotations against its own nodes.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import warnings
from collections.abc import Callable, Collection, Iterator
from typing import Any, TypeVar

import torch
from torch.fx._lazy_graph_module import _LazyGraphModule

from . import i18n
from ._torchao import (
    Q_ANNOTATION_KEY,
    DerivedQuantizationSpec,
    SharedQuantizationSpec,
)
from .errors import Pt2eLensError, first_line


def private_copy(gm: torch.fx.GraphModule, shared: Collection[int] = (), kept: bool = False) -> torch.fx.GraphModule:
    """A deep copy of gm (parameters included) whose annotations refer to its own nodes.

    `shared`: ids of tensors the copy holds as they are instead of copying them (weights that pt2e-lens's
    stages share and guard against writes: capture/_shared.py).
    `kept`: a copy a stage keeps and may never run: its Python code is generated when it first runs or is read
    (_code_on_first_use), not at once — a third of the CPU of copying a prepared ViT. Only for pt2e-lens's own
    modules: `gm`'s class changes while it is copied.

    Observers may hold fx objects of the graph they observe (Qualcomm's ConcatObserver keeps the cat's
    Node and finds its inputs' observers through `node.graph.owning_module`): the copy's modules refer to
    the copy's graph and nodes, never to the original's (whose FakeTensor meta cannot be deep-copied).
    """
    deferred = _code_on_first_use(gm) if kept else contextlib.nullcontext()
    with warnings.catch_warnings(), deferred:
        warnings.simplefilter("ignore", FutureWarning)  # torch's pytree warns on deepcopy of specs
        memo: dict[int, Any] = {}
        tensors = tensors_of(gm)
        if shared:
            memo.update({id(t): t for t in tensors if id(t) in shared})
        plain_copies(tensors, memo)
        graph = copy.deepcopy(gm.graph, memo)
        new_nodes = {n.name: n for n in graph.nodes}
        memo.update({id(n): new_nodes[n.name] for n in gm.graph.nodes})
        mapped = dict(memo)  # the failed deepcopy below leaves half-made copies in memo
        try:
            new = copy.deepcopy(gm, memo)
        except Exception as e:
            raise _uncopyable(gm, mapped, e) from None
    by_name = {n.name: n for n in new.graph.nodes}
    for node in new.graph.nodes:
        ann = node.meta.get(Q_ANNOTATION_KEY)
        if ann is not None:
            node.meta[Q_ANNOTATION_KEY] = _remap_annotation(ann, by_name)
    return new


@contextlib.contextmanager
def _code_on_first_use(gm: torch.fx.GraphModule) -> Iterator[None]:
    """While `gm` is deep-copied its class is torch.fx's _LazyGraphModule: GraphModule.__deepcopy__ makes the copy
    of `type(gm)`, and that class's `recompile` only marks the code stale (torch generates and compiles it on the
    first call or read of `.code`, as it does for Inductor's graphs). A subclass of GraphModule keeps its own."""
    cls = type(gm)
    if cls.__bases__ != (torch.fx.GraphModule,):
        yield
        return
    gm.__class__ = _LazyGraphModule
    try:
        yield
    finally:
        gm.__class__ = cls


def _plain(t: torch.Tensor) -> bool:
    """A dense CPU tensor, no subclass, no autograd, no attributes of its own, alone on its whole storage from
    its start: deepcopy would copy its bytes into a new storage of the same layout, as clone() does."""
    return (
        type(t) is torch.Tensor
        and t.layout == torch.strided
        and t.device.type == "cpu"
        and not t.requires_grad
        and t.grad is None
        and not t.is_quantized
        and not t.is_conj()
        and not t.is_neg()
        and not t.__dict__
        and t.storage_offset() == 0
        and t.is_contiguous()
        and t.untyped_storage().nbytes() == t.numel() * t.element_size()
    )


def plain_copies(tensors: Collection[torch.Tensor], memo: dict[int, Any]) -> None:
    """Put a clone of each plain tensor (_plain) among `tensors` into deepcopy's `memo`, unless another of
    `tensors` shares its storage (deepcopy keeps those sharing one copy): the copy deepcopy would make, without
    Tensor.__deepcopy__'s Python path (~20 µs a tensor; a prepared graph's observers hold hundreds).

    A tensor with autograd history (not a leaf) cannot be deep-copied at all: a quantizer's pass may keep one as
    a constant (ExecuTorch's Arm passes fold `nan_to_num` of a weight with grad on). Its copy is a leaf with the
    same values and `requires_grad`: the graph reads only its values."""
    owners: dict[int | None, int] = {}
    for t in tensors:
        ptr = _data_ptr(t)
        owners[ptr] = owners.get(ptr, 0) + 1
    with torch.no_grad():
        for t in tensors:
            if id(t) in memo:
                continue
            if not t.is_leaf:
                memo[id(t)] = t.detach().clone().requires_grad_(t.requires_grad)
            elif _plain(t) and owners[_data_ptr(t)] == 1:
                memo[id(t)] = t.clone()


def _data_ptr(t: torch.Tensor) -> int | None:
    """Where `t`'s storage starts; None for a tensor without one to read (fake, meta, other devices)."""
    if t.layout != torch.strided or t.device.type != "cpu":
        return None
    try:
        return t.untyped_storage().data_ptr()
    except Exception:  # a FakeTensor's storage cannot be read
        return None


def _uncopyable(gm: torch.fx.GraphModule, memo: dict[int, Any], e: Exception) -> Pt2eLensError:
    """One line naming the submodule deepcopy failed on (e.g. an observer holding another graph's Node)."""
    where = "?"
    for name, module in gm.named_modules():
        if module is gm:
            continue
        try:
            copy.deepcopy(module, dict(memo))
        except Exception:
            where = f"{name} ({type(module).__name__})"
            break
    return Pt2eLensError(
        i18n.t("error.copy_failed", where=where, reason=f"{type(e).__name__}: {first_line(e)}"), original=e
    )


def _remap_node(n, by_name):
    return by_name.get(n.name, n) if isinstance(n, torch.fx.Node) else n


def _remap_edge_or_node(e, by_name):
    if isinstance(e, tuple):
        return tuple(_remap_node(n, by_name) for n in e)
    return _remap_node(e, by_name)


def _remap_spec(spec, by_name):
    if isinstance(spec, SharedQuantizationSpec):
        return SharedQuantizationSpec(_remap_edge_or_node(spec.edge_or_node, by_name))
    if isinstance(spec, DerivedQuantizationSpec):
        return dataclasses.replace(spec, derived_from=[_remap_edge_or_node(e, by_name) for e in spec.derived_from])
    return spec  # frozen and node-free: safe to share


def _remap_annotation(ann, by_name):
    return dataclasses.replace(
        ann,
        input_qspec_map={_remap_node(k, by_name): _remap_spec(v, by_name) for k, v in ann.input_qspec_map.items()},
        output_qspec=_remap_spec(ann.output_qspec, by_name),
    )


_M = TypeVar("_M", bound=torch.nn.Module)


def tensors_of(module: torch.nn.Module) -> list[torch.Tensor]:
    """Every parameter, buffer and tensor constant of every submodule."""
    out: list[torch.Tensor] = []
    for mod in module.modules():
        for store in (mod._parameters, mod._buffers):
            out.extend(t for t in store.values() if t is not None)
        out.extend(v for v in vars(mod).values() if isinstance(v, torch.Tensor))
    return out


def own_tensors(
    module: _M,
    shared: Collection[int] = (),
    only: Collection[int] | None = None,
    lend: Callable[[torch.Tensor], torch.Tensor | None] | None = None,
) -> _M:
    """Give `module` its own copy of every parameter, buffer and tensor constant, in place.

    `ep.module()` and `torch.export.export` share tensors with the program and the user's model: a forward
    that updates a buffer (`self.steps.add_(1)`, BatchNorm statistics in train mode) would write into
    them. Tied tensors stay tied. `shared`: ids of tensors kept as they are (capture/_shared.py);
    `only`: copy just the tensors with these ids; `lend`: an alias to hold instead of a copy, or None (capture/_lent.py's Loan.alias).
    """
    clones: dict[int, Any] = {}

    def clone(t: torch.Tensor) -> Any:  # a Parameter stays a Parameter
        if id(t) in shared or (only is not None and id(t) not in only):
            return t
        if id(t) not in clones and lend is not None:
            alias = lend(t)
            if alias is not None:
                clones[id(t)] = alias
                return alias
        if id(t) not in clones:
            c = t.detach().clone()
            clones[id(t)] = (
                torch.nn.Parameter(c, requires_grad=t.requires_grad) if isinstance(t, torch.nn.Parameter) else c
            )
        return clones[id(t)]

    for mod in module.modules():
        for store in (mod._parameters, mod._buffers):
            for name, t in store.items():
                if t is not None:
                    store[name] = clone(t)
        for name, value in list(vars(mod).items()):
            if isinstance(value, torch.Tensor):  # tensor constants of ep.module()
                object.__setattr__(mod, name, clone(value))
    return module


def own_program(ep: torch.export.ExportedProgram, share_parameters: bool = False) -> torch.export.ExportedProgram:
    """An ExportedProgram with its own graph and tensors: running or decomposing it never reaches `ep`
    (nor the model `ep` was exported from, whose tensors `torch.export.export` shares).

    `share_parameters`: its Parameters are `ep`'s own objects (buffers and constants are still copied), for a
    caller that never lets them be written (capture/_shared.py)."""
    memo: dict[int, Any] = {}
    if share_parameters:
        memo.update({id(t): t for t in ep.state_dict.values() if isinstance(t, torch.nn.Parameter)})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return copy.deepcopy(ep, memo)


def own_state(ep: torch.export.ExportedProgram) -> torch.export.ExportedProgram:
    """`ep` itself, given its own buffers, tensor constants and example inputs, in place; its Parameters stay
    the model's own objects (never written: capture/_shared.py).

    For a program pt2e-lens just exported: its graph and module are nobody else's, only its tensors are the
    model's (torch.export shares them). What own_program(ep, share_parameters=True) makes, without copying the
    graph (node metadata, FakeTensors) and recompiling its code: the copy cost more than the tensors."""
    memo: dict[int, Any] = {}  # one for all: tensors tied to each other stay tied
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        for store in (ep.state_dict, ep.constants):
            for name, t in list(store.items()):
                if isinstance(t, torch.Tensor) and not isinstance(t, torch.nn.Parameter):
                    store[name] = copy.deepcopy(t, memo)
        for mod in ep.graph_module.modules():  # none after export lifts them; taken as the deep copy took them
            for store in (mod._buffers, vars(mod)):
                for name, t in list(store.items()):
                    if isinstance(t, torch.Tensor) and not isinstance(t, torch.nn.Parameter):
                        store[name] = copy.deepcopy(t, memo)
        if ep.example_inputs is not None:
            ep.example_inputs = copy.deepcopy(ep.example_inputs, memo)
    return ep
