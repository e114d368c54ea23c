"""notebooks/recipe.ipynb runs top to bottom: its asserts (the recipe's verified SQNR meets the target, the
pasted quantizer restores it) run inside the notebook; the tables and the heat view are real outputs."""

from pathlib import Path

from test_notebook import execute

from pt2e_lens.display import MIME
from pt2e_lens.schema.packed import unpack

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "recipe.ipynb"


def test_the_recipe_notebook_restores_accuracy():
    nb = execute(NOTEBOOK)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    errors = [f"{o['ename']}: {o['evalue']}" for o in outputs if o.get("output_type") == "error"]
    assert not errors, errors
    stdout = "".join(o["text"] for o in outputs if o.get("output_type") == "stream" and o["name"] == "stdout")
    assert "recipe: 1 site(s) in fp32" in stdout and "pl.KeepFp32(" in stdout and "pasted recipe:" in stdout
    views = [unpack(o["data"][MIME]) for o in outputs if MIME in o.get("data", {})]
    overlays = [p.get("overlay") for v in views for p in v.get("panes", [])]
    assert any(o and o["name"] == "sensitivity" for o in overlays)  # the sensitivity heat view


def test_the_notebook_is_saved_without_outputs():
    import nbformat

    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
