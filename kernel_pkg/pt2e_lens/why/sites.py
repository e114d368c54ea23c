"""Quantized sites of a converted Run and one private copy in which each site's q/dq can be switched off.

A site is one sharing group: one observer instance after prepare, so one set of qparams after convert, and
every q/dq node convert made from it. Switching a site off hands each of its dequantize nodes' users the
float value instead (the tensor before its quantize; for a weight whose quantize convert folded into an
int8 constant, the float weight the observer saw). The switch is a `Gate` module behind every such
dequantize: flipping a bool costs nothing, so a sweep needs no copy, re-prepare or recompile per site.
"""

from __future__ import annotations

import dataclasses
import operator
from typing import Any

import torch

from .. import i18n
from .._copy import private_copy
from ..capture import Run
from ..errors import Pt2eLensError
from .observed import observed_stage
from .reference import is_qat


class Gate(torch.nn.Module):
    """Passes the quantized value on while `on`, the float value otherwise."""

    def __init__(self) -> None:
        super().__init__()
        self.on = True

    def forward(self, x_float: Any, x_quant: Any) -> Any:
        return x_quant if self.on else x_float


@dataclasses.dataclass
class Site:
    id: str  # the sharing group's observer id in the calibrated snapshot (`o3`)
    observers: list[str]  # its observer module names (activation_post_process_N)
    tensor: str  # the node it observes
    serves: list[str]  # the edges / node outputs of the group, as `src→dst` or `node`
    keys: list[tuple]  # ("edge", src, dst) / ("node", name): what a quantizer must leave unannotated
    qdq: list[str]  # converted-graph node names of its q/dq
    weight: bool  # observes a constant (a weight, or one computed from weights): convert folded its quantize
    groups: list[str] = dataclasses.field(default_factory=list)  # the sharing groups it switches (its own id)

    def __post_init__(self) -> None:
        self.groups = self.groups or [self.id]


@dataclasses.dataclass
class GatedModule:
    """A private copy of the converted module with one `Gate` per site (`gates[i]` switches `sites[i]`)."""

    module: torch.fx.GraphModule
    sites: list[Site]
    # buffers as they were before any forward: a forward that writes its buffers (a step counter, an EMA)
    # must not let one configuration see what the one before it wrote
    initial: dict[str, torch.Tensor] = dataclasses.field(default_factory=dict)

    def reset_buffers(self) -> None:
        buffers = dict(self.module.named_buffers())
        with torch.no_grad():
            for name, value in self.initial.items():
                buffers[name].copy_(value)

    def set_off(self, off: Any) -> None:
        """Switch the sites whose indices are in `off` to fp32, every other one to quantized."""
        off = set(off)
        for i in range(len(self.sites)):
            getattr(self.module, _gate_name(i)).on = i not in off


def constant_nodes(graph: torch.fx.Graph) -> set[str]:
    """Names of the nodes whose value depends on no input: get_attrs, and ops on them only (a weight
    computed from parametrizations such as weight_norm's g and v). convert folds their quantize into an int8
    constant too."""
    const: set[str] = set()
    for n in graph.nodes:  # graph order is topological
        if n.op == "get_attr":
            const.add(n.name)
        elif n.op == "call_function" and n.all_input_nodes and all(a.name in const for a in n.all_input_nodes):
            const.add(n.name)
    return const


def constant_value(gm: torch.fx.GraphModule, name: str) -> torch.Tensor:
    """The value of constant node `name` of `gm` (see constant_nodes): its subgraph alone, run on gm's tensors."""
    nodes = {n.name: n for n in gm.graph.nodes}
    needed: set[str] = set()
    todo = [nodes[name]]
    while todo:
        n = todo.pop()
        if n.name not in needed:
            needed.add(n.name)
            todo.extend(n.all_input_nodes)
    graph = torch.fx.Graph()
    env: dict[torch.fx.Node, torch.fx.Node] = {}
    for n in gm.graph.nodes:
        if n.name in needed:
            env[n] = graph.node_copy(n, lambda a: env[a])
    graph.output(env[nodes[name]])
    with torch.no_grad():  # reads gm's parameters, writes nothing
        return torch.fx.GraphModule(gm, graph)().detach().clone()


def _gate_name(i: int) -> str:
    return f"_pt2e_lens_gate_{i}"


def sites_of(run: Run) -> list[Site]:
    """Every sharing group of the run whose observer convert turned into q/dq nodes, in graph order."""
    observed = observed_stage(run)
    qdq = run["converted"].snapshot.qdq
    group_of = {name: o for o in observed.snapshot.observers for name in o["names"]}
    by_id: dict[str, Site] = {}
    graph = observed.graph_module.graph
    # a PTQ weight computed from parametrizations (weight_norm) has its float value in the calibrated stage;
    # QAT's computed weight is folded with its batch norm at convert, a value no stage holds (_check_float)
    constants = {n.name for n in graph.nodes if n.op == "get_attr"} if is_qat(run) else constant_nodes(graph)
    for q in qdq:
        o = group_of.get(q["from_observer"] or "")
        if o is None:
            continue
        site = by_id.get(o["id"])
        if site is None:
            serves = [s["at"] for s in o["serves"]]
            site = by_id[o["id"]] = Site(
                id=o["id"],
                observers=list(o["names"]),
                tensor=o["observes"],
                serves=["→".join(a["edge"]) if "edge" in a else a["node"] for a in serves],
                keys=[("edge", *a["edge"]) if "edge" in a else ("node", a["node"]) for a in serves],
                qdq=[],
                weight=o["observes"] in constants,
            )
        site.qdq.append(q["node"])
    return list(by_id.values())


UNITS = ("group", "op", "module")


def units_of(sites: list[Site], by: str, nodes: dict[str, dict]) -> list[Site]:
    """`by="group"`: the sites themselves. `"op"`: one unit per annotated op, switching every group that
    serves one of its input edges or its output; `"module"`: the same per innermost nn.Module (`nodes`: the
    snapshot's node table, for each op's module stack)."""
    if by == "group":
        return sites
    owners: dict[str, list[Site]] = {}
    for site in sites:
        for key in site.keys:
            op = key[2] if key[0] == "edge" else key[1]
            stack = nodes.get(op, {}).get("module_stack") or []
            name = op if by == "op" else (stack[-1][0] if stack else "(root)")
            members = owners.setdefault(name, [])
            if site not in members:
                members.append(site)
    return [_merged(name, members) for name, members in owners.items()]


def _merged(name: str, members: list[Site]) -> Site:
    def union(lists) -> list:
        return list(dict.fromkeys(x for lst in lists for x in lst))

    return Site(
        id=name,
        observers=union(m.observers for m in members),
        tensor=", ".join(dict.fromkeys(m.tensor for m in members)),
        serves=union(m.serves for m in members),
        keys=union(m.keys for m in members),
        qdq=union(m.qdq for m in members),
        weight=all(m.weight for m in members),
        groups=[m.id for m in members],
    )


def _float_source(dq: torch.fx.Node, members: set[str]) -> torch.fx.Node:
    """The value before this site's quantize: follow first arguments through the site's own q/dq nodes."""
    node = dq
    while node.name in members and node.args and isinstance(node.args[0], torch.fx.Node):
        node = node.args[0]
    return node


def gated(run: Run, sites: list[Site] | None = None) -> GatedModule:
    """One private copy of the converted module with a Gate after every dequantize of every site."""
    sites = sites_of(run) if sites is None else sites
    gm = private_copy(run["converted"].graph_module)
    observed = observed_stage(run).graph_module
    by_name = {n.name: n for n in gm.graph.nodes}
    kinds = {q["node"]: q["kind"] for q in run["converted"].snapshot.qdq}
    for i, site in enumerate(sites):
        gm.add_submodule(_gate_name(i), Gate())
        members = set(site.qdq)
        float_weight = None
        if site.weight:  # the float weight the observer saw (bn-folded at prepare), as our own buffer
            buffer = f"_pt2e_lens_float_{i}"
            gm.register_buffer(buffer, constant_value(observed, site.tensor))
            with gm.graph.inserting_before(_after_placeholders(gm)):
                float_weight = gm.graph.get_attr(buffer)
        for name in site.qdq:
            dq = by_name[name]
            if kinds[name] != "dequantize":
                continue
            source = float_weight if float_weight is not None else _float_source(dq, members)
            _check_float(gm, source, site)
            users = list(dq.users)
            with gm.graph.inserting_after(dq):
                gate = gm.graph.call_module(_gate_name(i), (source, dq))
            for user in users:
                user.replace_input_with(dq, gate)
    _picklable(gm)
    gm.graph.lint()
    gm.recompile()
    initial = {k: v.detach().clone() for k, v in gm.named_buffers() if not k.startswith("_pt2e_lens_")}
    return GatedModule(gm, sites, initial)


def _check_float(gm: torch.fx.GraphModule, source: torch.fx.Node, site: Site) -> None:
    """A site whose float side is an int8 constant cannot be switched to fp32: QAT's convert folds the batch
    norm into the trained weight and quantizes it, and that float weight is in no stage (the trained one has
    the weight before the fold)."""
    if source.op != "get_attr":
        return
    value = operator.attrgetter(str(source.target))(gm)
    if isinstance(value, torch.Tensor) and not value.is_floating_point():
        raise Pt2eLensError(i18n.t("sensitivity.no_float_weight", site=site.id, tensor=site.tensor))


def _picklable(gm: torch.fx.GraphModule) -> None:
    """So that a worker can unpickle the copy: torch.export's `_guards_fn` (input shape checks) holds a local
    function, and unpickling re-traces the code with the graph's tracer class, which for an exported graph
    needs constructor arguments. The float module ran the same batches through the same guards first, and
    the plain fx Tracer re-traces the code to the same computation (a test compares outputs bit for bit)."""
    gm._tracer_cls = None
    for node in list(gm.graph.nodes):
        if node.op == "call_module" and node.target == "_guards_fn" and not node.users:
            gm.graph.erase_node(node)
            gm.delete_submodule("_guards_fn")


def _after_placeholders(gm: torch.fx.GraphModule) -> torch.fx.Node:
    return next(n for n in gm.graph.nodes if n.op != "placeholder")
