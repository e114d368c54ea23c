"""Where `pt2e-lens report` writes: checked before the pipeline runs, written atomically, never
overwriting an earlier report unless asked to (`--force`), never leaving stale files of an earlier run.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from .errors import Pt2eLensError
from .i18n import t

_NAME_MAX = 255  # bytes in one path component on every common file system


def _nearest_existing(path: Path) -> Path:
    for p in (path, *path.parents):
        if p.exists():
            return p
    return Path(".")


def _check_names(path: Path, what: str) -> None:
    for part in path.parts:
        if len(os.fsencode(part)) > _NAME_MAX:
            raise Pt2eLensError(t("error.guard_name_too_long", what=what, path=path, n=len(os.fsencode(part))))


def _check_creatable(path: Path, what: str) -> None:
    """path (a folder to create, or a file's folder) can be made: its nearest existing ancestor is a folder
    where a file can really be created (probed: /proc, a read-only mount or a symlink into them say no)."""
    base = _nearest_existing(path)
    if not base.is_dir():
        raise Pt2eLensError(t("error.out_base_is_file", what=what, path=path, base=base))
    if not os.access(base, os.W_OK | os.X_OK):
        raise Pt2eLensError(t("error.out_base_not_writable", what=what, path=path, base=base))
    try:
        fd, probe = tempfile.mkstemp(prefix=".pt2e-lens-probe.", dir=base)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise Pt2eLensError(t("error.guard_cannot_write", what=what, path=path, base=base, reason=e.strerror)) from None


def check_html_arg(html: str, force: bool) -> None:
    """`--html` on its own (`%pt2e report`): the same refusals as the CLI's."""
    if not html.strip():
        raise Pt2eLensError(t("error.guard_html_empty"))
    path = Path(html)
    _check_names(path, "--html")
    try:
        check_html(path, force)
    except OSError as e:
        raise Pt2eLensError(
            t("error.guard_cannot_write", what="--html", path=path, base=e.filename, reason=e.strerror)
        ) from None


def _same(a: Path, b: Path) -> bool:
    """The same file, spelled another way (`o/sub/../annotated.json`, a symlink)."""
    return os.path.normpath(a.absolute()) == os.path.normpath(b.absolute()) or a.resolve() == b.resolve()


def _check_replaceable(path: Path, what: str) -> None:
    """A rename over a device or a pipe (`--html /dev/null --force`) would replace it with a plain file."""
    if path.exists() and not path.is_file():
        raise Pt2eLensError(t("error.guard_not_regular", what=what, path=path))


def check_paths(out_arg: str, html: str | None, files: Iterable[str], force: bool) -> Path:
    """Every check of `--out` and `--html`, before the pipeline runs; an unusable path is one line.
    → the --out folder (`--out ''` is refused: Path('') would quietly be the current folder)."""
    files = list(files)
    if not out_arg.strip():
        raise Pt2eLensError(t("error.guard_out_empty"))
    out = Path(out_arg)
    try:
        _check_names(out, "--out")
        check_out_dir(out, files, force)
        if html is None:
            return out
        if not html.strip():
            raise Pt2eLensError(t("error.guard_html_empty"))
        path = Path(html)
        _check_names(path, "--html")
        if _same(path, out):
            raise Pt2eLensError(t("error.guard_html_is_out", path=path))
        if any(_same(path, out / f) for f in files):
            raise Pt2eLensError(t("error.guard_html_in_report", path=path, out=out))
        check_html(path, force)
        return out
    except OSError as e:  # stat itself failed (a name too long for this file system, a loop of symlinks)
        raise Pt2eLensError(
            t("error.guard_cannot_write", what="--out/--html", path=e.filename, base=e.filename, reason=e.strerror)
        ) from None


def check_out_dir(out: Path, files: Iterable[str], force: bool) -> None:
    """`--out`: a folder we may write `files` into; an earlier report there is replaced only with --force."""
    if out.exists() and not out.is_dir():
        raise Pt2eLensError(t("error.out_is_file", out=out))
    _check_creatable(out, "--out")
    files = list(files)
    for f in files:
        _check_replaceable(out / f, "--out")
    if out.is_dir() and not force:
        earlier = sorted(f for f in files if (out / f).exists())
        if earlier:
            raise Pt2eLensError(t("error.out_holds_report", out=out, files=", ".join(earlier)))


def check_html(path: Path, force: bool) -> None:
    """`--html`: a file path whose folder can be made; an existing file is replaced only with --force."""
    if path.is_dir():
        raise Pt2eLensError(t("error.html_is_folder", path=path, example=path / "report.html"))
    _check_replaceable(path, "--html")
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


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _write_file(fd: int, text: str) -> None:
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


def _temp_beside(path: Path, text: str) -> str:
    """`text` in a temporary file beside `path`, with the mode a plain open() would give (mkstemp's is 0600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        _write_file(fd, text)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def write_atomic(path: Path, text: str) -> None:
    """Write to a temporary file beside `path`, then rename: a reader never sees half a file."""
    write_all({path: text})


def write_all(files: dict[Path, str]) -> None:
    """Every file of a report, swapped in whole: all are written beside their targets first, and only when
    every one is complete are they renamed into place. A full disk leaves the earlier files as they were."""
    for path in files:
        _check_replaceable(path, str(path))
    written: list[tuple[str, Path]] = []
    try:
        for path, text in files.items():
            written.append((_temp_beside(path, text), path))
    except OSError as e:
        for tmp, _ in written:
            Path(tmp).unlink(missing_ok=True)
        where = e.filename or path
        if e.errno in (errno.ENOSPC, errno.EDQUOT):
            raise Pt2eLensError(t("error.guard_disk_full", path=where)) from None
        raise Pt2eLensError(t("error.guard_write_failed", path=where, reason=e.strerror)) from None
    except BaseException:
        for tmp, _ in written:
            Path(tmp).unlink(missing_ok=True)
        raise
    for tmp, path in written:
        os.replace(tmp, path)
