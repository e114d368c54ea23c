"""pl.sensitivity(executor=ThreadPoolExecutor(…)): threads unpickle the gated copy one at a time (rebuilding a
GraphModule traces it with torch.fx's process-wide patcher), each has its own copy, and torch's thread count
is what it was. Afterwards every GraphModule of the process — the user's own too — still runs."""

import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch

import pt2e_lens as pl
from pt2e_lens.examples import OutlierNet, image_batches, xnnpack_quantizer


@pytest.fixture(scope="module")
def outlier():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batches = image_batches(3)
        model = OutlierNet().eval()
        ep = torch.export.export(model, batches[0])
        run = pl.capture(model, batches[0], xnnpack_quantizer(), calibration=batches)
        serial = pl.sensitivity(run, batches)
    return run, batches, serial, ep


def test_thread_executor_sweeps_equal_the_serial_one_and_leave_graph_modules_working(outlier):
    run, batches, serial, ep = outlier
    users = ep.module()  # the user's own GraphModule, made before the sweeps
    traced = torch.fx.symbolic_trace(torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU()))
    expected = users(*batches[0])
    call, threads = torch.nn.Module.__call__, torch.get_num_threads()
    with ThreadPoolExecutor(2) as pool:
        for _ in range(6):
            table = pl.sensitivity(run, batches, executor=pool, chunks=4)
            assert table.rows == serial.rows
    assert torch.nn.Module.__call__ is call  # torch.fx's patcher put back what it found
    assert torch.get_num_threads() == threads
    assert torch.equal(users(*batches[0]), expected)
    assert torch.equal(ep.module()(*batches[0]), expected)
    assert traced(torch.ones(2, 4)).shape == (2, 4)
