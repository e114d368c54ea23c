"""Progress of long calls: a bar that updates in place in a notebook or a terminal, lines elsewhere.

`with task("calibrate", total=32, unit="batches") as t: … t.advance()` — nothing shows for a call that ends
within `DELAY` seconds; a longer one shows done/total and an estimate of the time left, and when it ends
leaves one summary line. Tasks nest (pl.capture → calibrate): the innermost one's count shows after the outer
one's label, and only the outermost leaves a line. Each update costs one clock read; the screen is redrawn
at most every `EVERY` seconds, so a call pays next to nothing for it (bench/progress.py).

`PT2E_LENS_PROGRESS=0` or `pl.progress(False)` turns it off, `=1` / `True` shows it from the first step.
"""

from __future__ import annotations

import contextlib
import html
import os
import sys
import time
from collections.abc import Iterator
from typing import Any

from . import i18n
from .errors import Pt2eLensError

DELAY = 0.5  # seconds before anything shows: short calls print nothing
EVERY = 0.2  # seconds between redraws of a bar
LINE_EVERY = 10.0  # seconds between progress lines where there is no bar (a log, a pipe)


def _now() -> float:
    return time.monotonic()


_setting: bool | None = None  # pl.progress(…); None: PT2E_LENS_PROGRESS, else on after DELAY
_stack: list[Task] = []


def progress(on: bool | None = True) -> None:
    """Show progress bars (True, from the first step), never (False), or as by default (None: after 0.5 s)."""
    global _setting
    if on is not None and not isinstance(on, bool):
        raise Pt2eLensError(i18n.t("progress.bad_setting", got=repr(on)))
    _setting = on


def _enabled() -> tuple[bool, float]:
    """(on, delay) from pl.progress, then the environment."""
    if _setting is not None:
        return _setting, 0.0
    env = os.environ.get("PT2E_LENS_PROGRESS", "").strip()
    if env == "0":
        return False, DELAY
    return True, 0.0 if env == "1" else DELAY


def _clock(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, s = divmod(int(round(seconds)), 60)
    return f"{minutes} min {s:02d} s" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"


class Task:
    """One long call: `advance()` after each step; the screen follows (see the module doc)."""

    def __init__(self, label: str, total: int | None, unit: str):
        self.label, self.total, self.unit = label, total, unit
        self.done = 0
        self.start = _now()
        self._next_draw = 0.0

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = _now()
        if now >= self._next_draw:
            _screen().draw(now)

    def left(self, now: float) -> float | None:
        """Estimated seconds left: the time per step so far times the steps to go."""
        if not self.total or not self.done or self.done >= self.total:
            return None
        return (now - self.start) / self.done * (self.total - self.done)

    def count(self, now: float) -> str:
        of = f"{self.done}/{self.total}" if self.total else str(self.done)
        text = f"{self.label} {of} {self.unit}".rstrip()
        left = self.left(now)
        return text if left is None else i18n.t("progress.left", text=text, left=_clock(left))


class _Screen:
    """Where the stack of tasks is drawn: a notebook display, a terminal line, or log lines."""

    def __init__(self) -> None:
        self.kind = _kind()
        self.shown = False  # drawn at least once: the outermost task then leaves its summary
        self.handle: Any = None
        self.last_line = 0.0

    def draw(self, now: float) -> None:
        if not _stack:
            return
        on, delay = _enabled()
        outer = _stack[0]
        if not on or now - outer.start < delay:
            for t in _stack:
                t._next_draw = outer.start + delay
            return
        for t in _stack:
            t._next_draw = now + EVERY
        text = " · ".join(t.count(now) if t is _stack[-1] else t.label for t in _stack)
        fraction = _fraction(_stack[-1])
        if self.kind == "notebook":
            self._notebook(_Bar(text, fraction))
        elif self.kind == "tty":
            width = 24
            filled = int(round(width * fraction)) if fraction is not None else 0
            bar = "█" * filled + "░" * (width - filled) if fraction is not None else ""
            sys.stderr.write(f"\r{bar} {text}\x1b[K")
            sys.stderr.flush()
        elif not self.shown or now - self.last_line >= LINE_EVERY:
            print(text, file=sys.stderr, flush=True)
            self.last_line = now
        self.shown = True

    def finish(self, task: Task, failed: bool) -> None:
        """The outermost task ended: replace the bar with one line (only if a bar was shown)."""
        if not self.shown:
            return
        now = _now()
        key = "progress.stopped" if failed else "progress.done"
        of = f"{task.done}/{task.total}" if (failed and task.total) else str(task.done)
        line = i18n.t(key, label=task.label, count=f"{of} {task.unit}".rstrip(), took=_clock(now - task.start))
        if self.kind == "notebook":
            self._notebook(_Bar(line, None))
        elif self.kind == "tty":
            sys.stderr.write(f"\r{line}\x1b[K\n")
            sys.stderr.flush()
        else:
            print(line, file=sys.stderr, flush=True)

    def _notebook(self, bar: _Bar) -> None:
        from IPython.display import display

        if self.handle is None:
            self.handle = display(bar, display_id=True)
        else:
            self.handle.update(bar)


class _Bar:
    """What a notebook shows: an HTML progress bar and its text (plain text for other front ends)."""

    def __init__(self, text: str, fraction: float | None):
        self.text, self.fraction = text, fraction

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        text = html.escape(self.text)
        if self.fraction is None:
            return f'<div class="pl-progress">{text}</div>'
        return (
            f'<div class="pl-progress"><progress value="{self.fraction:.3f}" max="1" '
            f'style="width: 12em; vertical-align: middle"></progress> {text}</div>'
        )


def _fraction(t: Task) -> float | None:
    return min(1.0, t.done / t.total) if t.total else None


def _kind() -> str:
    if "ipykernel" in sys.modules:
        from IPython import get_ipython

        shell = get_ipython()
        if shell is not None and getattr(shell, "kernel", None) is not None:
            return "notebook"
    stream = sys.stderr
    return "tty" if getattr(stream, "isatty", lambda: False)() else "lines"


_current: _Screen | None = None


def _screen() -> _Screen:
    global _current
    if _current is None:
        _current = _Screen()
    return _current


def total_of(items: Any) -> int | None:
    """len(items) when it has one (a list of batches), else None (a generator: count only)."""
    try:
        return len(items)
    except TypeError:
        return None


@contextlib.contextmanager
def task(label: str, total: int | None = None, unit: str = "") -> Iterator[Task]:
    """A long call's progress (see the module doc). The outermost task owns the screen."""
    global _current
    t = Task(label, total, unit)
    if not _stack:
        _current = _Screen()
    _stack.append(t)
    failed = True
    try:
        t.advance(0)
        yield t
        failed = False
    finally:
        _stack.pop()
        screen = _screen()
        if not _stack:
            screen.finish(t, failed)
            _current = None
        elif screen.shown:
            screen.draw(_now())
