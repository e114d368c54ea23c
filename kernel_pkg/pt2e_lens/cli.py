"""`pt2e-lens report`: run PT2E on an example or a .pt2 file, print every stage's tables, save snapshots."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from . import i18n
from ._outputs import check_paths, remove_stale, write_all
from ._quiet import quiet
from .capture.stage import STAGE_ORDER


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
    return p


class _Progress:
    def __init__(self, total: int):
        self.total, self.i = total, 0

    def step(self, label: str, fn):
        self.i += 1
        print(f"[{self.i}/{self.total}] {label}…", end="", file=sys.stderr, flush=True)
        t = time.perf_counter()
        result = fn()
        print(f" {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)
        return result


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
    if args.backend:
        progress.step(i18n.t("cli.step.lower", backend=args.backend), lambda: run.lower(args.backend))

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
    return 0


def main(argv: list[str] | None = None) -> int:
    quiet()
    args = _parser().parse_args(argv)
    from .errors import Pt2eLensError

    try:
        with i18n.using(args.lang):
            return report(args)
    except Pt2eLensError as e:
        print(i18n.t("cli.error", error=e), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
