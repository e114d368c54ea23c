"""The one error type pt2e-lens raises for bad input: a single line that says what to do; and its warning
type, shown as one line too."""

from __future__ import annotations

import sys
import warnings

from ._ipython import install_short_errors


class Pt2eLensError(ValueError):
    """Bad input to pt2e-lens. The message is one line: what went wrong and what to do."""

    def __init__(self, message: str, original: BaseException | None = None, head: str | None = None):
        super().__init__(" ".join(message.split()))
        self.original = original
        # what went wrong without the advice after it, for a message that adds its own cause and advice
        # (capture/run.py): given by the raiser, never cut out of the translated text
        self.head = " ".join(head.split()) if head is not None else str(self).rstrip(".")
        install_short_errors(Pt2eLensError)  # in IPython: shown as this one line, not a traceback


def first_line(exc: BaseException, limit: int = 200) -> str:
    """The first non-empty line of an exception's text, shortened: torch's errors run to pages."""
    text = str(exc).strip() or type(exc).__name__
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), text)
    return line if len(line) <= limit else line[: limit - 1] + "…"


class Pt2eLensRuntimeError(Pt2eLensError, RuntimeError):
    """A Pt2eLensError for what torch/torchao raised as RuntimeError: `except RuntimeError` still catches it
    (the course catches torchao's "changed annotations" error that way), and torchao's text stays in it."""


class Pt2eLensWarning(UserWarning):
    """Input pt2e-lens accepted but that probably does not do what was meant (a focus that matches nothing)."""


def _one_line_showwarning(previous):
    def showwarning(message, category, filename, lineno, file=None, line=None):
        if not issubclass(category, Pt2eLensWarning):
            return previous(message, category, filename, lineno, file, line)
        out = sys.stderr if file is None else file
        if out is None:  # pythonw: no stderr, as Python's own showwarning
            return None
        try:  # our text says what to do; the file:line and source line Python adds point into pt2e-lens
            out.write(f"{category.__name__}: {' '.join(str(message).split())}\n")
        except OSError:
            pass
        return None

    showwarning.pt2e_lens_previous = previous  # type: ignore[attr-defined]
    return showwarning


def install_one_line_warnings() -> None:
    """Show a Pt2eLensWarning as one line (terminal and notebook alike); every other warning goes to the
    showwarning that was in place, unchanged. Cheap to call again."""
    if not hasattr(warnings.showwarning, "pt2e_lens_previous"):
        warnings.showwarning = _one_line_showwarning(warnings.showwarning)


install_one_line_warnings()
