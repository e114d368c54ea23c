"""Silence the load noise torch and torchao print on CPU machines (the course's `quiet()`)."""

from __future__ import annotations

import contextlib
import io
import logging
import os
import re
import sys
import tempfile
import warnings
from collections.abc import Iterator

# torchao logs "Failed to load <CUDA-only .so>" on CPU builds; torch's pytree logs an Enum
# registration deprecation when torchao registers its enums. Neither is actionable for users.
_NOISY_LOGGERS = ("torchao", "torch.utils._pytree", "torch._export", "torch.export")


@contextlib.contextmanager
def quiet_import():
    """Silence only the loggers that torchao's import talks through, then restore them."""
    loggers = [logging.getLogger(name) for name in _NOISY_LOGGERS[:2]]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


def quiet() -> None:
    """Silence torch/torchao load and export noise for the rest of the session."""
    for name in _NOISY_LOGGERS:
        logging.getLogger(name).setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", category=UserWarning, module=r"torch(ao)?(\.|$)")
    warnings.filterwarnings("ignore", category=FutureWarning, module=r"torch(ao)?(\.|$)")
    warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"torch(ao)?(\.|$)")
    # torch's pytree deprecation fires from copyreg whenever a GraphModule is deep-copied (ep.module())
    warnings.filterwarnings("ignore", message=r".*treespec, LeafSpec.*", category=FutureWarning)


@contextlib.contextmanager
def native_stderr_without(pattern: re.Pattern[str]) -> Iterator[None]:
    """Drop the lines matching `pattern` written to stderr inside the block — by native code to file descriptor 2,
    or through `sys.stderr` (ExecuTorch's Python runtime hands its C++ log to `sys.stderr.write` in fragments:
    "[", "cpuinfo_utils.cpp", ":", "87", "] " …, so lines are matched once the block is over); every other line is
    written to stderr after it. The runtime logs its CPU probing (`[cpuinfo_utils.cpp:87] Failed to open midr
    file …`): in a notebook a red block under every first run of a lowered program, nothing a user can act on."""
    try:
        fd = sys.__stderr__.fileno() if sys.__stderr__ else 2
    except (AttributeError, OSError, ValueError):
        fd = 2
    written = io.StringIO()
    with tempfile.TemporaryFile() as sink:
        saved = os.dup(fd)
        os.dup2(sink.fileno(), fd)
        try:
            with contextlib.redirect_stderr(written):
                yield
        finally:
            os.dup2(saved, fd)
            os.close(saved)
            sink.seek(0)
            text = sink.read().decode(errors="replace") + written.getvalue()
            kept = [ln for ln in text.splitlines(True) if not pattern.search(ln)]
            if kept:
                sys.stderr.write("".join(kept))
