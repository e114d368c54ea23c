"""Keep the cyclic garbage collector off the heap that was there before a pipeline step began.

A full (generation 2) GC pass walks every tracked object. Inside a step (export, prepare, calibrate, convert)
that heap is the user's session, torch, and what pt2e-lens keeps: the program, the stage copies, the snapshots
taken so far; a step turns none of it into garbage, yet the full passes torchao triggers walk it each time
(0.4-0.8 s a pass at 2k-10k nodes, more passes in pl.capture than in the bare pipeline because it keeps
more). `gc.freeze()` at the start of the step moves what is tracked to the permanent generation, which
collections skip; `gc.unfreeze()` at its end gives it back to the oldest generation, as if it had survived.

Trade-off: garbage already in the heap when a step starts (and cycles among those objects that die during the
step) is freed only after the step, at a later collection, so memory may peak higher by that much. Skipped
when the collector is off or something else froze objects (our unfreeze would release theirs too).
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])


@contextmanager
def old_heap_frozen() -> Iterator[None]:
    """Within the block, collections skip every object that existed when it began; restored on any exit."""
    if not gc.isenabled() or gc.get_freeze_count():
        yield
        return
    try:
        gc.freeze()  # inside the try: an interrupt right after it still reaches unfreeze
        yield
    finally:
        gc.unfreeze()


def frozen_step(fn: _F) -> _F:
    """`fn` runs inside `old_heap_frozen()` (nested calls find the heap already frozen and leave it)."""

    @functools.wraps(fn)
    def step(*args: Any, **kwargs: Any) -> Any:
        with old_heap_frozen():
            return fn(*args, **kwargs)

    return step  # type: ignore[return-value]
