"""The one error type pt2e-lens raises for bad input: a single line that says what to do."""

from __future__ import annotations

from ._ipython import install_short_errors


class Pt2eLensError(ValueError):
    """Bad input to pt2e-lens. The message is one line: what went wrong and what to do."""

    def __init__(self, message: str, original: BaseException | None = None):
        super().__init__(" ".join(message.split()))
        self.original = original
        install_short_errors(Pt2eLensError)  # in IPython: shown as this one line, not a traceback


def first_line(exc: BaseException, limit: int = 200) -> str:
    """The first non-empty line of an exception's text, shortened: torch's errors run to pages."""
    text = str(exc).strip() or type(exc).__name__
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), text)
    return line if len(line) <= limit else line[: limit - 1] + "…"


class Pt2eLensRuntimeError(Pt2eLensError, RuntimeError):
    """A Pt2eLensError for what torch/torchao raised as RuntimeError: `except RuntimeError` still catches it
    (the course catches torchao's "changed annotations" error that way), and torchao's text stays in it."""
