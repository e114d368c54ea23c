"""Cancel a step mid-way as Ctrl-C would: a KeyboardInterrupt raised in the thread that runs it.

The widget runs steps in a worker thread, where no Ctrl-C arrives; `CPython`'s `PyThreadState_SetAsyncExc` raises
the exception there at its next Python bytecode (torch.export, prepare_pt2e, convert_pt2e and lowering are mostly
Python, so this is soon). It is posted only while the step's body runs (a lock guards the start and end), and one
posted too late to land inside the body is withdrawn, so nothing after the step ever sees it.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def _post(thread_id: int, exc: Any) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc else None)


class Interruptible:
    """`with body():` marks the step's body; `interrupt()` (any thread) raises KeyboardInterrupt inside it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thread: int | None = None

    @contextmanager
    def body(self) -> Iterator[None]:
        with self._lock:
            self._thread = threading.get_ident()
        try:
            yield
        finally:
            with self._lock:
                self._thread = None
                _post(threading.get_ident(), None)  # withdraw one posted after the body's last bytecode

    def interrupt(self) -> bool:
        """True when a body was running and now gets the KeyboardInterrupt."""
        with self._lock:
            if self._thread is None:
                return False
            _post(self._thread, KeyboardInterrupt)
            return True
