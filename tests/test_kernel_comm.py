"""The pt2e-lens comm protocol against a real kernel (docs/protocol.md)."""

import json
from pathlib import Path

import jsonschema
import pytest
from kernel_client import SETUP, kernel_fixture, run, subscribed_comm, value

from pt2e_lens.schema import SCHEMA_VERSION

kernel = kernel_fixture()

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "kernel_pkg/pt2e_lens/schema/view.schema.json").read_text())


def ok(reply):
    assert reply["ok"], reply.get("error")
    return reply["result"]


def err(reply, code):
    assert not reply["ok"] and reply["error"]["code"] == code, reply
    assert reply["error"]["message"]
    return reply["error"]["message"]


@pytest.fixture(scope="module")
def comm(kernel):
    comm_id, first = kernel.open_comm()
    assert first["msg_type"] == "comm_close", "the target must not exist before %load_ext"
    return subscribed_comm(kernel)


def test_hello_and_versions(kernel, comm):
    res = ok(kernel.request(comm, {"type": "hello", "protocol": 1}))
    assert res["schema_version"] == SCHEMA_VERSION and "get_stage" in res["requests"]
    err(kernel.request(comm, {"type": "hello", "protocol": 99}), "protocol_mismatch")


def test_current_model_is_the_newest_run(kernel, comm):
    assert ok(kernel.request(comm, {"type": "list_models"}))["current"] is None
    run(kernel, "ep = torch.export.export(get_model('tiny').eval(), example_inputs())")
    [event] = kernel.events(comm, "models")
    assert event["result"]["current"] == "ep"
    [row] = event["result"]["models"]
    revision = row.pop("revision")
    assert row == {
        "name": "ep",
        "type": "ExportedProgram",
        "node_count": 47,
        "stages": ["exported"],
        "stage": "exported",
    }
    run(kernel, "run = pl.capture(ep, None, ConvReluQuantizer(), calibration=calibration_batches(2))")
    [event] = kernel.events(comm, "models")
    assert event["result"]["current"] == "run"
    row = event["result"]["models"][1]
    assert row["type"] == "Run" and row["stage"] == "converted" and row["stages"][0] == "exported"
    run(kernel, "x = 1 + 1")  # changes no model: no event
    assert kernel.events(comm, "models") == []
    run(kernel, "gm = ep.module()")  # touched last: a graph after a Run takes over (issue 26.4)
    [event] = kernel.events(comm, "models")
    assert event["result"]["current"] == "gm" and "gm" in [m["name"] for m in event["result"]["models"]]
    run(kernel, "run")  # the cell shows the Run: it is current again
    [event] = kernel.events(comm, "models")
    assert event["result"]["current"] == "run"
    run(kernel, "import torchao.quantization.pt2e.quantize_pt2e as qp\ngm = qp.prepare_pt2e(gm, ConvReluQuantizer())")
    [event] = kernel.events(comm, "models")
    [gm] = [m for m in event["result"]["models"] if m["name"] == "gm"]
    assert gm["stage"] == "prepared" and gm["revision"] > revision
    run(kernel, "del gm")
    [event] = kernel.events(comm, "models")
    assert event["result"]["current"] == "run" and "gm" not in [m["name"] for m in event["result"]["models"]]


def test_pinning(kernel, comm):
    res = ok(kernel.request(comm, {"type": "select_model", "name": "ep"}))
    assert res["current"] == "ep" and res["pinned"] == "ep"
    run(kernel, "gm2 = ep.module()")
    assert kernel.events(comm, "models")[-1]["result"]["current"] == "ep"
    run(kernel, "%pt2e watch --auto")
    assert kernel.events(comm, "models")[-1]["result"]["current"] == "gm2"  # the one touched last
    run(kernel, "pl.show(run)")
    assert kernel.events(comm, "models")[-1]["result"]["current"] == "run"
    run(kernel, "%pt2e watch gm2")
    assert kernel.events(comm, "models")[-1]["result"]["current"] == "gm2"
    run(kernel, "%pt2e watch run")
    assert kernel.events(comm, "models")[-1]["result"]["current"] == "run"
    err(kernel.request(comm, {"type": "select_model", "name": "nope"}), "no_model")
    ok(kernel.request(comm, {"type": "select_model", "name": None}))
    run(kernel, "del gm2")
    kernel.events(comm, "models")


def test_get_stage_matches_torchao(kernel, comm):
    res = ok(kernel.request(comm, {"type": "get_stage", "name": "run", "stage": "prepared"}))
    assert res["collapsed"] is False
    view = res["view"]
    jsonschema.validate(view, SCHEMA)
    snap = view["panes"][0]["snapshot"]
    n_obs = value(
        kernel,
        "len({id(m) for m in run['prepared'].graph_module.modules() "
        "if isinstance(m, __import__('torchao').quantization.pt2e.ObserverBase)})",
    )
    assert len(snap["observers"]) == n_obs == 9
    tables = {t["name"]: t for t in view["tables"]}
    assert len(tables["observers"]["rows"]) == 9
    annotated = ok(kernel.request(comm, {"type": "get_stage", "name": "run", "stage": "annotated"}))["view"]
    n_ann = value(kernel, "sum('quantization_annotation' in n.meta for n in run['annotated'].graph_module.graph.nodes)")
    assert len(annotated["panes"][0]["snapshot"]["annotations"]) == n_ann == 6
    current = ok(kernel.request(comm, {"type": "get_stage"}))  # default: the current model, newest stage
    assert current["name"] == "run" and current["stage"] == "converted"
    err(kernel.request(comm, {"type": "get_stage", "name": "run", "stage": "decomposed"}), "no_stage")


def test_large_graphs_go_out_in_parts(kernel, comm):
    ok(kernel.request(comm, {"type": "hello", "max_bytes": 20000}))
    try:
        res = ok(kernel.request(comm, {"type": "get_stage", "name": "run", "stage": "prepared"}))
        assert res["collapsed"] and res["view"] is None
        names = value(kernel, "[n.name for n in run['prepared'].graph_module.graph.nodes]")
        assert [n[0] for n in res["outline"]["nodes"]] == names
        stacks = res["outline"]["stacks"]
        stem = [i for i, (_, _, s) in enumerate(res["outline"]["nodes"]) if stacks[s] and stacks[s][0][0] == "stem"]
        ask = {"type": "get_stage", "name": "run", "stage": "prepared", "group": "stem"}
        part = ok(kernel.request(comm, {**ask, "nodes": [[i, i + 1] for i in stem]}))
        assert part["collapsed"] is False
        jsonschema.validate(part["view"], SCHEMA)
        snap = part["view"]["panes"][0]["snapshot"]
        assert snap["meta"]["partial"]["group"] == "stem" and snap["meta"]["partial"]["boundary"]
        assert {names[i] for i in stem} <= {n["id"] for n in snap["nodes"]}
        assert "stem" in part["view"]["title"]
        err(kernel.request(comm, {**ask, "nodes": [[0, 10**6]]}), "bad_field")
    finally:
        ok(kernel.request(comm, {"type": "hello", "max_bytes": 4 * 1024 * 1024}))


def test_node_details_and_diff(kernel, comm):
    res = ok(kernel.request(comm, {"type": "get_node", "name": "run", "stage": "annotated", "node": "conv2d"}))
    assert res["node"]["target"] == "conv2d" and res["annotation"]["node"] == "conv2d" and len(res["specs"]) == 2
    err(kernel.request(comm, {"type": "get_node", "name": "run", "node": "conv2"}), "no_node")
    diff = ok(kernel.request(comm, {"type": "get_diff", "name": "run", "from": "exported", "to": "converted"}))
    jsonschema.validate(diff["view"], SCHEMA)
    assert diff["view"]["mode"] == "compare" and diff["view"]["diffs"][0]["added"]


def test_report_comes_back_as_text(kernel, comm):
    res = ok(kernel.request(comm, {"type": "get_report", "name": "run"}))
    assert res["filename"] == "run-pt2e-lens.html" and res["html"].startswith("<!doctype html>")
    err(kernel.request(comm, {"type": "get_report", "name": "x"}), "no_model")


@pytest.mark.parametrize(
    "data, code",
    [
        ("get_stage", "malformed"),
        ([1, 2], "malformed"),
        ({}, "unknown_request"),
        ({"type": "exec", "code": "import os"}, "unknown_request"),
        ({"type": "get_stage", "name": 3}, "bad_field"),
        ({"type": "get_stage", "code": "1"}, "bad_field"),
        ({"type": "get_node"}, "bad_field"),
        ({"type": "hello", "protocol": True}, "bad_field"),
        ({"type": "get_stage", "name": "__import__('os').system('touch /tmp/pwned')"}, "no_model"),
        ({"type": "list_models", "pad": "x" * 70000}, "malformed"),
    ],
)
def test_bad_requests_get_an_error_reply(kernel, comm, data, code):
    err(kernel.request(comm, data), code)
    assert run(kernel, "print(1 + 1)")["stdout"] == "2\n"
    assert not Path("/tmp/pwned").exists()


def test_odd_namespace_objects_do_not_break_cells(kernel, comm):
    out = run(
        kernel,
        "class Weird:\n    __class__ = property(lambda self: 1 / 0)\nw = Weird()\nglobals()[''] = 1\nglobals()[7] = 2",
    )
    assert out["stderr"] == ""
    run(kernel, "gm9 = ep.module()")
    assert "gm9" in [m["name"] for m in kernel.events(comm, "models")[-1]["result"]["models"]]
    run(kernel, "del w, gm9, globals()[''], globals()[7]")
    kernel.events(comm, "models")


def test_every_open_comm_gets_updates(kernel, comm):
    other, first = kernel.open_comm()
    assert first["content"]["data"]["event"] == "hello"
    ok(kernel.request(other, {"type": "subscribe"}))
    run(kernel, "ep3 = ep.run_decompositions({})")
    for c in (comm, other):
        assert "ep3" in [m["name"] for m in kernel.events(c, "models")[-1]["result"]["models"]]
    kernel.kc.shell_channel.send(kernel.kc.session.msg("comm_close", {"comm_id": other, "data": {}}))
    run(kernel, "del ep3")
    assert kernel.events(comm, "models")


def test_reload_closes_old_comms_and_serves_new_ones(kernel, comm):
    other, _ = kernel.open_comm()
    run(kernel, "%reload_ext pt2e_lens")
    kernel.wait_for(lambda m: m["msg_type"] == "comm_close" and m["content"]["comm_id"] == other, timeout=10)
    fresh, first = kernel.open_comm()
    assert first["content"]["data"]["event"] == "hello"
    assert ok(kernel.request(fresh, {"type": "list_models"}))["current"] == "run"


def test_restart_drops_the_backend_until_loaded_again(kernel, comm):
    kernel.restart()
    _, first = kernel.open_comm()
    assert first["msg_type"] == "comm_close"
    run(kernel, SETUP + "\n%load_ext pt2e_lens")
    fresh, first = kernel.open_comm()
    assert first["content"]["data"]["event"] == "hello"
    assert ok(kernel.request(fresh, {"type": "list_models"}))["models"] == []
