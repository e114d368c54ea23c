"""A pl.workbench in the side panel's comm (docs/protocol.md, `workbench`): the panel reads the widget's own state,
its actions drive the same workbench object (and so the same widget), every change reaches the panel as an event,
and a step that ends moves the model's stages for the panel's stage tabs."""

import json

import jsonschema
import pytest
from kernel_client import kernel_fixture, run, subscribed_comm, value
from referencing import Registry, Resource

from pt2e_lens.schema import PROTOCOL_SCHEMA

REGISTRY = Registry().with_resources([(PROTOCOL_SCHEMA["$id"], Resource.from_contents(PROTOCOL_SCHEMA))])


def _valid(data, definition):
    ref = {"$ref": f"{PROTOCOL_SCHEMA['$id']}#/$defs/{definition}"}
    jsonschema.Draft202012Validator(ref, registry=REGISTRY).validate(data)
    return data


kernel = kernel_fixture()


def ok(reply):
    assert reply["ok"], reply.get("error")
    return reply["result"]


@pytest.fixture(scope="module")
def comm(kernel):
    comm = subscribed_comm(kernel)
    run(
        kernel,
        "wb = pl.workbench(get_model('conv_relu').eval(), example_inputs(2), calibration=calibration_batches(2, 2))",
    )
    return comm


def _event(kernel, comm, event, match):
    """The next event of that kind on the comm that `match`es its result (valid by the schema)."""
    msg = kernel.wait_for(
        lambda m: (
            m["msg_type"] == "comm_msg"
            and m["content"]["comm_id"] == comm
            and m["content"]["data"].get("event") == event
            and match(m["content"]["data"]["result"])
        ),
        timeout=300,
    )
    return _valid(msg["content"]["data"], "Event")["result"]


def test_a_workbench_is_a_model_with_no_stage_before_export(kernel, comm):
    models = _event(kernel, comm, "models", lambda r: r["current"] == "wb")
    [row] = [r for r in models["models"] if r["name"] == "wb"]
    assert (row["type"], row["stages"], row["stage"], row["node_count"]) == ("Workbench", [], "", 0)
    reply = kernel.request(comm, {"type": "get_stage", "name": "wb"})
    assert reply["error"]["code"] == "no_stage" and "\n" not in reply["error"]["message"]


def test_the_panel_reads_the_widgets_state_and_its_actions_drive_the_same_workbench(kernel, comm):
    got = _valid(ok(kernel.request(comm, {"type": "workbench", "name": "wb"})), "WorkbenchResult")
    assert got["name"] == "wb" and got["state"] == value(kernel, "_j.loads(wb.widget.state_json)")
    assert [s["name"] for s in got["state"]["steps"]] == value(kernel, "list(pl.stepwise.STEPS)")

    ok(kernel.request(comm, {"type": "workbench", "name": "wb", "action": "advance"}))
    ended = _event(kernel, comm, "workbench", lambda r: not r["state"]["busy"] and r["state"]["steps"][0]["done"])
    models = _event(kernel, comm, "models", lambda r: any(m["stages"] == ["exported"] for m in r["models"]))
    assert models["current"] == "wb"
    assert value(kernel, "wb.done") == ["export"] and value(kernel, "wb.run.stages") == ["exported"]
    # the widget the notebook shows holds what the panel was sent: both draw the same state
    assert ended["state"] == value(kernel, "_j.loads(wb.widget.state_json)")
    stage = ok(kernel.request(comm, {"type": "get_stage", "name": "wb"}))
    assert stage["stage"] == "exported"
    nodes = stage["view"]["panes"][0]["snapshot"]["nodes"]
    assert len(nodes) == value(kernel, "len(wb.run['exported'].graph_module.graph.nodes)")

    run(kernel, "wb.widget._worker.join()")  # its last redraw done: the widget takes one action at a time
    ok(kernel.request(comm, {"type": "workbench", "name": "wb", "action": "use", "value": "xnnpack_per_tensor"}))
    assert value(kernel, "wb.preset") == "xnnpack_per_tensor"


def test_a_bad_action_or_model_is_one_line(kernel, comm):
    run(kernel, "ep = torch.export.export(get_model('tiny').eval(), example_inputs())")
    reply = kernel.request(comm, {"type": "workbench", "name": "ep"})
    assert reply["error"]["code"] == "no_model" and "pl.workbench" in reply["error"]["message"]
    reply = kernel.request(comm, {"type": "workbench", "name": "wb", "action": "explode"})
    assert reply["error"]["code"] == "bad_field" and "\n" not in reply["error"]["message"]
    state = ok(kernel.request(comm, {"type": "workbench", "name": "wb", "action": "use", "value": "no_such"}))["state"]
    assert state["error"] and "\n" not in state["error"]  # the widget's own line, as its picker would get it
    assert json.loads(json.dumps(state)) == state
