"""In IPython, show a Pt2eLensError as its one line instead of a traceback through pt2e-lens."""

from __future__ import annotations

from .errors import Pt2eLensError


def _show_one_line(shell, etype, value, tb, tb_offset=None):
    print(f"{etype.__name__}: {value}")  # the message already says what to do
    return None


def install_short_errors() -> bool:
    """Register the handler once, unless another library already owns IPython's custom handler."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    if shell is None:
        return False
    current = getattr(shell, "custom_exceptions", ())
    if current and Pt2eLensError not in current:
        return False
    shell.set_custom_exc((Pt2eLensError,), _show_one_line)
    return True
