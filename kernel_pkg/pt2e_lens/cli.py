"""`pt2e-lens report`: run PT2E on an example or a .pt2 file, print every stage's tables, save snapshots."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from . import i18n
from ._outputs import check_paths, remove_stale, write_all
from ._quiet import quiet
from .capture.stage import STAGE_ORDER
from .errors import Pt2eLensError


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="pt2e-lens", description="See what a torchao PT2E quantizer did.")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("report", help="capture every PT2E stage and report it")
    r.add_argument("model", nargs="?", help="a .pt2 file written by torch.export.save")
    r.add_argument("--example", choices=["tiny", "residual", "conv_relu"], help="a built-in course model")
    r.add_argument("--quantizer", default="conv", choices=["conv", "conv_relu", "composable", "x86"])
    r.add_argument("--decompose", choices=["empty", "core"], help="run_decompositions before prepare")
    r.add_argument("--out", default="pt2e-lens-out", help="folder for the snapshot JSON files")
    r.add_argument("--html", help="also write one self-contained HTML report here")
    r.add_argument("--force", action="store_true", help="replace an earlier report in --out / at --html")
    r.add_argument("--backend", choices=["inductor", "xnnpack"], help="also lower the converted graph with a backend")
    r.add_argument("--strict", action="store_true", help="torch.export in strict mode (--example only)")
    r.add_argument("--trust", action="store_true", help="load a .pt2 that may run code (pickles beyond tensors, …)")
    r.add_argument(
        "--lang", help="language of the tables and the report, e.g. zh-TW (default: PT2E_LENS_LANG, else en)"
    )
    from .cli_run import add_parser

    add_parser(sub)  # `pt2e-lens run SCRIPT.py`: pl.record around an unchanged script
    return p


class _Progress:
    def __init__(self, total: int):
        self.total, self.i = total, 0

    def step(self, label: str, fn):
        # a line of its own: a long step's bar (calibration's batches, with an estimate) draws below it
        self.i += 1
        line = f"[{self.i}/{self.total}] {label}…"
        print(line, file=sys.stderr, flush=True)
        try:
            return fn()
        except BaseException:
            # the step's line again, ended: the error that follows is a line of its own
            print(f"{line} {i18n.t('cli.step_failed')}", file=sys.stderr, flush=True)
            raise


def _check_backend(backend: str | None, quantizer_name: str) -> None:
    """What can be known before the pipeline runs: Inductor's int8 kernels (oneDNN) take uint8 activations
    only, and every built-in quantizer but `x86` quantizes activations to signed int8; and whether Inductor
    can write in its cache folder."""
    if backend != "inductor":
        return
    import torch

    from .examples.qspecs import act_spec

    dtype = torch.uint8 if quantizer_name == "x86" else act_spec().dtype
    if dtype == torch.int8:
        raise Pt2eLensError(i18n.t("error.cli_inductor_signed", quantizer=quantizer_name))
    from .backends.failure import LoweringError
    from .backends.inductor import check_cache_dir

    try:
        check_cache_dir()
    except LoweringError as e:  # said with the CLI's fix, not run.lower's
        raise Pt2eLensError(i18n.t("cli.lower_refused", cause=e.cause, fix=e.cli_fix), original=e.original) from None


def _lower(progress: _Progress, run, backend: str) -> Pt2eLensError | None:
    """Lower the converted graph; a failure is returned, not raised, so the stages made are still written."""
    # Inductor logs where it kept its temporary folder when a compile fails: our error line says what failed
    inductor_log = logging.getLogger("torch._inductor")
    level = inductor_log.level
    inductor_log.setLevel(logging.ERROR)
    try:
        progress.step(i18n.t("cli.step.lower", backend=backend), lambda: run.lower(backend))
    except Pt2eLensError as e:
        return e
    finally:
        inductor_log.setLevel(level)
    return None


def report(args: argparse.Namespace) -> int:
    import pt2e_lens as pl

    from .examples import calibration_batches, example_inputs, get_model, quantizer_by_name
    from .load import load_exported, sample_inputs
    from .views import run_tables

    if bool(args.model) == bool(args.example):
        raise pl.Pt2eLensError(i18n.t("error.cli_source"))
    if args.model and args.strict:  # a .pt2 file was exported already: --strict would change nothing
        raise pl.Pt2eLensError(i18n.t("error.guard_strict_needs_example"))
    if args.example and args.trust:  # nothing is loaded from a file: --trust would change nothing
        raise pl.Pt2eLensError(i18n.t("trust.needs_file"))
    quantizer = quantizer_by_name(args.quantizer)
    _check_backend(args.backend, args.quantizer)
    # every path is checked before the pipeline runs: a bad --out must not cost a whole capture
    report_files = [f"{s}.json" for s in STAGE_ORDER]
    out = check_paths(args.out, args.html, report_files, args.force)
    steps = 4 + bool(args.decompose) + bool(args.backend)
    progress = _Progress(steps)
    if args.example:
        model = get_model(args.example).eval()
        run = progress.step(
            i18n.t("cli.step.export", name=args.example),
            lambda: pl.Run(model, example_inputs(8), dynamic_batch=True, strict=args.strict),
        )
        batches = calibration_batches(8, 8)
    else:
        ep = load_exported(args.model, trust=args.trust, how="--trust")
        run = progress.step(i18n.t("cli.step.load", name=args.model), lambda: pl.Run(ep))
        batches = sample_inputs(ep)
    if args.decompose:
        progress.step(i18n.t("cli.step.decompose", table=args.decompose), lambda: run.decompose(args.decompose))
    progress.step(i18n.t("cli.step.prepare", quantizer=type(quantizer).__name__), lambda: run.prepare(quantizer))
    if batches:
        progress.step(i18n.t("cli.step.calibrate", n=len(batches)), lambda: run.calibrate(batches))
    else:
        progress.step(i18n.t("cli.step.calibrate_skipped"), lambda: None)
    progress.step(i18n.t("cli.step.convert"), run.convert)
    lower_error = _lower(progress, run, args.backend) if args.backend else None

    # the whole report is written beside the earlier one and swapped in at once (a full disk keeps the old)
    files = {out / f"{stage.name}.json": stage.snapshot.to_json() for stage in run}
    if args.html:
        from .report import html_page

        title = i18n.t("report.title_of", name=args.example or args.model)
        files[Path(args.html)] = html_page(run, title, None)
    write_all(files)
    stale = remove_stale(out, report_files, keep=[f"{s}.json" for s in run.stages])
    print()
    for stage in run:
        print(
            i18n.t(
                "cli.stage_line",
                stage=stage.name,
                nodes=pl.node_count(stage),
                observers=len(stage.snapshot.observers),
                qdq=len(stage.snapshot.qdq),
            )
        )
    print("\n" + i18n.t("cli.sequence", sequence=pl.sequence(run["converted"])) + "\n")
    for table in run_tables(run):
        print(table.to_text(), end="\n\n")
    if run.latest.snapshot.findings:  # one line per rule, not a paragraph per finding
        print(pl.findings(run.latest).to_text(), end="\n\n")
    print(i18n.t("cli.snapshots_written", out=out, files=", ".join(s + ".json" for s in run.stages)))
    if stale:
        print(i18n.t("cli.removed_stale", files=", ".join(stale)))
    if args.html:
        print(i18n.t("cli.html_written", path=Path(args.html)))
    if lower_error is not None:  # the stages made are written above; the failure is the last line, on its own
        print(i18n.t("cli.error", error=cli_message(lower_error, args.backend, out)), file=sys.stderr)
        return 2
    return 0


def cli_message(e: Pt2eLensError, backend: str, out: Path) -> str:
    """A lowering failure as the CLI says it: its cause, a fix the CLI can pass, and where the report went."""
    cause = getattr(e, "cause", None)
    fix = getattr(e, "cli_fix", None)
    if cause is None:  # a backend error without the split: its whole text
        return i18n.t("cli.lower_failed_plain", backend=backend, error=e, out=out)
    return i18n.t("cli.lower_failed", backend=backend, cause=cause, fix=fix, out=out)


def main(argv: list[str] | None = None) -> int:
    quiet()
    args = _parser().parse_args(argv)
    if args.command == "run":
        from .cli_run import split_trailing

        split_trailing(args)  # its --lang may stand after the script's arguments
    from .errors import Pt2eLensError

    try:
        with i18n.using(args.lang):
            if args.command == "run":
                from .cli_run import run_script

                return run_script(args)
            return report(args)
    except Pt2eLensError as e:
        print(i18n.t("cli.error", error=e), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
