"""The front-end fixtures follow the JSON contract (python jsonschema against view.schema.json)."""

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

HERE = Path(__file__).resolve().parent / "fixtures"
spec = importlib.util.spec_from_file_location("make_fixtures", HERE / "make_fixtures.py")
mf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mf)
VALIDATOR = jsonschema.Draft202012Validator(json.loads(mf.SCHEMA.read_text()))


@pytest.mark.parametrize("name", sorted(p.name for p in HERE.glob("*.json")))
def test_fixture_matches_schema(name):
    doc = json.loads((HERE / name).read_text())
    errors = list(VALIDATOR.iter_errors(doc))
    if name == "future.json":
        assert errors, "a schema_version newer than the schema lists must be refused"
    else:
        assert not errors, errors[0].message
        assert mf.refs(doc) is None


def test_fixtures_are_up_to_date(tmp_path, monkeypatch):
    monkeypatch.setattr(mf, "HERE", tmp_path)
    names = mf.write_all()  # the hand-written ones; real_*.json come from make_real.py
    assert {n: (tmp_path / n).read_text() for n in names} == {n: (HERE / n).read_text() for n in names}


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")
def test_synthetic_graph_matches_schema():
    out = subprocess.run(["node", str(HERE / "synth.mjs"), "500"], capture_output=True, text=True, check=True)
    doc = json.loads(out.stdout)
    assert not list(VALIDATOR.iter_errors(doc))
    assert mf.refs(doc) is None
