"""How results display in a notebook while the layers that make them never import the surfaces.

Tables, diffs, Stages and Runs are `Displayable`: IPython asks them for a MIME bundle, and they hand
themselves to the one renderer the surface layer registered (`pt2e_lens.display` registers its
`mimebundle` when it is imported, which `import pt2e_lens` always does before any result exists).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_renderer: Callable[[Any], dict] | None = None


def register_renderer(render: Callable[[Any], dict]) -> None:
    global _renderer
    _renderer = render


class Displayable:
    def _repr_mimebundle_(self, include=None, exclude=None) -> dict | None:
        # no renderer (pt2e_lens.display never imported): None lets IPython fall back to repr
        return None if _renderer is None else _renderer(self)
