"""The layers of docs/architecture.md hold in the code: imports point down only, lazy ones included."""

from pathlib import Path

from _import_graph import find_cycle, graph, layer_table, modules, violations

import pt2e_lens

ROOT = Path(pt2e_lens.__file__).parent
DOC = Path(__file__).parent.parent / "docs" / "architecture.md"


def table():
    rows = layer_table(DOC.read_text(encoding="utf-8"))
    assert len(rows) >= 5, "docs/architecture.md lost its layer table"
    return rows


def test_package_import_graph_has_no_cycle():
    assert find_cycle(graph(modules(ROOT, "pt2e_lens"))) is None


def test_every_import_respects_the_documented_layers():
    known = modules(ROOT, "pt2e_lens")
    assert len(known) > 40 and "pt2e_lens.capture.run" in known  # the walk really sees the package
    assert violations(known, table()) == []


def test_each_layer_may_import_only_layers_below_it():
    rows = table()
    below: set[str] = set()
    for name, _, may in rows:
        assert may <= below, f"{name} may import {sorted(may - below)}, which are not below it"
        below.add(name)


def _package(tmp_path: Path, files: dict[str, str]) -> dict[str, Path]:
    root = tmp_path / "pkg"
    for rel, text in {"__init__.py": "", **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return modules(root, "pkg")


SYNTHETIC_TABLE = """
| # | layer | modules | may import |
|---|---|---|---|
| 1 | low | `pkg.low` | — |
| 2 | high | `pkg.high` | low |
| 3 | api | `pkg` | high, low |
"""


def test_checker_finds_a_cycle_made_by_a_lazy_import(tmp_path):
    known = _package(
        tmp_path,
        {
            "low/__init__.py": "",
            "low/a.py": "def f():\n    from ..high import b  # lazy: still an edge\n    return b\n",
            "high/__init__.py": "",
            "high/b.py": "from ..low import a\n",
        },
    )
    cycle = find_cycle(graph(known))
    assert cycle is not None and set(cycle) == {"pkg.low.a", "pkg.high.b"}


def test_checker_flags_an_upward_lazy_import_and_private_reaches(tmp_path):
    known = _package(
        tmp_path,
        {
            "low/__init__.py": "",
            "low/a.py": "def f():\n    import pkg.high.b\n",
            "low/_hidden.py": "X = 1\n",
            "high/__init__.py": "",
            "high/b.py": "from ..low._hidden import X\nfrom ..low.a import _helper\n",
        },
    )
    found = violations(known, layer_table(SYNTHETIC_TABLE))
    assert "pkg.low.a (low) imports pkg.high.b (high)" in found
    assert any("pkg.low._hidden, a private module of another package" in f for f in found)
    assert any("private name _helper" in f for f in found)
    assert not any(f.startswith("pkg.high.b (high)") for f in found)  # downward is fine
