"""Route calls of torch/torchao functions through pt2e-lens for the length of a block, keeping the function objects.

`from torchao... import prepare_pt2e` before the block binds the function object itself, so replacing a module
attribute would miss it. Instead each target function object keeps its identity and only its `__code__` is
swapped for a trampoline (`*args, **kwargs` → `dispatch`); the original code runs as a separate function
object built from it (same globals, defaults, closure). `restore()` puts every original `__code__` back; the
caller does that in a `finally`, so an exception or Ctrl-C inside the block leaves nothing swapped.

A code object can only be given to a function whose closure has as many cells as it has free variables, so
the trampoline is compiled with the same free-variable names as the original (and a target whose names
differ after that is left alone rather than broken).
"""

from __future__ import annotations

import keyword
import threading
import types
from collections.abc import Callable
from typing import Any

# key → the active handler: handler(original, args, kwargs); set by install(), cleared by restore()
_handlers: dict[str, Callable[..., Any]] = {}
_originals: dict[str, Callable[..., Any]] = {}
_swapped: list[tuple[types.FunctionType, types.CodeType]] = []
_lock = threading.Lock()


def dispatch(key: str, args: tuple, kwargs: dict) -> Any:
    """What every trampoline calls: the handler while one is installed, else the original."""
    original = _originals[key]
    handler = _handlers.get(key)
    if handler is None:
        return original(*args, **kwargs)
    return handler(original, args, kwargs)


def _trampoline(key: str, code: types.CodeType) -> types.CodeType | None:
    """A code object with `code`'s free variables whose body is `return dispatch(key, args, kwargs)`."""
    free = code.co_freevars
    if any(not name.isidentifier() or keyword.iskeyword(name) for name in free):
        return None
    lines = ["def _outer():"]
    lines += [f"    {name} = None" for name in free]
    lines.append("    def _t(*args, **kwargs):")
    if free:  # referenced, so they are free variables of _t (the original closure's cells, never changed)
        lines.append(f"        ({', '.join(free)},)")
    lines.append("        from pt2e_lens.capture._swap import dispatch")
    lines.append(f"        return dispatch({key!r}, args, kwargs)")
    lines.append("    return _t")
    namespace: dict[str, Any] = {}
    exec(compile("\n".join(lines), "<pt2e_lens.record>", "exec"), namespace)  # noqa: S102
    made = namespace["_outer"]().__code__
    if made.co_freevars != free:
        return None
    names = {"co_name": code.co_name}
    if hasattr(code, "co_qualname"):  # Python 3.11+: tracebacks name the function as before
        names["co_qualname"] = code.co_qualname
    return made.replace(**names)


def _original(fn: types.FunctionType) -> types.FunctionType:
    """A separate function object running `fn`'s own code (`fn` itself gets the trampoline)."""
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    copy.__qualname__ = fn.__qualname__
    copy.__module__ = fn.__module__
    copy.__dict__.update(fn.__dict__)  # functools.wraps' __wrapped__ and friends, read by the code itself
    return copy


def install(handlers: dict[str, tuple[types.FunctionType, Callable[..., Any]]]) -> list[str]:
    """Swap the code of each `key: (function, handler)`; returns the keys that could not be swapped."""
    skipped = []
    with _lock:
        if _swapped:
            raise RuntimeError("pt2e_lens._swap: already installed")
        for key, (fn, handler) in handlers.items():
            if not isinstance(fn, types.FunctionType):
                skipped.append(key)
                continue
            code = fn.__code__
            new = _trampoline(key, code)
            if new is None:
                skipped.append(key)
                continue
            _originals[key] = _original(fn)
            _handlers[key] = handler
            _swapped.append((fn, code))
            fn.__code__ = new
    return skipped


def restore() -> None:
    """Every swapped function gets its own code back. Safe to call when nothing is installed."""
    with _lock:
        while _swapped:
            fn, code = _swapped[-1]
            fn.__code__ = code  # before pop: an interrupt between the two still leaves it restored next time
            _swapped.pop()
        _handlers.clear()
        # _originals stay: a trampoline frame already running (another thread) still finds its original


def installed() -> bool:
    return bool(_swapped)
