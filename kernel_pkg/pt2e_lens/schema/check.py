"""Checking documents against the contract: safe JSON parsing, JSON Schema validation, readable errors.

Every check returns or raises one line. jsonschema is imported on first use: `import pt2e_lens` stays cheap.
"""

from __future__ import annotations

import json
import math
import re
from functools import cache
from itertools import accumulate
from typing import Any

from . import PROTOCOL_SCHEMA, VIEW_SCHEMA

# The deepest real document is ~8 levels (View > panes > snapshot > observers > serves > at > edge);
# anything far deeper is not ours, and is refused before parsing so it cannot exhaust the stack.
MAX_DEPTH = 64
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class JsonProblem(ValueError):
    """The text is not JSON we accept; the message is one line."""


def nesting_depth(text: str) -> int:
    """How deep arrays/objects nest in JSON text, ignoring brackets inside strings (regex at C speed)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonProblem(f"the number {text} is out of range")
    return value


def _no_constant(name: str) -> Any:
    raise JsonProblem(f"{name} is not a JSON number")


def parse(text: str | bytes) -> Any:
    """json.loads, but refusing NaN/Infinity (and overflowing numbers) and deep nesting; raises JsonProblem."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise JsonProblem(f"not UTF-8 ({e.reason} at byte {e.start})") from None
    if not isinstance(text, str):
        raise JsonProblem(f"expected JSON text, got {type(text).__name__}")
    depth = nesting_depth(text)
    if depth > MAX_DEPTH:
        raise JsonProblem(f"nested {depth} levels deep (at most {MAX_DEPTH})")
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except JsonProblem:
        raise
    except ValueError as e:  # JSONDecodeError
        raise JsonProblem(f"invalid JSON ({e})") from None


def _registry():
    from referencing import Registry, Resource

    return Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in (VIEW_SCHEMA, PROTOCOL_SCHEMA))


@cache
def validator(schema_id: str, definition: str):
    """A jsonschema validator for one `$defs` entry of one of our schemas (built once)."""
    import jsonschema

    return jsonschema.Draft202012Validator({"$ref": f"{schema_id}#/$defs/{definition}"}, registry=_registry())


def where(path) -> str:
    """`edges[3].arg` for the path deque ['edges', 3, 'arg']."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def schema_error(data: Any, schema_id: str, definition: str, root: str = "", limit: int = 200) -> str | None:
    """The most relevant way `data` breaks the schema, as one line (`edges[3].arg: -1 is less than …`), or None.

    `root` names the document in the message (`get_stage.name: …`)."""
    import jsonschema

    error = jsonschema.exceptions.best_match(validator(schema_id, definition).iter_errors(data))
    if error is None:
        return None
    message = " ".join(error.message.split())
    if len(message) > limit:
        message = message[: limit - 1] + "…"
    at = ".".join(filter(None, [root, where(error.absolute_path)]))
    return f"{at}: {message}" if at else message
