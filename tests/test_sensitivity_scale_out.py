"""pl.sensitivity(executor=…): the sweep on a real 2-process Dask LocalCluster (started and closed here) gives
the serial table; the work really runs on the cluster's workers (its own task stream says so)."""

import warnings
from concurrent.futures import Executor

import pytest
from distributed import Client, LocalCluster, get_task_stream

import pt2e_lens as pl
from pt2e_lens.examples import OutlierNet, image_batches, xnnpack_quantizer


@pytest.fixture(scope="module")
def serial():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batches = image_batches(3)
        run = pl.capture(OutlierNet().eval(), batches[0], xnnpack_quantizer(), calibration=batches)
        return run, batches, pl.sensitivity(run, batches)


def _agree(a, b):  # top-1 agreement: a module-level function, as a worker needs it
    return float((a.argmax(1) == b.argmax(1)).float().mean())


def test_a_two_worker_local_cluster_gives_the_serial_table(serial):
    run, batches, table = serial
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            with Client(cluster) as client:
                executor = client.get_executor()
                assert isinstance(executor, Executor)  # the standard interface, nothing Dask-specific
                with get_task_stream(client) as stream:
                    spread = pl.sensitivity(run, batches, executor=executor, chunks=4)
                    with_metric = pl.sensitivity(run, batches, metric=_agree, only=False, executor=executor)
                workers = {t["worker"] for t in stream.data if "_work" in t["key"]}
    assert len(workers) == 2  # both worker processes computed chunks
    assert [s.id for s in spread.sites] == [s.id for s in table.sites]
    for mine, theirs in zip(table.rows, spread.rows):
        assert mine[:4] == theirs[:4]
        assert list(theirs[4:]) == pytest.approx(list(mine[4:]), rel=1e-6, abs=1e-6)
    assert spread.baseline_db == pytest.approx(table.baseline_db, rel=1e-6)
    assert all(0.0 <= v <= 1.0 for v in with_metric.column("metric_fp32"))
