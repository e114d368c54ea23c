"""What a `.pt2` archive would run when loaded, found before torch.export.load reads it (docs/errors.md).

torch.export.load is not safe on a file from a bug report: it falls back to `torch.load(weights_only=False)`
for pickles the weights-only unpickler refuses (sample inputs, pickled weights and constants), unpickles
custom and opaque objects outright, loads AOTInductor shared libraries, hands symbolic-shape strings to
`sympy.sympify` (which evaluates them). Without `trust`, pt2e-lens reads the archive's bytes once, checks
each of these, and loads those same bytes only when nothing would run. (A node target torch resolves by
walking attributes from `torch`, e.g. `torch.os.system`, is refused by torch's own verifier.)
"""

from __future__ import annotations

import ast
import io
import json
import re
import zipfile

import sympy
import torch
from torch.export.pt2_archive import constants as pt2

from . import i18n


class Untrusted(Exception):
    """What in the archive would run code: `what` (a sentence part) and `where` (the archive entry)."""

    def __init__(self, what: str, where: str):
        super().__init__(f"{where}: {what}")
        self.what, self.where = what, where


def _entries(data: bytes) -> dict[str, zipfile.ZipInfo]:
    """Entries by their name below the archive's top folder (torch writes `<name>/…` around everything)."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        infos = z.infolist()
    return {i.filename.split("/", 1)[1] if "/" in i.filename else i.filename: i for i in infos}


def _weights_only(z: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
    """torch.load with weights_only=True: allowlisted globals only, nothing imported or called otherwise."""
    try:
        torch.load(io.BytesIO(z.read(info)), weights_only=True)
    except Exception as e:
        found = re.search(r"GLOBAL [\w.]+", str(e))
        what = i18n.t("trust.pickle", found=found.group(0) if found else type(e).__name__)
        raise Untrusted(what, info.filename) from None


def _payloads(z: zipfile.ZipFile, names: dict[str, zipfile.ZipInfo], config: str, folder: str):
    """(path, meta) of each payload a weights / constants config lists."""
    info = names.get(config)
    if info is None:
        return []
    try:
        entries = json.loads(z.read(info))["config"]
        return [(folder + meta["path_name"], meta) for meta in entries.values()]
    except Exception:
        raise Untrusted(i18n.t("trust.bad_config"), info.filename) from None


def check_archive(data: bytes) -> None:
    """Raise Untrusted for the first thing in the archive that loading would run; return when there is none."""
    try:
        names = _entries(data)
    except zipfile.BadZipFile:
        return  # not a zip: torch.export.load refuses it before reading anything
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for name, info in names.items():
            if name.startswith(pt2.AOTINDUCTOR_DIR) or name.endswith((".so", ".dll", ".dylib")):
                raise Untrusted(i18n.t("trust.native"), info.filename)
            if name.endswith(".pt"):  # sample inputs, and every pickle of the older archive layout
                _weights_only(z, info)
        for model in (n for n in names if n.startswith(pt2.MODELS_DIR) and n.endswith(".json")):
            _check_expressions(z, names[model])
        weights = pt2.WEIGHTS_CONFIG_FILENAME_FORMAT.format("")
        consts = pt2.CONSTANTS_CONFIG_FILENAME_FORMAT.format("")
        for name in names:
            if name.startswith(pt2.WEIGHTS_DIR) and name.endswith(weights.rsplit("/", 1)[1]):
                for path, meta in _payloads(z, names, name, pt2.WEIGHTS_DIR):
                    if meta.get("use_pickle") and path in names:
                        _weights_only(z, names[path])
            if name.startswith(pt2.CONSTANTS_DIR) and name.endswith(consts.rsplit("/", 1)[1]):
                for path, meta in _payloads(z, names, name, pt2.CONSTANTS_DIR):
                    base = path[len(pt2.CONSTANTS_DIR) :]
                    if base.startswith((pt2.CUSTOM_OBJ_FILENAME_PREFIX, pt2.OPAQUE_OBJ_FILENAME_PREFIX)):
                        raise Untrusted(i18n.t("trust.object"), names[path].filename if path in names else path)
                    if meta.get("use_pickle") and path in names:
                        _weights_only(z, names[path])


# -- symbolic shapes: torch hands each `expr_str` to sympy.sympify, which evaluates it as Python
def _sympy_class(name: str) -> bool:
    from torch.utils._sympy import functions

    obj = getattr(functions, name, None) or getattr(sympy, name, None)
    return isinstance(obj, type) and issubclass(obj, sympy.Basic)


_SYMBOL_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop, ast.Load, ast.keyword)


def _safe_expression(text: str) -> bool:
    """True when `text` is what torch writes (sympy's srepr): calls of sympy classes on numbers and names."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and _sympy_class(node.func.id)):
                return False
            strings = [a for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if strings and not (node.func.id in ("Symbol", "Dummy") and node.args[0] is strings[0]):
                return False  # a string anywhere else is sympified again (evaluated)
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, str) and not _SYMBOL_NAME.fullmatch(node.value):
                return False
            if not isinstance(node.value, (str, int, float, bool)) and node.value is not None:
                return False
        elif isinstance(node, ast.Name):
            if node.id.startswith("_"):
                return False
        elif not isinstance(node, _NODES):
            return False  # attributes, subscripts, lambdas, comprehensions, …
    return True


def _strings_at(obj, key: str):
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == key and isinstance(v, str):
                yield v
            else:
                yield from _strings_at(v, key)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings_at(v, key)


def _check_expressions(z: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
    try:
        program = json.loads(z.read(info))
    except Exception:
        return  # torch.export.load refuses it without evaluating anything
    for text in _strings_at(program, "expr_str"):
        if not _safe_expression(text):
            raise Untrusted(i18n.t("trust.expression", text=repr(text[:60])), info.filename)
