"""`pt2e-lens run SCRIPT.py [ARGS…] [--html R.html] [--out D]`: run an unchanged script inside `pl.record()`.

The script runs as `__main__` with `sys.argv = [SCRIPT.py, ARGS…]` and its folder first on `sys.path`, like
`python SCRIPT.py ARGS…`. pt2e-lens's own options stand before SCRIPT.py or as the last arguments; a script that
takes `--html` / `--out` itself gets them when its arguments end with `--`.
"""

from __future__ import annotations

import argparse
import runpy
import sys
import traceback
from pathlib import Path

from . import i18n
from ._outputs import check_paths, remove_stale, write_all
from .capture.record import import_executorch_for
from .capture.stage import STAGE_ORDER, Stage

_OWN = {"--html": 1, "--out": 1, "--lang": 1, "--force": 0}


def add_parser(sub) -> None:
    r = sub.add_parser("run", help="run an unchanged Python script inside pl.record() and report what it quantized")
    r.add_argument("--out", default="pt2e-lens-out", help="folder for the snapshot JSON files")
    r.add_argument("--html", help="also write one self-contained HTML report here")
    r.add_argument("--force", action="store_true", help="replace an earlier report in --out / at --html")
    r.add_argument("--lang", help="language of the report, e.g. zh-TW")
    r.add_argument("script", help="the Python script to run, as `python SCRIPT.py ARGS…` would")
    r.add_argument("args", nargs=argparse.REMAINDER, help="the script's own arguments")


def split_trailing(args: argparse.Namespace) -> None:
    """Move pt2e-lens's options from the end of the script's arguments onto `args` (`--` keeps them the script's)."""
    rest = list(args.args)
    if rest and rest[-1] == "--":
        args.args = rest[:-1]
        return
    while rest:
        if rest[-1] == "--force":
            args.force, rest = True, rest[:-1]
        elif len(rest) >= 2 and _OWN.get(rest[-2]) == 1:
            setattr(args, rest[-2][2:], rest[-1])
            rest = rest[:-2]
        else:
            break
    args.args = rest


def _files(runs: list) -> dict[str, Stage]:
    """Report file name → stage; one folder per run when the script prepared more than once."""
    out = {}
    for i, run in enumerate(runs):
        prefix = f"run-{i + 1}/" if len(runs) > 1 else ""
        for stage in run:
            out[f"{prefix}{stage.name}.json"] = stage
    return out


def run_script(args: argparse.Namespace) -> int:
    import pt2e_lens as pl

    from .errors import Pt2eLensError

    script = Path(args.script)
    if not script.is_file():
        raise Pt2eLensError(i18n.t("cli.record_no_script", script=script))
    out = check_paths(args.out, args.html, [f"{s}.json" for s in STAGE_ORDER], args.force)
    failed: BaseException | None = None
    import_executorch_for(script.read_text(encoding="utf-8", errors="replace"))
    argv, path0 = sys.argv, sys.path[0] if sys.path else None
    sys.argv = [str(script), *args.args]
    sys.path.insert(0, str(script.resolve().parent))
    try:
        with pl.record() as rec:
            try:
                runpy.run_path(str(script), run_name="__main__")
            except SystemExit as e:
                if e.code not in (None, 0):
                    failed = e
            except BaseException as e:  # Ctrl-C too: what was recorded up to there is still written
                failed = e
                _print_script_traceback(e, script)
    finally:
        sys.argv = argv
        if sys.path and sys.path[0] == str(script.resolve().parent) and path0 != sys.path[0]:
            sys.path.pop(0)
    for problem in rec.problems:
        print(problem, file=sys.stderr)
    runs = rec.runs
    if not runs:
        print(i18n.t("cli.error", error=i18n.t("error.record_nothing")), file=sys.stderr)
        return 1 if failed is not None else 2
    stages = _files(runs)
    files = {out / name: stage.snapshot.to_json() for name, stage in stages.items()}
    if args.html:
        from .report import html_page

        files[Path(args.html)] = html_page(runs[-1], i18n.t("report.title_of", name=script.name), None)
    write_all(files)
    remove_stale(out, [f"{s}.json" for s in STAGE_ORDER], keep=[n for n in stages if "/" not in n])
    for i, run in enumerate(runs):
        for stage in run:
            line = i18n.t(
                "cli.stage_line",
                stage=stage.name,
                nodes=pl.node_count(stage),
                observers=len(stage.snapshot.observers),
                qdq=len(stage.snapshot.qdq),
            )
            print(f"run {i + 1} {line}" if len(runs) > 1 else line)
    print(i18n.t("cli.snapshots_written", out=out, files=", ".join(stages)))
    if args.html:
        print(i18n.t("cli.html_written", path=Path(args.html)))
    if failed is not None:
        print(i18n.t("cli.record_script_failed", script=script, error=type(failed).__name__), file=sys.stderr)
        return 1
    return 0


def _print_script_traceback(e: BaseException, script: Path) -> None:
    """The script's traceback from its own first frame on (runpy's and ours left out), as Python prints it."""
    tb = e.__traceback__
    target = str(script.resolve())
    while tb is not None and str(Path(tb.tb_frame.f_code.co_filename).resolve()) != target:
        tb = tb.tb_next
    traceback.print_exception(type(e), e, tb if tb is not None else e.__traceback__, file=sys.stderr)
