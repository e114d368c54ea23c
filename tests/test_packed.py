"""The packed transport (docs/contract.md, "Packed transport"): what display writes, unpack reads back exactly;
0.1 outputs (a plain View) still read; anything damaged is one line; the tabular layout cannot be abused."""

import base64
import gzip
import importlib.util
import json
import math
from pathlib import Path

import jsonschema
import pytest
import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st
from torchao.quantization.pt2e.quantizer import Quantizer

import pt2e_lens as pl
from pt2e_lens._static import packed_viewer
from pt2e_lens.display import MIME, mimebundle
from pt2e_lens.examples import ConvQuantizer
from pt2e_lens.schema import LIMITS, VIEW_SCHEMA
from pt2e_lens.schema.packed import PLAIN, TABULAR, PackedProblem, pack, unpack
from pt2e_lens.schema.tabular import TabularProblem, decode, encode

FIXTURES = Path(__file__).parent / "ts" / "fixtures"
spec = importlib.util.spec_from_file_location("make_packed", FIXTURES / "make_packed.py")
make_packed = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_packed)


def real(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def same(a, b) -> bool:
    """Equal as JSON text: the same values and the same key order."""
    return json.dumps(a) == json.dumps(b)


@pytest.mark.parametrize("name", make_packed.SOURCES)
def test_real_views_round_trip_exactly_and_the_envelope_follows_the_contract(name):
    view = real(name)
    packed = pack(view)
    jsonschema.validate(packed, {"$defs": VIEW_SCHEMA["$defs"], "$ref": "#/$defs/Packed"})
    assert packed["encoding"] == TABULAR and same(unpack(packed), view)
    assert same(unpack(json.dumps(packed)), view)  # as JSON text too (VS Code hands text)


@pytest.mark.parametrize("name", make_packed.SOURCES)
def test_front_end_fixtures_are_what_pack_writes(name):
    saved = json.loads((FIXTURES / "packed" / name).read_text())  # biome may re-indent it: compare the JSON
    assert saved == json.loads(make_packed.packed_text(name)), "run tests/ts/fixtures/make_packed.py"


def test_tabular_layout_finds_the_repeats_of_a_run_that_gzip_alone_misses():
    # 16 conv blocks: each stage's snapshot is far beyond gzip's 32 kB window, so plain gzip cannot reuse
    # one stage's module stacks and sources in the next
    blocks = [m for _ in range(16) for m in (torch.nn.Conv2d(4, 4, 3, padding=1), torch.nn.ReLU())]
    model = torch.nn.Sequential(*blocks).eval()
    batches = [(torch.randn(1, 4, 8, 8),) for _ in range(2)]
    view = pl.show(pl.capture(model, batches[0], ConvQuantizer(), calibration=batches)).view
    text = json.dumps(view, separators=(",", ":"))
    assert len(text) > 5 * 32_768
    plain = len(base64.b64encode(gzip.compress(text.encode(), 6)))
    assert len(pack(view)["data"]) < 0.85 * plain


def test_a_plain_view_of_pt2e_lens_0_1_reads_as_it_is():
    view = real("real_run.json")
    assert unpack(view) is view
    assert same(unpack(json.dumps(view)), view)


def test_keys_starting_with_a_dollar_are_packed_plain_and_round_trip():
    doc = {"notes": {"$ref": "x", "$": 1, "$cols": ["a"]}, "rows": [{"$": i} for i in range(5)]}
    assert encode(doc) is None
    packed = pack(doc)
    assert packed["encoding"] == PLAIN and same(unpack(packed), doc)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    max_leaves=60,
)


@settings(deadline=None)
@example([{"a": [0.0]}, {"a": [-0.0]}, {"a": [1]}, {"a": [1.0]}, {"a": [True]}], None)
@given(st.lists(st.dictionaries(st.sampled_from("abc"), JSON, min_size=1), max_size=8), JSON)
def test_any_json_round_trips(rows, extra):
    doc = {"rows": rows, "again": rows, "extra": extra}  # lists of like objects, repeats, anything
    packed = pack(doc)
    assert same(unpack(packed), doc)


def envelope(raw: bytes, encoding: str = TABULAR, **over) -> dict:
    return {**pack({}), "encoding": encoding, "data": base64.b64encode(raw).decode(), **over}


@pytest.mark.parametrize(
    ("damaged", "why"),
    [
        ({**pack({"a": 1}), "data": "not base64!"}, "not base64"),
        ({**pack({"a": 1}), "data": pack({"a": 1})["data"][:20]}, "ended"),
        (envelope(b"not gzip"), "Not a gzipped file"),
        (envelope(gzip.compress(b"{not json")), "invalid JSON"),
        (envelope(gzip.compress(b'{"values": [], "root": {"$": 0}}')), "a bad reference"),
        (envelope(gzip.compress(b'{"values": [{"$": 0}], "root": {"$": 0}}')), "a bad reference"),
        (envelope(gzip.compress(b'{"values": [], "root": {"$cols": ["a"], "$rows": [[1], [2]]}}')), "column"),
        (envelope(gzip.compress(b"[]")), "expected"),
        ({**pack({}), "encoding": "brotli"}, "envelope.encoding"),
        ({**pack({}), "schema_version": 3}, "envelope.schema_version"),
        ({k: v for k, v in pack({}).items() if k != "data"}, 'missing the field "data"'),
        ("{", "invalid JSON"),
    ],
)
def test_a_damaged_envelope_is_one_line(damaged, why):
    with pytest.raises(PackedProblem) as e:
        unpack(damaged)
    assert why in str(e.value) and "\n" not in str(e.value)


def test_a_crafted_expansion_is_refused():
    # 2**60 leaves from 60 entries, each twice the one before
    values = [[1, 2]] + [[{"$": i}, {"$": i}] for i in range(60)]
    with pytest.raises(TabularProblem, match="expands to more than"):
        decode({"values": values, "root": {"$": 60}}, limits={**LIMITS, "max_values": 100_000})


def test_display_packs_each_form_once():
    view = real("real_run.json")
    bundle = mimebundle(view)
    packed = bundle[MIME]
    assert set(packed) == {"format", "encoding", "schema_version", "data"} and same(unpack(packed), view)
    html = bundle["text/html"]
    assert html.count(packed["data"]) == 1  # the same envelope, not the View JSON
    assert '"format":"pt2e-lens.view"' not in html and (packed_viewer() or "") in html  # and the viewer


class _AnnotatesNothing(Quantizer):
    def annotate(self, model):
        return model

    def validate(self, model):
        pass


def test_an_exact_match_sqnr_displays_as_infinity():
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU()).eval()
    batches = [(torch.randn(2, 4),) for _ in range(2)]
    run = pl.capture(model, batches[0], _AnnotatesNothing(), calibration=batches)
    acc = pl.accuracy(run, batches)
    exact = {node for node, sqnr in acc.per_node.items() if math.isinf(sqnr)}  # torchao's compare_results
    assert exact, "nothing quantized: the converted graph computes exactly the float one"
    view = unpack(mimebundle(acc)[MIME])
    jsonschema.validate(view, VIEW_SCHEMA)
    values = view["panes"][0]["overlay"]["values"]
    assert {k for k, v in values.items() if v == "Infinity"} == exact
    rows = {r[0]: r[2] for r in view["tables"][0]["rows"]}
    assert all(rows[n] == "Infinity" for n in exact)
