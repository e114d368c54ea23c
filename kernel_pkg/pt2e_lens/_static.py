"""The built front-end bundles shipped inside the package (`_static/`, made by `npm run build`)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

STATIC = Path(__file__).parent / "_static"


@cache
def bundle(name: str) -> str | None:
    """The text of `_static/<name>`, or None when the front end was not built (a bare source checkout)."""
    path = STATIC / name
    return path.read_text(encoding="utf-8") if path.is_file() else None
