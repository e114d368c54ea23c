"""`%pt2e SUBCOMMAND ...`: thin wrappers that resolve names and return the Python API's display objects."""

from __future__ import annotations

import argparse
import shlex

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_cell_magic, magics_class

from .. import analyses, display, i18n, report
from .._outputs import check_html_arg
from ..analyses.quantization import OBSERVER_STAGES
from ..capture import Run
from ..capture.record import import_executorch_for, record
from ..errors import Pt2eLensError
from ..why import observer_ranges, recipe, sensitivity
from ..why.blame import blame  # %pt2e check / blame / orders, with --qat
from ..why.check import check
from ..why.orders import compare_orders
from .names import lookup, suggest
from .tracker import Tracker

# the stage of a Run each table (and decomp) reads when the user names the Run itself
_RUN_STAGES = {
    "annotations": ("annotated",),
    "observers": OBSERVER_STAGES,
    "qdq": ("converted",),
    "decomp": ("exported",),
}


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(i18n.t("course.magic.usage", prog=self.prog, message=message))


def _parser(name: str, nargs="?") -> _Parser:
    p = _Parser(prog=name, add_help=False)
    p.add_argument("x", nargs=nargs)
    return p


def _focus_args(p: _Parser) -> _Parser:
    p.add_argument("--focus", action="append", type=lambda s: [o for o in s.split(",") if o])  # each one kept
    p.add_argument("--module", action="append", default=[])
    p.add_argument("--hops", type=int, default=1)
    p.add_argument("--title")
    return p


PARSERS = {
    "show": _focus_args(_parser("show", None)),
    "compare": _focus_args(_parser("compare", "+")),
    "diff": _parser("diff", 2),
    "annotations": _parser("annotations", None),
    "observers": _parser("observers", None),
    "qdq": _parser("qdq", None),
    "decomp": _parser("decomp", None),
    "watch": _parser("watch"),
    "report": _parser("report", None),
    "lower": _parser("lower", 2),
    "help": _Parser(prog="help", add_help=False),
    "record": _parser("record"),  # %%pt2e record [NAME]: the cell inside pl.record(), its Run as NAME
}
PARSERS["decomp"].add_argument("--table", choices=["empty", "core"], default="empty")
PARSERS["watch"].add_argument("--auto", action="store_true")
PARSERS["report"].add_argument("--html", required=True)
PARSERS["report"].add_argument("--force", action="store_true")

# sensitivity, recipe, observer ranges (why.sensitivity / why.recipe / why.ranges): kept together
PARSERS["sensitivity"] = _parser("sensitivity", 2)
PARSERS["sensitivity"].add_argument("--no-only", dest="only", action="store_false")
PARSERS["recipe"] = _parser("recipe", 2)
PARSERS["recipe"].add_argument("--target", type=float, required=True)
PARSERS["recipe"].add_argument("--max", type=int, default=None)
PARSERS["ranges"] = _parser("ranges", None)
PARSERS["lower"].add_argument("--no-freezing", dest="freezing", action="store_false")
PARSERS["load"] = _parser("load", 2)  # %pt2e load FILE NAME [--trust]: pl.load_pt2, refusing code unless --trust
PARSERS["load"].add_argument("--trust", action="store_true")


# check, blame, orders (pl.check / pl.blame / pl.compare_orders): --qat where the Python call takes qat=True
def _qat_args(p: _Parser) -> _Parser:
    p.add_argument("--inputs")
    p.add_argument("--qat", action="store_true")
    return p


PARSERS["check"] = _qat_args(_parser("check", 2))
PARSERS["blame"] = _qat_args(_parser("blame", None))
PARSERS["blame"].add_argument("quantizer", nargs="?")
PARSERS["orders"] = _qat_args(_parser("orders", "+"))


def _focus(args):
    """--focus ops and --module scopes as one focus (None: the whole graph)."""
    scopes = [analyses.module(m) for m in args.module]
    ops = [op for given in args.focus or [] for op in given]
    return ops + scopes if (args.focus is not None or scopes) else None


@magics_class
class Pt2eMagics(Magics):
    def __init__(self, shell, tracker: Tracker):
        super().__init__(shell)
        self.tracker = tracker

    @line_cell_magic
    def pt2e(self, line: str, cell: str | None = None):
        try:
            words = shlex.split(line)
        except ValueError as e:
            raise UsageError(i18n.t("course.magic.quotes", error=e)) from None
        if not words:
            words = ["help"]
        command, rest = words[0], words[1:]
        if command not in PARSERS:
            raise UsageError(i18n.t("course.magic.unknown", command=repr(command), hint=suggest(command, PARSERS)))
        args = PARSERS[command].parse_args(rest)
        if command == "record":
            return self._record(args, cell)
        try:
            return getattr(self, f"_{command}")(args)
        except Pt2eLensError as e:
            raise UsageError(str(e)) from None

    def _get(self, ref: str, table: str | None = None):
        assert self.shell is not None  # magics are registered on a shell
        obj = lookup(self.shell.user_ns, ref, prefer=self.tracker.entries)
        for stage in _RUN_STAGES.get(table or "", ()) if isinstance(obj, Run) else ():
            if stage in obj:
                return obj[stage]
        return obj

    def _record(self, args, cell: str | None):
        """Run the cell inside `pl.record()`; the last Run goes to NAME (default `recorded`): the panel follows it."""
        if cell is None or not cell.strip():
            raise UsageError(i18n.t("error.record_cell_needs_body"))
        name = args.x or "recorded"
        if not name.isidentifier():
            raise UsageError(i18n.t("course.magic.usage", prog="record", message=repr(name)))
        assert self.shell is not None
        import_executorch_for(cell)
        with record() as rec:
            self.shell.run_cell(cell, store_history=False)  # errors show as the cell's own traceback
        for problem in rec.problems:
            print(problem)
        if rec.runs:
            self.shell.user_ns[name] = rec.run
            print(i18n.t("course.magic.recorded", n=len(rec.runs), name=name, stages=", ".join(rec.run.stages)))

    def _help(self, args):
        print(i18n.t("course.magic.help"))
        print(i18n.t("course.magic.help_why"))

    def _show(self, args):
        return display.show(self._get(args.x), focus=_focus(args), hops=args.hops, title=args.title)

    def _compare(self, args):
        if len(args.x) < 2:
            raise UsageError(i18n.t("course.magic.compare_two"))
        objs = [self._get(x) for x in args.x]
        return display.compare(list(zip(objs, args.x)), focus=_focus(args), hops=args.hops, title=args.title)

    def _diff(self, args):
        a, b = (self._get(x) for x in args.x)
        return analyses.diff_ops(a, b, *args.x)

    def _annotations(self, args):
        return analyses.annotations(self._get(args.x, "annotations"))

    def _observers(self, args):
        return analyses.observers(self._get(args.x, "observers"))

    def _qdq(self, args):
        return analyses.qdq(self._get(args.x, "qdq"))

    def _decomp(self, args):
        return analyses.decomposition(self._get(args.x, "decomp"), args.table)

    def _lower(self, args):
        backend, ref = args.x
        run = self._get(ref)
        if not isinstance(run, Run):
            raise UsageError(i18n.t("course.magic.lower_needs_run", name=ref, kind=type(run).__name__))
        if backend != "inductor" and not args.freezing:  # freezing is an Inductor option: not silently dropped
            raise UsageError(i18n.t("course.magic.freezing_inductor_only", backend=backend))
        options = {"freezing": args.freezing} if backend == "inductor" else {}
        if not ("lowered" in run and run["lowered"].info == {"backend": backend, "options": options}):
            run.lower(backend, **options)  # the same lowering again costs nothing
        return analyses.backend(run)

    def _load(self, args):
        from ..load import load_exported

        path, name = args.x
        if not name.isidentifier():
            raise UsageError(i18n.t("trust.magic_name", name=repr(name)))
        self.shell.user_ns[name] = load_exported(path, trust=args.trust, how="--trust")
        print(i18n.t("trust.magic_loaded", path=path, name=name))

    def _watch(self, args):
        if args.auto and args.x is not None:
            raise UsageError(i18n.t("course.magic.watch_auto_or_name", name=args.x))
        if args.auto:
            self.tracker.pin(None)
        elif args.x is not None:
            self.tracker.scan()  # a model made earlier in this very cell
            if args.x not in self.tracker.entries:
                if args.x not in self.shell.user_ns:  # suggest models only, not builtins such as open
                    hint = suggest(args.x, self.tracker.entries) or (
                        i18n.t("error.models_here", names=", ".join(self.tracker.entries))
                        if self.tracker.entries
                        else "."
                    )
                    raise UsageError(i18n.t("error.no_variable", name=repr(args.x), hint=hint))
                kind = type(self.shell.user_ns[args.x]).__name__
                raise UsageError(i18n.t("course.magic.watch_kind", name=args.x, kind=kind))
            self.tracker.pin(args.x)
        current, pinned = self.tracker.current, self.tracker.pinned
        how = i18n.t("course.magic.pinned" if pinned else "course.magic.newest")
        print(i18n.t("course.magic.current", name=current or i18n.t("course.magic.none"), how=how))

    # sensitivity, recipe, observer ranges: kept together
    def _sensitivity(self, args):
        run, batches = (self._get(x) for x in args.x)
        return sensitivity(run, batches, only=args.only)

    def _recipe(self, args):
        run, batches = (self._get(x) for x in args.x)
        return recipe(run, batches, target_sqnr=args.target, max_fp32_sites=args.max)

    def _ranges(self, args):
        return observer_ranges(self._get(args.x))

    # check, blame, orders: kept together
    def _inputs(self, args):
        return None if args.inputs is None else self._get(args.inputs)

    def _check(self, args):
        quantizer, x = (self._get(r) for r in args.x)
        return check(quantizer, x, self._inputs(args), qat=args.qat)

    def _blame(self, args):
        quantizer = None if args.quantizer is None else self._get(args.quantizer)
        return blame(self._get(args.x), quantizer, self._inputs(args), qat=args.qat)

    def _orders(self, args):
        x, *quantizers = (self._get(r) for r in args.x)
        return compare_orders(x, quantizers, self._inputs(args), qat=args.qat)

    def _report(self, args):
        check_html_arg(args.html, args.force)  # the CLI's checks: no empty name, no silent overwrite
        try:
            path = report.write_html(
                self._get(args.x), args.html, title=i18n.t("course.magic.report_title", name=args.x)
            )
        except OSError as e:
            raise UsageError(i18n.t("course.magic.cannot_write", path=args.html, reason=e.strerror or e)) from None
        print(i18n.t("course.magic.wrote", path=path))
