"""A real ipykernel driven through jupyter_client, importing pt2e_lens from this worktree."""

from __future__ import annotations

import json
import os
import queue
import time
import uuid
from pathlib import Path

from jupyter_client.manager import KernelManager

KERNEL_PKG = str(Path(__file__).resolve().parents[1] / "kernel_pkg")
TARGET = "pt2e-lens"


class Kernel:
    def __init__(self):
        self.km = KernelManager(kernel_name="python3")
        env = {**os.environ, "PYTHONPATH": KERNEL_PKG, "PYTHONWARNINGS": "ignore"}
        self.km.start_kernel(env=env)
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=60)
        self.pending: list[dict] = []  # iopub messages read while waiting for something else

    def stop(self) -> None:
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)

    def restart(self) -> None:
        self.km.restart_kernel(now=True)
        self.kc.wait_for_ready(timeout=60)
        self.pending.clear()

    # -- iopub
    def _next(self, timeout: float) -> dict:
        return self.kc.get_iopub_msg(timeout=timeout)

    def wait_for(self, match, timeout: float = 60) -> dict:
        for i, msg in enumerate(self.pending):
            if match(msg):
                return self.pending.pop(i)
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching iopub message")
            try:
                msg = self._next(left)
            except queue.Empty:
                continue
            if match(msg):
                return msg
            self.pending.append(msg)

    # -- code
    def execute(self, code: str, timeout: float = 120) -> dict:
        """Run code; returns {"ok", "stdout", "stderr", "error", "results": [data bundles]}."""
        msg_id = self.kc.execute(code)
        out = {"stdout": "", "stderr": "", "error": None, "results": []}
        kinds = ("stream", "execute_result", "display_data", "error", "status")
        mine = lambda m: m["parent_header"].get("msg_id") == msg_id and m["msg_type"] in kinds  # noqa: E731
        while True:
            msg = self.wait_for(mine, timeout)
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                out[content["name"]] += content["text"]
            elif kind in ("execute_result", "display_data"):
                out["results"].append(content["data"])
            elif kind == "error":
                out["error"] = f"{content['ename']}: {content['evalue']}"
            elif kind == "status" and content["execution_state"] == "idle":
                break
        out["ok"] = out["error"] is None
        return out

    # -- comms
    def open_comm(self, data: dict | None = None) -> tuple[str, dict]:
        """Open a pt2e-lens comm; returns (comm_id, first message: the hello event or the comm_close)."""
        comm_id = uuid.uuid4().hex
        msg = self.kc.session.msg("comm_open", {"comm_id": comm_id, "target_name": TARGET, "data": data or {}})
        self.kc.shell_channel.send(msg)
        first = self.wait_for(
            lambda m: m["msg_type"] in ("comm_msg", "comm_close") and m["content"]["comm_id"] == comm_id
        )
        return comm_id, first

    def send(self, comm_id: str, data) -> None:
        self.kc.shell_channel.send(self.kc.session.msg("comm_msg", {"comm_id": comm_id, "data": data}))

    def request(self, comm_id: str, data, timeout: float = 60) -> dict:
        """Send one request and return its reply's data (replies echo the request's id)."""
        rid = data.get("id") if isinstance(data, dict) else None
        if isinstance(data, dict) and rid is None:
            rid = data["id"] = uuid.uuid4().hex
        self.send(comm_id, data)
        msg = self.wait_for(
            lambda m: (
                m["msg_type"] == "comm_msg"
                and m["content"]["comm_id"] == comm_id
                and m["content"]["data"].get("type") == "reply"
                and m["content"]["data"].get("id") == rid
            ),
            timeout,
        )
        return msg["content"]["data"]

    def events(self, comm_id: str, event: str) -> list[dict]:
        """Every event of that kind already received on that comm (taken out of the pending list)."""
        while True:
            try:
                self.pending.append(self._next(0.2))
            except queue.Empty:
                break
        hits = [
            m
            for m in self.pending
            if m["msg_type"] == "comm_msg"
            and m["content"]["comm_id"] == comm_id
            and m["content"]["data"].get("event") == event
        ]
        self.pending = [m for m in self.pending if m not in hits]
        return [m["content"]["data"] for m in hits]


def run(kernel: Kernel, code: str) -> dict:
    """Run code that must succeed; its output (Kernel.execute)."""
    out = kernel.execute(code)
    assert out["ok"], out
    return out


def value(kernel: Kernel, expr: str):
    """The value of a JSON-able expression in the kernel."""
    return json.loads(run(kernel, f"import json as _j; print(_j.dumps({expr}))")["stdout"])


def subscribed_comm(kernel: Kernel) -> str:
    """%load_ext pt2e_lens, then a pt2e-lens comm whose first message is the hello event of protocol 1, subscribed to
    the kernel's events; its id."""
    run(kernel, "%load_ext pt2e_lens")
    comm_id, first = kernel.open_comm()
    hello = first["content"]["data"]
    assert hello["type"] == "event" and hello["event"] == "hello" and hello["result"]["protocol"] == 1, first
    reply = kernel.request(comm_id, {"type": "subscribe"})
    assert reply["ok"], reply.get("error")
    return comm_id


SETUP = """
import torch, pt2e_lens as pl
from pt2e_lens.examples import get_model, example_inputs, calibration_batches, ConvReluQuantizer
"""


def kernel_fixture():
    """A module-scoped `kernel` fixture: a fresh kernel per test module, SETUP already run."""
    import pytest

    @pytest.fixture(scope="module")
    def kernel():
        k = Kernel()
        assert k.execute(SETUP)["ok"]
        yield k
        k.stop()

    return kernel
