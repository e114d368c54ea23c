"""Where `pt2e-lens report` writes: checked before the pipeline runs, written atomically, never
overwriting an earlier report unless asked to (`--force`), never leaving stale files of an earlier run.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from .errors import Pt2eLensError


def _nearest_existing(path: Path) -> Path:
    for p in (path, *path.parents):
        if p.exists():
            return p
    return Path(".")


def _check_creatable(path: Path, what: str) -> None:
    """path (a folder to create, or a file's folder) can be made: its nearest existing ancestor is a writable folder."""
    base = _nearest_existing(path)
    if not base.is_dir():
        raise Pt2eLensError(f"{what} {path}: {base} is a file, not a folder — choose another path.")
    if not os.access(base, os.W_OK | os.X_OK):
        raise Pt2eLensError(f"{what} {path}: {base} is not writable — choose another path.")


def check_out_dir(out: Path, files: Iterable[str], force: bool) -> None:
    """`--out`: a folder we may write `files` into; an earlier report there is replaced only with --force."""
    if out.exists() and not out.is_dir():
        raise Pt2eLensError(f"--out {out} is a file, not a folder — choose a folder (it is created if missing).")
    _check_creatable(out, "--out")
    if out.is_dir() and not force:
        earlier = sorted(f for f in files if (out / f).exists())
        if earlier:
            raise Pt2eLensError(
                f"--out {out} already holds a report ({', '.join(earlier)}): pass --force to replace it, "
                f"or choose another --out folder."
            )


def check_html(path: Path, force: bool) -> None:
    """`--html`: a file path whose folder can be made; an existing file is replaced only with --force."""
    if path.is_dir():
        raise Pt2eLensError(f"--html {path} is a folder: give a file name, e.g. {path / 'report.html'}.")
    if path.exists() and not force:
        raise Pt2eLensError(f"--html {path} already exists: pass --force to replace it, or choose another file.")
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
