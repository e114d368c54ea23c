"""In IPython, show a Pt2eLensError as its one line instead of a traceback through pt2e-lens.

Nothing is installed when pt2e_lens is imported. The handler goes in when something asks for it:
`%load_ext pt2e_lens`, the first pt2e-lens display, or the first Pt2eLensError raised in an IPython shell.
"""

from __future__ import annotations

import sys


def _show_one_line(shell, etype, value, tb, tb_offset=None):
    print(f"{etype.__name__}: {value}")  # the message already says what to do
    return None


def install_short_errors(error_type: type[BaseException]) -> bool:
    """Register the handler for `error_type` in the running IPython shell, unless there is none or another
    library already owns IPython's custom handler. Cheap to call again."""
    if "IPython" not in sys.modules:  # not in IPython: importing it would only cost time
        return False
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        return False
    current = getattr(shell, "custom_exceptions", ())
    if current == (error_type,):
        return True
    if current:
        return False
    shell.set_custom_exc((error_type,), _show_one_line)
    return True
