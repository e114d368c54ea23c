"""Look names up in the user namespace (a dict lookup, never evaluation), with "did you mean" hints."""

from __future__ import annotations

import difflib
import inspect
import re
from typing import Any

from .. import i18n
from ..capture import Run
from ..errors import Pt2eLensError

# NAME, or NAME[stage] / NAME["stage"] for one stage of a Run
_REF = re.compile(r"""^([A-Za-z_][A-Za-z0-9_]*)(?:\[\s*(['"]?)([A-Za-z_]+)\2\s*\])?$""")


def suggest(name: str, choices) -> str:
    close = difflib.get_close_matches(name, list(dict.fromkeys(choices)), n=3, cutoff=0.6)
    return i18n.t("course.did_you_mean", names=i18n.t("course.or").join(close)) if close else ""


def _code(value: Any) -> bool:
    return inspect.isroutine(value) or inspect.isclass(value) or inspect.ismodule(value)


def lookup(user_ns: dict, ref: str, prefer=()) -> Any:
    """The object `ref` names: `gm`, or `run[prepared]` for a stage of a Run."""
    m = _REF.match(ref.strip())
    if not m:
        raise Pt2eLensError(i18n.t("error.not_a_variable", ref=repr(ref)))
    name, _, stage = m.groups()
    if name not in user_ns:
        # data, not code: no magic takes a function, a class or a module (IPython's namespace has `open`)
        visible = [n for n, v in user_ns.items() if isinstance(n, str) and not n.startswith("_") and not _code(v)]
        hint = suggest(name, list(prefer) + visible) or (
            i18n.t("error.models_here", names=", ".join(prefer)) if prefer else "."
        )
        raise Pt2eLensError(i18n.t("error.no_variable", name=repr(name), hint=hint))
    obj = user_ns[name]
    if stage is None:
        return obj
    if not isinstance(obj, Run):
        raise Pt2eLensError(i18n.t("error.not_a_run", name=name, stage=stage, cls=type(obj).__name__))
    if stage not in obj.stages:
        raise Pt2eLensError(
            i18n.t(
                "error.run_has_no_stage",
                name=name,
                stage=repr(stage),
                hint=suggest(stage, obj.stages) or "",
                stages=", ".join(obj.stages),
            )
        )
    return obj[stage]
