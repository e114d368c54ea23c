"""What the user drew since the last cell ended: the side panel follows the object touched last (issue 26.4).

`pl.show(x)` / `pl.compare(a, b)` note the identities of the models they draw; the kernel's tracker takes the
list after the cell and moves the current model to the last one it knows by name. Only ids are kept (never a
reference: a model drawn and dropped is not kept alive), and the list is cleared by every take.
"""

from __future__ import annotations

from typing import Any

_ids: list[int] = []
_CAP = 64  # a loop that draws thousands of graphs outside a kernel must not grow this without end


def note(*objs: Any) -> None:
    for obj in objs:
        _ids.append(id(obj))
    del _ids[:-_CAP]


def take() -> list[int]:
    """The ids noted since the last take, oldest first."""
    out = list(_ids)
    _ids.clear()
    return out
