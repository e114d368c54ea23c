"""Every snapshot pt2e-lens writes validates against the published JSON Schema."""

import json
from importlib.resources import files

import jsonschema
import pytest

import pt2e_lens as pl
from pt2e_lens.examples import example_inputs, get_model

SCHEMA = json.loads(files("pt2e_lens").joinpath("schema/view.schema.json").read_text())


def test_every_stage_validates(composable_run):
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for stage in composable_run:
        data = json.loads(stage.snapshot.to_json())
        errors = list(validator.iter_errors(data))
        assert not errors, f"{stage.name}: {errors[0].message} at {list(errors[0].path)}"


def test_references_resolve(composable_run):
    snap = composable_run["prepared"].snapshot
    ids = set(snap.node)
    specs = set(snap.spec)
    assert all(e["src"] in ids and e["dst"] in ids for e in snap.edges)
    for a in snap.annotations:
        assert a["node"] in ids and a["output"] in specs | {None}
        assert all(i["src"] in ids and i["spec"] in specs | {None} for i in a["inputs"])
    for o in snap.observers:
        assert all(n in ids and snap.node[n]["observer"] == o["id"] for n in o["nodes"])


def test_roles_match_the_graph(composable_run):
    snap = composable_run["converted"].snapshot
    gm = composable_run["converted"].graph_module
    roles = {n["id"]: n["role"] for n in snap.nodes}
    for node in gm.graph.nodes:
        if node.op == "placeholder":
            assert roles[node.name] == "input"
        elif node.op == "get_attr":
            assert roles[node.name] == "param"
        elif node.op == "call_function" and "dequantize" in str(node.target):
            assert roles[node.name] == "dequantize"
        elif node.op == "call_function" and "quantize" in str(node.target):
            assert roles[node.name] == "quantize"


def test_specs_are_deduplicated(composable_run):
    snap = composable_run["prepared"].snapshot
    assert len(snap.specs) == 2  # act_spec and weight_spec, however many nodes use them
    assert len(snap.annotations) == 5  # four convs and the add


def test_unknown_schema_version_is_refused():
    snap = pl.Run(get_model("conv_relu").eval(), example_inputs(2))["exported"].snapshot
    data = json.loads(snap.to_json())
    data["schema_version"] = 99
    with pytest.raises(pl.Pt2eLensError, match="schema_version 99 is not supported"):
        pl.Snapshot.from_json(json.dumps(data))
    with pytest.raises(pl.Pt2eLensError, match="not a pt2e-lens snapshot"):
        pl.Snapshot.from_json("{}")
