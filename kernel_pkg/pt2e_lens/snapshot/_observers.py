"""Observer instances after prepare: what each one serves, its sharing group and its statistics.

prepare_pt2e leaves no record of edge, group or spec in the graph. With a capture record (the
observer map torchao handed to `prepare_obs_or_fq_callback`) we use that; for a graph prepared by plain
`prepare_pt2e` we infer it from the surviving annotations and the inserted observer nodes.
"""

from __future__ import annotations

import warnings
from typing import Any, cast

import torch

from .._torchao import SharedQuantizationSpec
from ._specs import SpecTable
from ._values import flat
from .channels import channels_field
from .keys import Key, key_specs


def _strip_observers(node: torch.fx.Node, is_obs) -> torch.fx.Node:
    while is_obs(node):
        node = cast(torch.fx.Node, node.args[0])
    return node


def infer_serves(gm: torch.fx.GraphModule, modules: dict, is_obs) -> dict[Key, str]:
    """Key → observer module name, read off the prepared graph (the plain prepare_pt2e path)."""
    serves: dict[Key, str] = {}
    by_name = {n.name: n for n in gm.graph.nodes}
    for key in key_specs(gm):
        if key[0] == "edge":
            src, dst = by_name.get(key[1]), by_name.get(key[2])
            if src is None or dst is None:
                continue
            for arg in dst.all_input_nodes:
                if is_obs(arg) and _strip_observers(arg, is_obs) is src:
                    serves[key] = arg.target
                    break
        else:
            node = by_name.get(key[1])
            if node is None:
                continue
            out_obs = next((u for u in node.users if is_obs(u) and u.args[0] is node), None)
            if out_obs is not None:
                serves[key] = out_obs.target
    return serves


def _stats(mod: Any, known: tuple[list, list] | None = None) -> dict:
    inner = getattr(mod, "activation_post_process", mod)  # fake-quantize wraps an observer
    lo, hi = getattr(inner, "min_val", None), getattr(inner, "max_val", None)
    calibrated = (
        isinstance(lo, torch.Tensor)
        and lo.numel() > 0
        and bool(torch.isfinite(lo).all())
        and isinstance(hi, torch.Tensor)
        and bool(torch.isfinite(hi).all())
    )
    if not calibrated:
        return {"min": None, "max": None, "scale": None, "zero_point": None}
    if known is not None:
        return {"min": flat(lo), "max": flat(hi), "scale": known[0], "zero_point": known[1]}
    scale = zero_point = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scale, zero_point = mod.calculate_qparams()
    except Exception:  # some observers (placeholder, noop) have no qparams: stats are still useful
        pass
    return {"min": flat(lo), "max": flat(hi), "scale": flat(scale), "zero_point": flat(zero_point)}


def _attr(mod: torch.nn.Module, name: str):
    inner = getattr(mod, "activation_post_process", mod)
    value = getattr(mod, name, getattr(inner, name, None))
    if value is None and name == "dtype":
        value = getattr(inner, "target_dtype", None)  # torchao's affine observers
    if value is None and name == "qscheme" and getattr(inner, "granularity", None) is not None:
        mapping = getattr(getattr(inner, "mapping_type", None), "name", "")
        return f"{mapping.lower()} {type(inner.granularity).__name__}".strip()
    if value is None or isinstance(value, (int, bool)):
        return value
    return str(value).removeprefix("torch.")


def observers(
    gm: torch.fx.GraphModule,
    modules: dict[str, torch.nn.Module],
    nodes_by_id: dict[str, dict],
    specs: SpecTable,
    recorded: dict[Key, str] | None,
    known_qparams: dict[str, tuple[list, list]] | None = None,
) -> list[dict]:
    obs_nodes = [n for n in gm.graph.nodes if nodes_by_id[n.name]["role"] == "observer"]
    if not obs_nodes:
        return []

    def is_obs(n: Any) -> bool:
        return isinstance(n, torch.fx.Node) and nodes_by_id.get(n.name, {}).get("role") == "observer"

    names_by_instance: dict[int, list[str]] = {}
    for name, mod in modules.items():
        names_by_instance.setdefault(id(mod), []).append(name)

    order: dict[int, dict] = {}
    for node in obs_nodes:
        mod = modules[node.target]
        entry = order.get(id(mod))
        if entry is None:
            entry = order[id(mod)] = {"module": mod, "nodes": [], "first": node}
        entry["nodes"].append(node.name)

    serves_map = recorded if recorded is not None else infer_serves(gm, modules, is_obs)
    spec_of = key_specs(gm)
    serves_by_instance: dict[int, list[Key]] = {}
    for key, module_name in serves_map.items():
        served = modules.get(module_name)
        if served is not None:
            serves_by_instance.setdefault(id(served), []).append(key)

    out = []
    for group, (inst, entry) in enumerate(order.items()):
        mod = entry["module"]
        oid = f"o{group}"
        for nid in entry["nodes"]:
            nodes_by_id[nid]["observer"] = oid
        serves, owner_seen = [], False
        for key in serves_by_instance.get(inst, []):
            spec = spec_of.get(key)
            if isinstance(spec, SharedQuantizationSpec):
                via = "shared"
            elif not owner_seen:
                via, owner_seen = "own", True
            else:
                via = "implicit"
            at = {"edge": [key[1], key[2]]} if key[0] == "edge" else {"node": key[1]}
            serves.append({"at": at, "spec": specs.id_of(spec), "via": via})
        observed = _strip_observers(entry["first"], is_obs)
        names = names_by_instance.get(inst, [])
        known = next((known_qparams[n] for n in names if known_qparams and n in known_qparams), None)
        stats = _stats(mod, known)
        out.append(
            {
                "id": oid,
                "names": names,
                "nodes": entry["nodes"],
                "class": type(mod).__name__,
                "dtype": _attr(mod, "dtype"),
                "qscheme": _attr(mod, "qscheme"),
                "quant_min": _attr(mod, "quant_min"),
                "quant_max": _attr(mod, "quant_max"),
                "ch_axis": _attr(mod, "ch_axis") if "PerChannel" in type(mod).__name__ else None,
                "observes": observed.name,
                "serves": serves,
                "group": group,
                "implicit": any(s["via"] == "implicit" for s in serves),
                **stats,
                **channels_field(mod, gm, observed),
            }
        )
    return out
