"""Reading an untrusted notebook for `pt2e_lens.pictures`: its size and shape are checked before anything
is decoded, so a crafted file is one line (which bound, or which field is wrong), never a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .display import MIME
from .errors import Pt2eLensError
from .i18n import t
from .schema import LIMITS
from .schema.check import JsonProblem, parse

# a notebook holds its outputs a few levels down, and long strings (packed data, the viewer's script)
_NOTEBOOK_LIMITS = {**LIMITS, "max_string_chars": LIMITS["max_json_bytes"], "max_depth": LIMITS["max_depth"] + 8}


def read_notebook(path: Path) -> dict:
    if not path.is_file():
        reason = t("error.guard_nb_not_regular" if path.exists() else "error.guard_nb_missing")
        raise Pt2eLensError(t("error.guard_nb_unreadable", path=path, reason=reason))
    size = path.stat().st_size
    if size > LIMITS["max_json_bytes"]:
        reason = t("error.guard_nb_too_big", size=f"{size:,}", cap=f"{LIMITS['max_json_bytes']:,}")
        raise Pt2eLensError(t("error.guard_nb_unreadable", path=path, reason=reason))
    try:
        nb = parse(path.read_bytes(), _NOTEBOOK_LIMITS)
    except JsonProblem as e:
        raise Pt2eLensError(t("error.guard_nb_unreadable", path=path, reason=e)) from None
    _check_shape(nb, path)
    return nb


_KINDS: dict[type, str] = {dict: "an object", list: "a list", str: "a string"}


def _kind(v: Any) -> str:
    return _KINDS.get(type(v), type(v).__name__)


def _check_shape(nb: Any, path: Path) -> None:
    """The fields pictures reads: an object with a list of cell objects, each output an object whose `data`
    is an object; pt2e-lens MIME data is JSON text or an object (what the display writes)."""

    def bad(where: str, v: Any, want: str) -> Pt2eLensError:
        return Pt2eLensError(t("error.guard_nb_shape", path=path, where=where, got=_kind(v), want=want))

    if not isinstance(nb, dict):
        raise bad("the notebook", nb, "an object")
    if "cells" not in nb:  # a notebook without cells is no notebook: not a silent "0 outputs"
        raise Pt2eLensError(t("error.guard_nb_shape", path=path, where="cells", got="missing", want="a list"))
    cells = nb["cells"]
    if not isinstance(cells, list):
        raise bad("cells", cells, "a list")
    for i, cell in enumerate(cells):
        if not isinstance(cell, dict):
            raise bad(f"cells[{i}]", cell, "an object")
        outputs = cell.get("outputs", [])
        if not isinstance(outputs, list):
            raise bad(f"cells[{i}].outputs", outputs, "a list")
        for j, out in enumerate(outputs):
            where = f"cells[{i}].outputs[{j}]"
            if not isinstance(out, dict):
                raise bad(where, out, "an object")
            data = out.get("data", {})
            if not isinstance(data, dict):
                raise bad(f"{where}.data", data, "an object")
            if MIME in data and not isinstance(data[MIME], (dict, str, list)):
                raise bad(f"{where}.data[{MIME}]", data[MIME], "a View (an object or JSON text)")
