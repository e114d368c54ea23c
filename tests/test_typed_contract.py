"""The contract's closed sets and structured fields (issue 28.3): finding kinds, table names and backends are
enums of view.schema.json that the code writes and branches on; a list cell stays a list, so no reader splits
display text back; run.py reads a quantizer error's head from the error, not from its translated text; and a
version-1 document (what saved notebooks hold) still loads."""

import json

import pytest
import torch

import pt2e_lens as pl
from pt2e_lens import i18n
from pt2e_lens.analyses.findings import finding
from pt2e_lens.analyses.table import Table
from pt2e_lens.backends import BACKENDS
from pt2e_lens.display import table_html
from pt2e_lens.prepare.errors import ChangedAnnotations, prepare_error
from pt2e_lens.prepare.recorder import QuantizerFailed
from pt2e_lens.schema import BACKEND_NAMES, FINDING_KINDS, SCHEMA_VERSION, SCHEMA_VERSIONS, TABLE_NAMES, VIEW_SCHEMA
from pt2e_lens.schema.check import schema_error


class Tiny(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3)

    def forward(self, x):
        return torch.relu(self.conv(x))


def test_the_sets_are_read_from_the_schema():
    defs = VIEW_SCHEMA["$defs"]
    assert FINDING_KINDS == set(defs["FindingKind"]["enum"]) and "fp32-island" in FINDING_KINDS
    assert TABLE_NAMES == set(defs["TableName"]["enum"]) and "findings" in TABLE_NAMES
    assert BACKEND_NAMES == set(BACKENDS)  # every backend run.lower knows, and no other
    assert SCHEMA_VERSIONS == (1, 2) and SCHEMA_VERSION == 2


def test_a_finding_of_an_unlisted_kind_is_refused_before_it_is_written():
    assert finding("decomposed", ["a", "a", "b"], "m") == {"kind": "decomposed", "message": "m", "nodes": ["a", "b"]}
    with pytest.raises(ValueError, match="FindingKind"):
        finding("made-up-kind", [], "m")


def test_a_table_of_another_name_is_written_as_table_with_its_name_as_title():
    d = Table("mine", ["a"], [[1]]).to_dict()
    assert d["name"] == "table" and d["title"] == "mine"
    assert schema_error(d, VIEW_SCHEMA, "Table") is None
    kept = Table("mine", ["a"], [[1]], title="My rows").to_dict()
    assert kept["title"] == "My rows"
    assert Table("observers", ["a"], []).to_dict()["name"] == "observers"


def test_a_list_cell_stays_a_list_in_json_and_checks_against_the_schema():
    ids = [f"node_{i}" for i in range(7)]
    d = Table("findings", ["kind", "nodes", "message", "title"], [("decomposed", ids, "m", "t")]).to_dict()
    assert d["rows"][0][1] == ids  # all seven, not "node_0, … (7)"
    assert schema_error(d, VIEW_SCHEMA, "Table") is None
    assert "node_0, … (7)" in Table("findings", ["nodes"], [(ids,)]).to_text()  # the text form is unchanged
    mixed = Table("table", ["scale"], [([0.5, 0.25],)]).to_dict()
    assert mixed["rows"][0][0] == "0.5, 0.25"  # only lists of strings are lists in JSON


def _findings_table(nodes_cell) -> dict:
    return {
        "name": "findings",
        "title": "findings",
        "columns": ["kind", "nodes", "message", "title"],
        "rows": [["decomposed", nodes_cell, "a message", "decomposed"]],
    }


def test_the_fallback_html_reads_the_node_list_as_given():
    ids = ["a, b", "c"]  # a node id may hold ", ": a list is never split again
    html_v2 = table_html(_findings_table(ids))
    assert "a, b, c" in html_v2
    html_v1 = table_html(_findings_table("x, y"))  # what schema_version 1 wrote: shown as it is
    assert "x, y" in html_v1 and "x, y, " not in html_v1


def test_a_version_1_snapshot_still_loads_and_a_newer_one_is_refused():
    ep = torch.export.export(Tiny().eval(), (torch.randn(1, 3, 8, 8),))
    doc = json.loads(pl.snapshot(ep).to_json())
    assert doc["schema_version"] == SCHEMA_VERSION
    doc["schema_version"] = 1
    assert pl.Snapshot.from_json(json.dumps(doc)).data["schema_version"] == 1
    doc["schema_version"] = SCHEMA_VERSION + 1
    with pytest.raises(pl.Pt2eLensError, match=f"schema_version {SCHEMA_VERSION + 1} is not supported"):
        pl.Snapshot.from_json(json.dumps(doc))


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_quantizer_error_carries_its_head_without_the_advice(lang):
    with i18n.using(lang):
        e = prepare_error(QuantizerFailed("MyQuantizer", "annotate", ValueError("bad — really bad")), {})
        assert str(e).startswith(e.head) and len(str(e)) > len(e.head)
        assert "MyQuantizer" in e.head and "bad — really bad" in e.head  # a dash inside the reason stays
        assert i18n.t("error.quantizer_raised", head="") not in e.head  # the advice is not in it


def test_composable_quantizers_overwrite_check_is_told_apart_by_type():
    torchao_text = "Quantizer B has changed annotations on node conv2d"
    e = prepare_error(RuntimeError(torchao_text), {"conv2d": "A"})
    assert isinstance(e, ChangedAnnotations) and isinstance(e, RuntimeError) and torchao_text in str(e)
    assert not isinstance(prepare_error(RuntimeError("something else"), {}), ChangedAnnotations)
