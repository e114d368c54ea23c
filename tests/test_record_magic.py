"""`%%pt2e record [NAME]` in a real kernel: the cell's own code recorded, its Run as NAME, the panel follows it."""

import pytest
from kernel_client import kernel_fixture, run, subscribed_comm, value

kernel = kernel_fixture()

CELL = """%%pt2e record mine
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
from torchao.quantization.pt2e import ObserverBase
ep = torch.export.export(get_model('tiny').eval(), example_inputs(2))
prepared = prepare_pt2e(ep.module(), ConvReluQuantizer())
n_observers = sum(isinstance(m, ObserverBase) for m in prepared.modules())
for (x,) in calibration_batches(3, 2):
    prepared(x)
converted = convert_pt2e(prepared)
n_qdq = sum('quantize_per' in str(n.target) for n in converted.graph.nodes)
"""


@pytest.fixture(scope="module")
def comm(kernel):
    return subscribed_comm(kernel)


def test_record_cell_names_its_run_and_the_panel_follows(kernel, comm):
    out = run(kernel, CELL)
    assert "Recorded 1 run(s) as mine" in out["stdout"]
    assert value(kernel, "type(mine).__name__") == "Run"
    # the counts the cell's own code took of torchao's graphs
    got = value(
        kernel, "[len(mine['prepared'].snapshot.observers), n_observers, len(mine['converted'].snapshot.qdq), n_qdq]"
    )
    assert got[0] == got[1] > 0 and got[2] == got[3] > 0
    event = kernel.events(comm, "models")[-1]
    assert event["result"]["current"] == "mine"
    # after the cell, torchao's own code again (the trampoline's file is "<pt2e_lens.record>")
    assert value(kernel, "prepare_pt2e.__code__.co_filename").endswith("quantize_pt2e.py")


def test_record_needs_a_cell(kernel, comm):
    for code in ("%pt2e record", "%%pt2e record\n   \n"):
        out = kernel.execute(code)
        assert out["stderr"].startswith("UsageError: ") and out["stderr"].count("\n") == 1, out
        assert "needs the cell's code" in out["stderr"]
