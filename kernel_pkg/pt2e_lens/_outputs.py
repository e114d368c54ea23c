"""Where `pt2e-lens report` writes: checked before the pipeline runs, written atomically, never
overwriting an earlier report unless asked to (`--force`), never leaving stale files of an earlier run.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from .errors import Pt2eLensError
from .i18n import t


def _nearest_existing(path: Path) -> Path:
    for p in (path, *path.parents):
        if p.exists():
            return p
    return Path(".")


def _check_creatable(path: Path, what: str) -> None:
    """path (a folder to create, or a file's folder) can be made: its nearest existing ancestor is a writable folder."""
    base = _nearest_existing(path)
    if not base.is_dir():
        raise Pt2eLensError(t("error.out_base_is_file", what=what, path=path, base=base))
    if not os.access(base, os.W_OK | os.X_OK):
        raise Pt2eLensError(t("error.out_base_not_writable", what=what, path=path, base=base))


def check_out_dir(out: Path, files: Iterable[str], force: bool) -> None:
    """`--out`: a folder we may write `files` into; an earlier report there is replaced only with --force."""
    if out.exists() and not out.is_dir():
        raise Pt2eLensError(t("error.out_is_file", out=out))
    _check_creatable(out, "--out")
    if out.is_dir() and not force:
        earlier = sorted(f for f in files if (out / f).exists())
        if earlier:
            raise Pt2eLensError(t("error.out_holds_report", out=out, files=", ".join(earlier)))


def check_html(path: Path, force: bool) -> None:
    """`--html`: a file path whose folder can be made; an existing file is replaced only with --force."""
    if path.is_dir():
        raise Pt2eLensError(t("error.html_is_folder", path=path, example=path / "report.html"))
    if path.exists() and not force:
        raise Pt2eLensError(t("error.html_exists", path=path))
    _check_creatable(path.parent if str(path.parent) else Path("."), "--html")


def remove_stale(out: Path, files: Iterable[str], keep: Iterable[str]) -> list[str]:
    """Delete the report files of an earlier run that this run does not write (e.g. decomposed.json)."""
    keep = set(keep)
    removed = []
    for f in files:
        if f not in keep and (out / f).is_file():
            (out / f).unlink()
            removed.append(f)
    return removed


def write_atomic(path: Path, text: str) -> None:
    """Write to a temporary file beside `path`, then rename: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
