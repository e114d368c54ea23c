"""The import graph of a package, read with `ast`, and the rules docs/architecture.md states for it.

Every `import` / `from … import` counts, wherever it sits (module top, function body, `if TYPE_CHECKING`).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path


def modules(root: Path, package: str) -> dict[str, Path]:
    """Module name → file, for every .py file of the package rooted at `root` (a package is its __init__)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def imports(name: str, path: Path, known: dict[str, Path]) -> list[tuple[str, str | None]]:
    """(imported module, imported name or None) for every import of the package's own modules in `path`."""
    package = name if _is_package(path) else name.rpartition(".")[0]
    top = next(iter(known)).split(".")[0]
    out: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, None) for a in node.names if a.name.split(".")[0] == top]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] != top:
                continue
            for a in node.names:
                sub = f"{base}.{a.name}"
                out.append((sub, None) if sub in known else (base, a.name))
    return out


def graph(known: dict[str, Path]) -> dict[str, set[str]]:
    return {name: {m for m, _ in imports(name, path, known) if m in known} for name, path in known.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as [a, b, …, a], or None."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        path.append(n)
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                return path[path.index(m) :] + [m]
            if m not in state and (found := visit(m)):
                return found
        path.pop()
        state[n] = 2
        return None

    for n in sorted(edges):
        if n not in state and (found := visit(n)):
            return found
    return None


def layer_table(markdown: str) -> list[tuple[str, list[str], set[str]]]:
    """(layer, module names, layers it may import) for each row of the `| # | layer | modules | may import |`
    table, bottom layer first."""
    rows = []
    for line in markdown.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].isdigit():
            allowed = {w.strip() for w in cells[3].split(",") if w.strip() not in ("—", "-", "")}
            rows.append((cells[1], re.findall(r"`([\w.]+)`", cells[2]), allowed))
    return rows


def layer_of(module: str, table, top: str) -> str | None:
    """The layer of the longest module name in the table that is `module` or a package holding it (the top
    package's name stands for its __init__ only)."""
    best, layer = -1, None
    for name, names, _ in table:
        for m in names:
            hit = module == m or (m != top and module.startswith(m + "."))
            if hit and len(m) > best:
                best, layer = len(m), name
    return layer


def violations(known: dict[str, Path], table) -> list[str]:
    """Every import the layer table does not allow, every module in no layer, and every reach into another
    package's private module or an underscore name."""
    top = next(iter(known)).split(".")[0]
    allowed = {name: may | {name} for name, _, may in table}
    out = [f"{m} is in no layer of the table" for m in known if layer_of(m, table, top) is None]
    for name, path in known.items():
        here = layer_of(name, table, top)
        own_package = name if _is_package(path) else name.rpartition(".")[0]
        for target, imported in imports(name, path, known):
            if target not in known:
                continue
            there = layer_of(target, table, top)
            if here and there and there not in allowed[here]:
                out.append(f"{name} ({here}) imports {target} ({there})")
            parent, _, leaf = target.rpartition(".")
            if leaf.startswith("_") and not leaf.startswith("__") and not (own_package + ".").startswith(parent + "."):
                out.append(f"{name} imports {target}, a private module of another package")
            if imported and imported.startswith("_") and not imported.startswith("__"):
                out.append(f"{name} imports the private name {imported} from {target}")
    return out
