"""Running the lowered program the way a device would: `edge.to_executorch()` through ExecuTorch's runtime."""

from __future__ import annotations

import re
from typing import Any

import torch

from .. import i18n
from .._quiet import native_stderr_without
from ..errors import Pt2eLensError, first_line

# ExecuTorch's runtime probing the CPU on its first run (its C++ log lines, e.g. "[cpuinfo_utils.cpp:87] …")
CPUINFO_LINE = re.compile(r"^\[cpuinfo_utils\.cpp:\d+\]")


class ExecuTorchRunner:
    """`runner(*inputs)` → what the ExecuTorch program computes (a tensor, or a tuple for several outputs).

    The program is serialized and loaded on the first call: `lower()` alone never pays for it.
    """

    def __init__(self, edge: Any, shapes: list[tuple[int, ...]]):
        self.edge = edge  # the private EdgeProgramManager lower() read (get_delegation_info reads it too)
        self.shapes = shapes  # the input shapes the program was exported with (static unless asked)
        self._buffer: bytes | None = None
        self._program: Any = None
        self._method: Any = None

    def _load(self) -> Any:
        if self._method is None:
            from executorch.runtime import Runtime

            # the loaded method reads the program's bytes: keep both alive as long as the method
            self._buffer = self.edge.to_executorch().buffer
            with native_stderr_without(CPUINFO_LINE):  # the runtime probes the CPU as it loads, once
                self._program = Runtime.get().load_program(self._buffer)
                self._method = self._program.load_method("forward")
        return self._method

    def __call__(self, *inputs: Any) -> Any:
        tensors = [x.contiguous() if isinstance(x, torch.Tensor) else x for x in inputs]
        try:
            outputs = self._load().execute(tensors)
        except Exception as e:
            got = ", ".join(str(tuple(x.shape)) for x in tensors if isinstance(x, torch.Tensor))
            expected = ", ".join(str(s) for s in self.shapes)
            raise Pt2eLensError(
                i18n.t("error.xnnpack_run_failed", reason=first_line(e), got=got, expected=expected), original=e
            ) from None
        return outputs[0] if len(outputs) == 1 else tuple(outputs)
