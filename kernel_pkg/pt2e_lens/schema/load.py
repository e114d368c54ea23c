"""Loading a saved Snapshot: every way a document can be wrong ends in one Pt2eLensError line."""

from __future__ import annotations

from typing import Any

from .. import i18n
from ..errors import Pt2eLensError
from . import SCHEMA_VERSIONS, SNAPSHOT_FORMAT, VIEW_SCHEMA
from .check import JsonProblem, parse, schema_error
from .references import reference_error


def load_snapshot(text: Any) -> dict:
    """The Snapshot document in `text` (JSON str or bytes), checked against view.schema.json and its ids."""
    try:
        data = parse(text)
    except JsonProblem as e:
        raise Pt2eLensError(i18n.t("error.snapshot_not_json", reason=e)) from None
    if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
        raise Pt2eLensError(i18n.t("error.snapshot_format", format=repr(SNAPSHOT_FORMAT)))
    version = data.get("schema_version")
    if type(version) is not int or version not in SCHEMA_VERSIONS:  # true is not 1
        supported = ", ".join(map(str, SCHEMA_VERSIONS))
        raise Pt2eLensError(i18n.t("error.snapshot_version", version=repr(version), supported=supported))
    problem = schema_error(data, VIEW_SCHEMA, "Snapshot", root="snapshot") or reference_error(data)
    if problem:
        raise Pt2eLensError(i18n.t("error.snapshot_invalid", problem=problem))
    return data
