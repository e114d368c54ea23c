"""`Snapshot.from_json` checks a saved document against the contract: a valid Snapshot, or one Pt2eLensError line."""

import copy
import json

import jsonschema
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import pt2e_lens as pl
from pt2e_lens.schema import PROTOCOL_SCHEMA, VIEW_SCHEMA
from pt2e_lens.schema.check import KEYWORDS, schema_error

SNAPSHOT_SCHEMA = {**VIEW_SCHEMA, "oneOf": [{"$ref": "#/$defs/Snapshot"}]}


@pytest.fixture(scope="module")
def prepared(composable_run):
    """A real snapshot with specs, annotations, observers (calibrated) and every reference kind."""
    return json.loads(composable_run["calibrated"].snapshot.to_json())


@pytest.fixture(scope="module")
def converted(composable_run):
    return json.loads(composable_run["converted"].snapshot.to_json())


def refused(text) -> str:
    with pytest.raises(pl.Pt2eLensError) as info:
        pl.Snapshot.from_json(text)
    message = str(info.value)
    assert "\n" not in message and len(message) < 400
    return message


def test_every_stage_round_trips(composable_run):
    for stage in composable_run:
        snap = stage.snapshot
        again = pl.Snapshot.from_json(snap.to_json())
        assert again.data == json.loads(snap.to_json())
        assert again.users == snap.users and again.inputs == snap.inputs


def test_header_only():
    msg = refused(json.dumps({"format": "pt2e-lens.snapshot", "schema_version": 1}))
    assert msg.startswith('not a valid pt2e-lens snapshot: snapshot: missing the field "stage"')


@pytest.mark.parametrize(
    "where, edit",
    [
        ("edges[0].dst", lambda d: d["edges"][0].update(dst="ghost")),
        ("annotations[0].node", lambda d: d["annotations"][0].update(node="ghost")),
        ("observers[0].nodes[0]", lambda d: d["observers"][0]["nodes"].__setitem__(0, "ghost")),
        ("observers[0].observes", lambda d: d["observers"][0].update(observes="ghost")),
    ],
)
def test_unknown_node_ids(prepared, where, edit):
    data = copy.deepcopy(prepared)
    edit(data)
    assert f"{where}: 'ghost' is not a node id of this snapshot" in refused(json.dumps(data))


def test_unknown_ids_in_qdq_and_specs(converted, prepared):
    data = copy.deepcopy(converted)
    assert data["qdq"], "the converted tiny model has q/dq nodes"
    data["qdq"][0]["node"] = "ghost"
    assert "qdq[0].node: 'ghost' is not a node id" in refused(json.dumps(data))
    data = copy.deepcopy(prepared)
    data["annotations"][0]["output"] = "s99"
    assert "'s99' is not a spec id" in refused(json.dumps(data))
    data = copy.deepcopy(prepared)
    data["nodes"][1]["id"] = data["nodes"][0]["id"]
    assert "appears twice" in refused(json.dumps(data))


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_nan_and_infinity(prepared, constant):
    text = json.dumps(prepared).replace('"node_count": ', f'"nan_here": {constant}, "node_count": ', 1)
    assert "not a pt2e-lens snapshot" in refused(text)


def test_deep_nesting_is_refused_before_parsing(prepared):
    deep = "[" * 100_000 + "]" * 100_000
    assert "nested 100,000 levels deep" in refused(deep)
    text = json.dumps(prepared).replace('"node_count": ', f'"deep": {deep}, "node_count": ', 1)
    assert "nested 100,002 levels deep" in refused(text)
    # brackets inside strings do not count
    data = copy.deepcopy(prepared)
    data["nodes"][0]["source"] = "[" * 1000
    assert pl.Snapshot.from_json(json.dumps(data)).nodes[0]["source"] == "[" * 1000


@pytest.mark.parametrize(
    "edit, where",
    [
        (lambda d: d["nodes"][0].update(id=3), "snapshot.nodes[0].id: expected string, got integer 3"),
        (lambda d: d["edges"][0].update(arg="0"), 'snapshot.edges[0].arg: expected integer, got string "0"'),
        (lambda d: d["edges"][0].update(arg=True), "snapshot.edges[0].arg: expected integer, got boolean true"),
        (lambda d: d["edges"][0].update(arg=-1), "snapshot.edges[0].arg: expected at least 0, got -1"),
        (lambda d: d.update(nodes={}), "snapshot.nodes: expected array, got object {}"),
        (
            lambda d: d["observers"][0].update(min="low"),
            'snapshot.observers[0].min: expected null or array, got string "low"',
        ),
        (lambda d: d.update(schema_version=True), "schema_version True is not supported"),
        (lambda d: d.update(extra=1), 'snapshot: unknown field "extra"'),
    ],
)
def test_wrong_types(prepared, edit, where):
    data = copy.deepcopy(prepared)
    edit(data)
    assert where in refused(json.dumps(data))


@pytest.mark.parametrize("junk", [None, 42, b"\xff\xfe", "", "[]", "{}", '"pt2e-lens.snapshot"'])
def test_junk(junk):
    assert refused(junk).startswith(("not a pt2e-lens snapshot", "snapshot schema_version"))


# -- fuzz: any edit of a real document ends in a valid Snapshot or one Pt2eLensError line

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def _containers(x, out):
    if isinstance(x, (dict, list)):
        out.append(x)
        for v in x.values() if isinstance(x, dict) else x:
            _containers(v, out)
    return out


def same_type(value):
    """A value of the same JSON type: such edits keep the shape and test the ids and the loader's output."""
    if isinstance(value, bool) or value is None:
        return st.just(value) | st.booleans()
    if isinstance(value, int):
        return st.integers(-2, 1000)
    if isinstance(value, float):
        return st.floats(allow_nan=False, allow_infinity=False)
    if isinstance(value, str):
        return st.text(max_size=8) | st.just(value + "_")
    return st.just(copy.deepcopy(value))


@st.composite
def edited(draw, base):
    data = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from(_containers(data, [])))
        if isinstance(target, dict):
            key = draw(st.sampled_from(sorted(target)) | st.text(max_size=6)) if target else draw(st.text(max_size=6))
            how = draw(st.sampled_from(["drop", "any", "same_type", "same_type"]))
            if how == "drop":
                target.pop(key, None)
            elif how == "same_type" and key in target:
                target[key] = draw(same_type(target[key]))
            else:
                target[key] = draw(json_values)
        elif target and draw(st.booleans()):
            target[draw(st.integers(0, len(target) - 1))] = draw(json_values)
        else:
            target.append(draw(json_values))
    return data


def _valid_snapshot(snap):
    assert isinstance(snap, pl.Snapshot)
    jsonschema.Draft202012Validator(SNAPSHOT_SCHEMA).validate(snap.data)
    assert set(snap.users) == set(snap.inputs) == set(snap.node)  # the indexes analyses use build
    repr(snap)


def _keywords(s, out):
    if isinstance(s, dict):
        for k, v in s.items():
            out.add(k)
            for sub in v.values() if k in ("$defs", "properties") else [v]:
                _keywords(sub, out)
    elif isinstance(s, list):
        for x in s:
            _keywords(x, out)
    return out


def test_our_checker_knows_every_keyword_the_schemas_use():
    used = _keywords(VIEW_SCHEMA, set()) | _keywords(PROTOCOL_SCHEMA, set())
    assert used <= KEYWORDS, used - KEYWORDS


@settings(deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzz_edited_documents(prepared, data):
    doc = data.draw(edited(prepared))
    # our small checker (pt2e_lens.schema.check) agrees with jsonschema, the reference implementation
    ours = schema_error(doc, VIEW_SCHEMA, "Snapshot") is None
    assert ours == jsonschema.Draft202012Validator(SNAPSHOT_SCHEMA).is_valid(doc), schema_error(
        doc, VIEW_SCHEMA, "Snapshot"
    )
    try:
        snap = pl.Snapshot.from_json(json.dumps(doc))
    except pl.Pt2eLensError as e:
        assert "\n" not in str(e)
        event("refused")
        return
    event("accepted")
    _valid_snapshot(snap)


@settings(deadline=None)
@given(text=st.text(max_size=200) | st.binary(max_size=200) | json_values.map(json.dumps))
def test_fuzz_any_text(text):
    try:
        snap = pl.Snapshot.from_json(text)
    except pl.Pt2eLensError as e:
        assert "\n" not in str(e)
        event("refused")
        return
    event("accepted")
    _valid_snapshot(snap)
