"""`pl.record()`: record the user's own PT2E pipeline, unchanged, as `pl.Run`s (docs/record.md).

Inside the block, torch.export.export, ExportedProgram.module / run_decompositions, prepare_pt2e /
prepare_qat_pt2e, convert_pt2e, torch.compile and ExecuTorch's to_edge_transform_and_lower run their own
code with the user's arguments and return their own result; pt2e-lens watches from the side
(`_swap` routes the calls here). At prepare, a private copy of the module the user passed is kept; at
convert, a copy of what the user's calibration or training changed in the prepared module. The `pl.Run`s
are made from those on first read (`_recorded`): `Run.prepare` of the copy with the user's quantizer (the
annotation recorded through its public `annotate`: why, blame), the observers as calibrated, `Run.convert`.

Side work never reaches the user's objects, runs with the random generator's state saved and restored, and
a failure in it is kept as one line in `rec.problems`, never raised into the user's code.
"""

from __future__ import annotations

import threading
import warnings
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import torch

from .. import i18n
from .._copy import private_copy
from .._torchao import convert_pt2e, prepare_pt2e, prepare_qat_pt2e
from ..errors import Pt2eLensError, Pt2eLensWarning, first_line
from . import _swap
from ._recorded import Prepared, build, keep_programs
from .run import Run


class Recording:
    """What `pl.record()` saw: `runs` (one `pl.Run` per prepare call), `run` (the last), `problems`."""

    def __init__(self) -> None:
        self._entries: list[Prepared] = []
        self.problems: list[str] = []  # side work that failed, one line each (the user's code went on)
        self._thread = threading.get_ident()
        self._depth = 0  # > 0 inside a recorded call or our own side work: nested calls are not recorded
        self._inputs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # program → example inputs
        self._exported_from: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # program → module
        self._module_of: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # ep.module() → program
        self._decomposed: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # program → (parent, label)
        self._prepared: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # prepared module → Prepared
        self._converted: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # converted module → Prepared

    # -- what was recorded: the Runs are made on first read (_recorded.build)
    @property
    def runs(self) -> list[Run]:
        for entry in self._entries:
            if entry.run is None and not entry.failed:
                entry.run = self._side(build, entry)
                entry.failed = entry.run is None  # its problem is in rec.problems; not tried again
            for backend in entry.lowerings if entry.run is not None else ():
                self._side(_lowered, entry.run, backend)
            entry.lowerings = []
        return [e.run for e in self._entries if e.run is not None]

    @property
    def run(self) -> Run:
        runs = self.runs
        if not runs:
            raise Pt2eLensError(
                self.problems[-1] if self._entries and self.problems else i18n.t("error.record_nothing")
            )
        return runs[-1]

    def __repr__(self) -> str:
        return f"<pt2e_lens.record prepares={len(self._entries)} problems={len(self.problems)}>"

    # -- the calls
    def _handler(self, before: Callable | None, after: Callable | None) -> Callable:
        def handle(original: Callable, args: tuple, kwargs: dict) -> Any:
            if self._depth or threading.get_ident() != self._thread:
                return original(*args, **kwargs)
            seen = self._side(before, args, kwargs) if before is not None else None
            self._depth += 1
            try:
                result = original(*args, **kwargs)
            finally:
                self._depth -= 1
            if after is not None:
                self._side(after, args, kwargs, seen, result)
            return result

        return handle

    def _side(self, fn: Callable, *args: Any) -> Any:
        """pt2e-lens's own work beside the user's call: the random state kept, a failure kept as one line."""
        self._depth += 1
        try:
            with torch.random.fork_rng(devices=[]), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return fn(*args)
        except Exception as e:
            step = fn.__name__.strip("_")
            self.problems.append(i18n.t("error.record_side_failed", step=step, reason=first_line(e)))
            return None
        finally:
            self._depth -= 1

    def _export(self, args: tuple, kwargs: dict, _seen: Any, ep: Any) -> None:
        inputs = kwargs.get("args", args[1] if len(args) > 1 else None)
        if isinstance(ep, torch.export.ExportedProgram):
            if isinstance(inputs, tuple):
                self._inputs[ep] = inputs
            module = args[0] if args else kwargs.get("mod")
            if isinstance(module, torch.nn.Module):
                self._exported_from[ep] = module

    def _module(self, args: tuple, kwargs: dict, _seen: Any, gm: Any) -> None:
        if args and isinstance(gm, torch.nn.Module):
            self._module_of[gm] = args[0]

    def _decompose(self, args: tuple, kwargs: dict, _seen: Any, new: Any) -> None:
        table = kwargs.get("decomp_table", args[1] if len(args) > 1 else None)
        label = "core" if table is None else "{}" if not table else "custom"  # None: torch's Core ATen default
        if args and isinstance(new, torch.export.ExportedProgram):
            self._decomposed[new] = (args[0], label)

    def _before_prepare(self, args: tuple, kwargs: dict) -> Any:
        model = args[0] if args else kwargs.get("model")
        return private_copy(model) if isinstance(model, torch.fx.GraphModule) else None

    def _prepare(self, args: tuple, kwargs: dict, copy: Any, prepared: Any, qat: bool) -> None:
        if copy is None or not isinstance(prepared, torch.fx.GraphModule):
            return
        quantizer = args[1] if len(args) > 1 else kwargs.get("quantizer")
        model = args[0] if args else kwargs.get("model")
        entry = Prepared(copy, quantizer, qat)
        program = self._module_of.get(model)
        if program is not None:
            entry.program, entry.parent = program, self._decomposed.get(program)
            entry.inputs = self._inputs.get(entry.parent[0] if entry.parent is not None else program)
            if qat:
                keep_programs(entry)
        entry.watch(prepared)
        self._entries.append(entry)
        self._prepared[prepared] = entry

    def _prepare_ptq(self, args: tuple, kwargs: dict, copy: Any, prepared: Any) -> None:
        self._prepare(args, kwargs, copy, prepared, qat=False)

    def _prepare_qat(self, args: tuple, kwargs: dict, copy: Any, prepared: Any) -> None:
        self._prepare(args, kwargs, copy, prepared, qat=True)

    def _before_convert(self, args: tuple, kwargs: dict) -> Any:
        model = args[0] if args else kwargs.get("model")
        entry = self._prepared.get(model) if isinstance(model, torch.fx.GraphModule) else None
        if entry is not None:
            entry.at_convert(model)  # the observers as the user's calibration (or training) left them
        return entry

    def _after_convert(self, args: tuple, kwargs: dict, entry: Any, converted: Any) -> None:
        if entry is not None and isinstance(converted, torch.fx.GraphModule):
            self._converted[converted] = entry

    def _compile(self, args: tuple, kwargs: dict, _seen: Any, _result: Any) -> None:
        model = args[0] if args else kwargs.get("model")
        entry = self._converted.get(model) if isinstance(model, torch.fx.GraphModule) else None
        if entry is not None:
            entry.lowerings.append("inductor")

    def _edge_lower(self, args: tuple, kwargs: dict, _seen: Any, _result: Any) -> None:
        programs = args[0] if args else kwargs.get("programs")
        partitioners = kwargs.get("partitioner", args[1] if len(args) > 1 else None) or []
        if not any(type(p).__name__ == "XnnpackPartitioner" for p in partitioners):
            return
        for ep in programs.values() if isinstance(programs, dict) else [programs]:
            source = self._exported_from.get(ep) if isinstance(ep, torch.export.ExportedProgram) else None
            entry = self._converted.get(source) if source is not None else None
            if entry is not None:
                entry.lowerings.append("xnnpack")

    # -- the targets
    def _handlers(self) -> dict[str, tuple[Any, Callable]]:
        h = self._handler
        out: dict[str, tuple[Any, Callable]] = {
            "export": (torch.export.export, h(None, self._export)),
            "module": (torch.export.ExportedProgram.__dict__["module"], h(None, self._module)),
            "run_decompositions": (
                torch.export.ExportedProgram.__dict__["run_decompositions"],
                h(None, self._decompose),
            ),
            "prepare_pt2e": (prepare_pt2e, h(self._before_prepare, self._prepare_ptq)),
            "prepare_qat_pt2e": (prepare_qat_pt2e, h(self._before_prepare, self._prepare_qat)),
            "convert_pt2e": (convert_pt2e, h(self._before_convert, self._after_convert)),
            "compile": (torch.compile, h(None, self._compile)),
        }
        lower = _executorch_lower()
        if lower is not None:
            out["to_edge_transform_and_lower"] = (lower, h(None, self._edge_lower))
        return out


def _lowered(run: Run, backend: str) -> None:
    """The lowering the user did, made by pt2e-lens on its own copy of the converted graph."""
    run.lower(backend)


def import_executorch_for(source: str) -> None:
    """Code that mentions ExecuTorch and runs inside the block: import it first so its lowering is watched."""
    if "executorch" not in source:
        return
    try:
        import executorch.exir  # noqa: F401
    except Exception:  # not installed or broken: the code's own import will say so
        pass


def _executorch_lower() -> Any:
    """ExecuTorch's to_edge_transform_and_lower when the user's code imported it already (importing it costs seconds)."""
    import sys

    program = sys.modules.get("executorch.exir.program._program")
    return getattr(program, "to_edge_transform_and_lower", None) if program is not None else None


@contextmanager
def record() -> Iterator[Recording]:
    """`with pl.record() as rec:` around the user's own PT2E code; then `rec.run` (a `pl.Run`), `rec.runs`."""
    if _swap.installed():
        raise Pt2eLensError(i18n.t("error.record_nested"))
    rec = Recording()
    try:
        skipped = _swap.install(rec._handlers())
        if skipped:
            rec.problems.append(i18n.t("error.record_not_watched", names=", ".join(skipped)))
        yield rec
    finally:
        _swap.restore()
    if not rec._entries:
        warnings.warn(i18n.t("error.record_nothing"), Pt2eLensWarning, stacklevel=3)
