"""The comm protocol against protocol.schema.json: what the kernel sends matches it, what it receives is checked
against it, and no message (fuzzed) raises out of the handler or changes the kernel's state when refused."""

import json

import jsonschema
import pytest
import torch
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from referencing import Registry, Resource

from pt2e_lens.examples import example_inputs, get_model
from pt2e_lens.kernel.comm import MAX_REQUEST_BYTES, REQUESTS, Backend
from pt2e_lens.kernel.tracker import Tracker
from pt2e_lens.schema import PROTOCOL_SCHEMA, VIEW_SCHEMA

REGISTRY = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in (VIEW_SCHEMA, PROTOCOL_SCHEMA))
# which result each request's reply carries (the request's description says the same)
RESULT = {
    "hello": "Hello",
    "list_models": "Models",
    "select_model": "Models",
    "subscribe": "Models",
    "unsubscribe": "Models",
    "get_stage": "StageResult",
    "get_node": "NodeResult",
    "get_diff": "DiffResult",
    "get_report": "ReportResult",
    "workbench": "WorkbenchResult",
}
REFUSALS = {"malformed", "unknown_request", "bad_field"}


def validate(data, definition):
    ref = {"$ref": f"{PROTOCOL_SCHEMA['$id']}#/$defs/{definition}"}
    jsonschema.Draft202012Validator(ref, registry=REGISTRY).validate(data)


class FakeComm:
    def __init__(self, comm_id):
        self.comm_id = comm_id
        self.sent = []

    def on_msg(self, handler):
        self.handler = handler

    def on_close(self, handler):
        self.closer = handler

    def send(self, data):
        self.sent.append(json.loads(json.dumps(data)))  # what the wire carries


@pytest.fixture(scope="module")
def ep():
    return torch.export.export(get_model("conv_relu").eval(), example_inputs(2))


def open_backend(namespace):
    tracker = Tracker(namespace)
    tracker.poll()
    backend = Backend(tracker)
    comm = FakeComm("c1")
    backend.open(comm)
    return backend, comm


def send(comm, data):
    comm.handler({"content": {"data": data}})
    return comm.sent[-1]


def test_the_schema_allow_list_is_what_the_kernel_serves():
    assert set(RESULT) == set(REQUESTS)
    _, comm = open_backend({})
    assert sorted(RESULT) == comm.sent[0]["result"]["requests"]


def test_every_reply_and_event_matches_the_schema(ep):
    backend, comm = open_backend({"ep": ep})
    other = FakeComm("c2")
    backend.open(other)
    send(other, {"type": "subscribe"})
    requests = [
        {"type": "hello", "protocol": 1, "max_bytes": 1 << 20, "id": "h"},
        {"type": "list_models", "id": 7},
        {"type": "select_model", "name": "ep"},
        {"type": "get_stage"},
        {"type": "get_node", "name": "ep", "node": "x"},
        {"type": "get_diff", "from": "exported", "to": "exported"},
        {"type": "get_report"},
        {"type": "subscribe"},
        {"type": "unsubscribe"},
        {"type": "select_model", "name": None},
    ]
    for request in requests:
        reply = send(comm, request)
        validate(reply, "Reply")
        assert reply["ok"], reply
        assert reply["id"] == request.get("id") and reply["request"] == request["type"]
        validate(reply["result"], RESULT[request["type"]])
    validate(comm.sent[0], "HelloEvent")
    events = [m for m in other.sent if m["type"] == "event"]
    assert [e["event"] for e in events] == ["hello", "models", "models"]  # hello, then both select_model
    for e in events[1:]:
        validate(e, "ModelsEvent")


def kernel_state(backend):
    t = backend.tracker
    entries = {n: (e.version, e.changed_at, tuple(e.cache)) for n, e in t.entries.items()}
    clients = {cid: (c.subscribed, c.max_bytes) for cid, c in backend.clients.items()}
    return t.pinned, t.current, t.tick, entries, clients


@pytest.mark.parametrize(
    "data, code",
    [
        ("get_stage", "malformed"),
        ([1, 2], "malformed"),
        (None, "malformed"),
        ({"type": "list_models", "pad": "x" * (MAX_REQUEST_BYTES + 1)}, "malformed"),
        ({}, "unknown_request"),
        ({"type": 3}, "unknown_request"),
        ({"type": "exec", "code": "import os"}, "unknown_request"),
        ({"type": "get_stage", "name": 3}, "bad_field"),
        ({"type": "get_stage", "code": "1"}, "bad_field"),
        ({"type": "get_node"}, "bad_field"),
        ({"type": "hello", "protocol": True}, "bad_field"),
        ({"type": "hello", "max_bytes": 1.5}, "bad_field"),
        ({"type": "select_model"}, "bad_field"),
        ({"type": "subscribe", "id": [1]}, "bad_field"),
        ({"type": "select_model", "name": "ep", "id": True}, "bad_field"),
    ],
)
def test_a_refused_message_changes_nothing(ep, data, code):
    backend, comm = open_backend({"ep": ep})
    before = kernel_state(backend)
    reply = send(comm, data)
    validate(reply, "ErrorReply")
    assert reply["error"]["code"] == code
    assert "\n" not in reply["error"]["message"]
    assert kernel_state(backend) == before


# -- fuzz: any JSON on the comm gets exactly one schema-valid reply; a refused one changes nothing

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
field_names = st.sampled_from(["id", "name", "stage", "group", "node", "from", "to", "protocol", "max_bytes"])
requests = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    st.sampled_from(sorted(REQUESTS)) | st.text(max_size=8),
    st.dictionaries(field_names | st.text(max_size=6), json_values, max_size=3),
)


@pytest.fixture(scope="module")
def fuzzed(ep):
    backend, comm = open_backend({"ep": ep})
    send(comm, {"type": "get_stage"})  # warm the caches: the fuzz then compares state, not first-build cost
    return backend, comm


@settings(deadline=None, suppress_health_check=list(HealthCheck))
@given(data=requests | json_values)
def test_fuzz_messages(fuzzed, data):
    backend, comm = fuzzed
    before = kernel_state(backend)
    sent = len(comm.sent)
    reply = send(comm, data)  # an exception here fails the test: none may escape the handler
    assert len(comm.sent) == sent + 1
    validate(reply, "Reply")
    event(reply["error"]["code"] if not reply["ok"] else "ok")
    if reply["ok"]:
        validate(reply["result"], RESULT[data["type"]])
    else:
        assert "\n" not in reply["error"]["message"]
        assert reply["error"]["code"] != "internal", reply["error"]
        if reply["error"]["code"] in REFUSALS:
            assert kernel_state(backend) == before
    # leave the shared backend as the next example expects it
    backend.tracker.pinned = before[0]
    for cid, (subscribed, max_bytes) in before[4].items():
        backend.clients[cid].subscribed, backend.clients[cid].max_bytes = subscribed, max_bytes
