"""Symbolic sizes by the names the user gave their Dims: `batch×3×32×32`, not `s77×3×32×32`.

torch.export names a dynamic size `s77`; the name of the `torch.export.Dim` it came from stays in the ShapeEnv
(`source_name_to_debug_name`, keyed by the size's source, e.g. `L['x'].size()[0]`, found in `var_to_sources`)."""

from __future__ import annotations

from typing import Any

import sympy

# {(id(shape_env), expression text): shown text}: a graph has few distinct symbolic sizes, its nodes many
_memo: dict[tuple[int, str], str] = {}


def dim_text(d: Any) -> str:
    """A symbolic size as text, each free symbol replaced by its Dim's name when the ShapeEnv knows one."""
    node = getattr(d, "node", None)
    env, expr = getattr(node, "shape_env", None), getattr(node, "expr", None)
    if env is None or not isinstance(expr, sympy.Expr):
        return str(d)
    key = (id(env), str(expr))
    hit = _memo.get(key)
    if hit is None:
        names = getattr(env, "source_name_to_debug_name", {}) or {}
        repl = {}
        for sym in expr.free_symbols:
            for src in env.var_to_sources.get(sym, []):
                name = names.get(src.name if isinstance(src.name, str) else src.name())
                if name:
                    repl[sym] = sympy.Symbol(name)
                    break
        hit = str(expr.xreplace(repl)) if repl else str(expr)
        if len(_memo) > 4096:
            _memo.clear()
        _memo[key] = hit
    return hit
