"""Loading a saved Snapshot: every way a document can be wrong ends in one Pt2eLensError line."""

from __future__ import annotations

from typing import Any

from ..errors import Pt2eLensError
from . import SCHEMA_VERSION, SNAPSHOT_FORMAT, VIEW_SCHEMA
from .check import JsonProblem, parse, schema_error
from .references import reference_error

_REDO = "re-create it with pl.snapshot(...).to_json()"


def load_snapshot(text: Any) -> dict:
    """The Snapshot document in `text` (JSON str or bytes), checked against view.schema.json and its ids."""
    try:
        data = parse(text)
    except JsonProblem as e:
        raise Pt2eLensError(f"not a pt2e-lens snapshot: {e}.") from None
    if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
        raise Pt2eLensError(f"not a pt2e-lens snapshot: its 'format' is not {SNAPSHOT_FORMAT!r}.")
    version = data.get("schema_version")
    if type(version) is not int or version != SCHEMA_VERSION:  # true is not 1
        raise Pt2eLensError(
            f"snapshot schema_version {version!r} is not supported (this pt2e-lens reads "
            f"{SCHEMA_VERSION}): upgrade pt2e-lens or re-create the snapshot."
        )
    problem = schema_error(data, VIEW_SCHEMA, "Snapshot", root="snapshot") or reference_error(data)
    if problem:
        raise Pt2eLensError(f"not a valid pt2e-lens snapshot: {problem}; {_REDO}.")
    return data
