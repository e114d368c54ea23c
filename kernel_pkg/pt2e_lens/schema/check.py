"""Checking documents against the contract: safe JSON parsing and JSON Schema validation, in one-line errors."""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

from . import LIMITS, PROTOCOL_SCHEMA, VIEW_SCHEMA
from .bounds import TooBig, check_text_size, check_tree, too_big

# The deepest real document is ~8 levels (View > panes > snapshot > observers > serves > at > edge);
# anything far deeper is not ours, and is refused before parsing so it cannot exhaust the stack.
MAX_DEPTH = LIMITS["max_depth"]
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class JsonProblem(ValueError):
    """The text is not JSON we accept; the message is one line."""


class JsonTooBig(JsonProblem, TooBig):
    """The JSON breaks one of the contract's limits (its message names the bound)."""


def nesting_depth(text: str) -> int:
    """How deep arrays/objects nest in JSON text, ignoring brackets inside strings (regex at C speed)."""
    return _outline(text)[0]


def _outline(text: str) -> tuple[int, int]:
    """(nesting depth, an upper bound on the values) of JSON text, from its text outside strings: every value
    but a container's first follows a comma."""
    bare = _STRING.sub("", text)
    brackets = _NOT_BRACKET.sub("", bare)
    depth = max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)
    return depth, bare.count(",") + len(brackets) // 2 + 1


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonProblem(f"the number {text} is out of range")
    return value


def _no_constant(name: str) -> Any:
    raise JsonProblem(f"{name} is not a JSON number")


def parse(text: str | bytes, limits: dict = LIMITS) -> Any:
    """json.loads, but refusing NaN/Infinity (and overflowing numbers), deep nesting and documents over the
    contract's limits (schema/bounds.py); raises JsonProblem."""
    try:
        check_text_size(len(text), limits)
    except TooBig as e:
        raise JsonTooBig(str(e)) from None
    except TypeError:
        pass  # not text: said below
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise JsonProblem(f"not UTF-8 ({e.reason} at byte {e.start})") from None
    if not isinstance(text, str):
        raise JsonProblem(f"expected JSON text, got {type(text).__name__}")
    depth, values = _outline(text)
    if depth > limits["max_depth"]:
        raise JsonTooBig(str(too_big("nested", depth, limits["max_depth"], "max_depth")))
    if values > limits["max_values"]:  # refused before json.loads builds them
        cap = limits["max_values"]
        raise JsonTooBig(str(too_big("values", cap, cap, "max_values")))
    try:
        doc = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
        check_tree(doc, limits)  # strings (length, lone surrogates): one walk, ~0.6x the json.loads before it
        return doc
    except JsonProblem:
        raise
    except TooBig as e:
        raise JsonTooBig(str(e)) from None
    except ValueError as e:  # JSONDecodeError
        raise JsonProblem(f"invalid JSON ({e})") from None


# The JSON Schema keywords our schemas use, and all this checker (and src/core/schema-check.ts) understands;
# scripts/gen-contract.mjs refuses a schema with any other. jsonschema, the reference implementation, is
# ~100x slower on a real snapshot (bench/load_snapshot.py): the tests check that both agree instead.
KEYWORDS = frozenset(
    "$schema $id $comment $defs $ref title description type const enum properties required "
    "additionalProperties items minItems maxItems minimum oneOf".split()
)
_SCHEMAS = {s["$id"].rsplit("/", 1)[-1]: s for s in (VIEW_SCHEMA, PROTOCOL_SCHEMA)}
_TYPES: dict[str, Any] = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    # JSON has one number type: 2.0 is an integer (as jsonschema says), true is not
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}
_Problem = tuple[tuple, str]  # (path, what)


def _kind(v: Any) -> str:
    return next((t for t in ("null", "boolean", "integer", "number", "string", "array", "object") if _TYPES[t](v)), "?")


def _same(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1."""
    return isinstance(a, bool) == isinstance(b, bool) and a == b


def _show(v: Any) -> str:
    text = json.dumps(v, default=str)
    return text if len(text) <= 40 else text[:39] + "…"


def _describe(s: dict) -> str:
    if "$ref" in s:
        return s["$ref"].rsplit("/", 1)[-1]
    if "const" in s:
        return _show(s["const"])
    types = s.get("type", "a valid form")
    return " or ".join(types) if isinstance(types, list) else types


def _resolve(ref: str, root: dict) -> tuple[dict, dict]:
    file, _, pointer = ref.partition("#")
    root = _SCHEMAS[file] if file else root
    return root["$defs"][pointer.removeprefix("/$defs/")], root


def _check(v: Any, s: dict, root: dict, path: tuple) -> _Problem | None:
    if "$ref" in s:
        target, target_root = _resolve(s["$ref"], root)
        problem = _check(v, target, target_root, path)
        if problem:
            return problem
    if "const" in s and not _same(v, s["const"]):
        return path, f"expected {_show(s['const'])}, got {_show(v)}"
    if "enum" in s and not any(_same(v, e) for e in s["enum"]):
        return path, f"expected one of {', '.join(map(_show, s['enum']))}, got {_show(v)}"
    if "type" in s:
        types = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(_TYPES[t](v) for t in types):
            return path, f"expected {' or '.join(types)}, got {_kind(v)} {_show(v)}"
    if "oneOf" in s:
        problems = [_check(v, branch, root, path) for branch in s["oneOf"]]
        matches = problems.count(None)
        if matches > 1:
            return path, "matches more than one form"
        if matches == 0:  # the branch that got furthest explains best; if none got past `v`, name them all
            deepest = max(problems, key=lambda p: len(p[0]))  # type: ignore[index]
            if len(deepest[0]) > len(path):  # type: ignore[index]
                return deepest
            return path, f"expected {' or '.join(map(_describe, s['oneOf']))}, got {_kind(v)} {_show(v)}"
    if isinstance(v, list):
        return _check_array(v, s, root, path)
    if isinstance(v, dict):
        return _check_object(v, s, root, path)
    if "minimum" in s and _TYPES["number"](v) and v < s["minimum"]:
        return path, f"expected at least {s['minimum']}, got {v}"
    return None


def _check_array(v: list, s: dict, root: dict, path: tuple) -> _Problem | None:
    if "minItems" in s and len(v) < s["minItems"]:
        return path, f"expected at least {s['minItems']} items, got {len(v)}"
    if "maxItems" in s and len(v) > s["maxItems"]:
        return path, f"expected at most {s['maxItems']} items, got {len(v)}"
    if "items" in s:
        for i, item in enumerate(v):
            problem = _check(item, s["items"], root, (*path, i))
            if problem:
                return problem
    return None


def _check_object(v: dict, s: dict, root: dict, path: tuple) -> _Problem | None:
    props = s.get("properties", {})
    for k in s.get("required", ()):
        if k not in v:
            return path, f'missing the field "{k}"'
    extra = s.get("additionalProperties", True)
    for k, value in v.items():
        sub = props.get(k, extra)
        if sub is False:
            return path, f"unknown field {_show(k)}"
        if isinstance(sub, dict):
            problem = _check(value, sub, root, (*path, k))
            if problem:
                return problem
    return None


def where(path) -> str:
    """`edges[3].arg` for the path ('edges', 3, 'arg')."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def schema_error(data: Any, schema: dict, definition: str, root: str = "") -> str | None:
    """The first way `data` breaks `schema`'s `$defs[definition]`, as one line (`edges[3].arg: expected
    integer, got string "0"`), or None. `root` names the document in the message (`get_stage.name: …`)."""
    problem = _check(data, schema["$defs"][definition], schema, ())
    if problem is None:
        return None
    at = ".".join(filter(None, [root, where(problem[0])]))
    return f"{at or 'the document'}: {problem[1]}"
