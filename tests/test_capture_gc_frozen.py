"""Each pipeline step runs with the heap it started with frozen (capture/_gc_frozen.py): inside the step the
collector skips it, and afterwards the process's GC state is what it was, whether the step returned, raised
or was interrupted, and whatever the user had set (collector off, objects of their own frozen)."""

import gc
import weakref

import pytest

import pt2e_lens as pl
from pt2e_lens.examples import ConvQuantizer, calibration_batches, example_inputs, get_model


def _state():
    return gc.isenabled(), gc.get_freeze_count(), gc.get_threshold(), gc.get_debug(), list(gc.callbacks)


@pytest.fixture(autouse=True)
def _clean_gc():
    before = _state()
    yield
    gc.unfreeze()  # a failing test must not leave the rest of the session frozen
    gc.enable() if before[0] else gc.disable()
    assert _state() == before


def _seen_while_calibrating():
    """A calibration callable that records the collector's state inside the calibrate step."""
    seen = []

    def batches(module):
        seen.append((gc.isenabled(), gc.get_freeze_count()))
        for b in calibration_batches(1):
            module(*b)

    return batches, seen


def test_a_step_freezes_the_heap_it_started_with_and_gives_it_back():
    before = _state()
    batches, seen = _seen_while_calibrating()
    run = pl.capture(get_model("tiny").eval(), example_inputs(), ConvQuantizer(), calibration=batches)
    assert seen == [(True, seen[0][1])] and seen[0][1] > 0
    assert _state() == before
    assert "converted" in run.stages


def test_state_restored_when_a_step_raises_and_when_it_is_interrupted():
    before = _state()
    run = pl.Run(get_model("tiny").eval(), example_inputs()).prepare(ConvQuantizer())

    def broken(module):
        raise ValueError("no data")

    with pytest.raises(pl.Pt2eLensError):
        run.calibrate(broken)
    assert _state() == before

    def interrupted(module):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run.calibrate(interrupted)
    assert _state() == before
    run.calibrate(calibration_batches(1)).convert()  # the run goes on
    assert _state() == before


def _frozen(obj) -> bool:
    return not any(o is obj for o in gc.get_objects())  # the permanent generation is not listed


def test_the_users_frozen_objects_stay_frozen_and_a_disabled_collector_stays_off():
    theirs = [[]]
    gc.freeze()
    at_freeze = gc.get_freeze_count()
    batches, seen = _seen_while_calibrating()
    pl.capture(get_model("tiny").eval(), example_inputs(), ConvQuantizer(), calibration=batches)
    assert _frozen(theirs) and len(seen) == 1 and seen[0][0]
    assert 0 < seen[0][1] <= at_freeze  # nothing of ours frozen on top: their objects can only have been freed since
    gc.unfreeze()
    assert not _frozen(theirs)

    gc.disable()
    batches, seen = _seen_while_calibrating()
    pl.capture(get_model("tiny").eval(), example_inputs(), ConvQuantizer(), calibration=batches)
    assert not gc.isenabled() and gc.get_freeze_count() == 0 and seen == [(False, 0)]


class _Cycle:
    """Freed only by the cyclic collector: it refers to itself."""

    def __init__(self) -> None:
        self.me = self


def test_garbage_from_before_the_step_waits_for_its_end_garbage_made_in_it_does_not():
    """The trade-off: a cycle that existed when the step began and dies in it is freed after the step."""
    run = pl.Run(get_model("tiny").eval(), example_inputs()).prepare(ConvQuantizer())
    holder = [_Cycle()]
    old = weakref.ref(holder[0])
    found = {}

    def batches(module):
        holder.clear()  # the old cycle becomes garbage inside the step
        new = _Cycle()
        made = weakref.ref(new)
        del new
        gc.collect()
        found.update(old=old() is None, new=made() is None)
        for b in calibration_batches(1):
            module(*b)

    run.calibrate(batches)
    assert found == {"old": False, "new": True}
    gc.collect()
    assert old() is None
