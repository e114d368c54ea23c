"""The user's own weights lent to a quantizer's code without a second copy in memory, and given back as they were.

The module a quantizer prepares used to hold copies of the user's Parameters: the weights once more at
prepare's peak (the whole of convnext_tiny's memory over bare torchao). Now it holds aliases: new Parameter
objects on the user's storage, so `.data =` or setattr on them never reaches the user's objects. The storage's
bytes wait in an unlinked temp file meanwhile (written around the page cache where the file system allows:
neither the process's memory nor the machine's; IN_MEMORY bytes or less in all wait in memory instead). When
the lent code is done every lent storage is compared with its bytes in the file — a version counter misses
`.data.copy_()` and numpy writes — and where something wrote, the module keeps what was written as its own
copy and the user's bytes go back from the file.
The whole pages of a large storage go to the file straight from the user's memory (O_DIRECT: the disk reads
them, no copy through a buffer: 0.07 CPU s of vit_b_16's 346 MB); its unaligned first and last bytes, and the
small storages, through a buffer as before.
What lent code keeps outside the module's parameters, buffers and tensor attributes is not seen.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import mmap
import os
import tempfile
from collections.abc import Collection, Iterable, Iterator
from typing import Any

import torch

_CHUNK = 1 << 22  # bytes per read or write: the bounce buffer's size
# lent weights of at most this many bytes in all wait in memory instead, for prepare's length: a file's own cost
# (creating it, O_DIRECT reads and writes through the buffer, waits on a busy disk) is more CPU than copying so few
# bytes twice (vit_tiny's 23 MB of small weights: 0.028 → 0.023 CPU s quiet, 0.1-0.4 s → 0.02 with the disk busy);
# bare torchao's own peak above its baseline is more than this on the zoo models that have 8-32 MB (lens's peak
# there: 1.07-1.35x bare's, docs/bench.md)
IN_MEMORY = 32 << 20
_ALIGN = 4096  # O_DIRECT wants offsets, lengths and memory addresses in whole blocks
# a storage with at least this many bytes of whole pages is written from its own memory (see the module doc)
DIRECT_MIN = 1 << 20


def _lendable(t: torch.Tensor) -> bool:
    """A plain CPU Parameter whose bytes are its own storage's (no subclass, no fake or meta tensor)."""
    return (
        type(t) is torch.nn.Parameter
        and t.device.type == "cpu"
        and t.layout == torch.strided
        and not t.is_quantized
        and t.untyped_storage().nbytes() > 0
    )


def _bytes(t: torch.Tensor) -> torch.Tensor:
    """The whole storage under `t` as a uint8 tensor (writes through it bump no version counter)."""
    return torch.empty(0, dtype=torch.uint8).set_(t.untyped_storage())


def _fits(alias: torch.Tensor, t: torch.Tensor) -> bool:
    """`alias` is still a view of exactly `t` (no `.data =` gave it other storage or another shape)."""
    return (
        _ptr(alias) == t.untyped_storage().data_ptr()
        and alias.dtype == t.dtype
        and alias.shape == t.shape
        and alias.stride() == t.stride()
        and alias.storage_offset() == t.storage_offset()
    )


class Loan:
    """Aliases of the user's Parameters (`alias`, for own_tensors), their bytes kept in a file (`keep`),
    compared and given back after the lent code ran (`settle`)."""

    def __init__(self, theirs: Collection[int]) -> None:
        self._theirs = theirs
        self._lent: dict[int, tuple[torch.Tensor, torch.Tensor, int]] = {}  # id(alias) -> (user's, alias, version)
        self._at: dict[int, tuple[int, torch.Tensor]] = {}  # storage data_ptr -> (offset in the file, its bytes)
        self._file: Any = None
        self._kept: dict[int, torch.Tensor] | None = None  # storage data_ptr -> a copy of its bytes (IN_MEMORY)
        # storage data_ptr -> (offset in the file of its whole pages, their bytes, a copy of the bytes before
        # them, a copy of the bytes after them): written from the user's memory (_write, direct)
        self._pages: dict[int, tuple[int, torch.Tensor, torch.Tensor, torch.Tensor]] = {}

    def alias(self, t: torch.Tensor) -> torch.Tensor | None:
        """A new Parameter on `t`'s storage when `t` is the user's and can be lent; None: copy it."""
        if id(t) not in self._theirs or not _lendable(t):
            return None
        # detach() shares t's version counter: an in-place op on it (or on a view of it) moves t's too
        alias = torch.nn.Parameter(t.detach(), requires_grad=t.requires_grad)
        self._lent[id(alias)] = (t, alias, t._version)
        return alias

    def keep(self) -> None:
        """Write every lent storage's bytes to the file, before the lent code runs. Where no file can take
        them (a full disk), the aliases become copies: the memory of before, never a write into the model."""
        if not self._lent:
            return
        for t, _, _ in self._lent.values():
            self._at.setdefault(t.untyped_storage().data_ptr(), (0, _bytes(t)))
        if sum(data.numel() for _, data in self._at.values()) <= IN_MEMORY:
            self._kept = {ptr: data.clone() for ptr, (_, data) in self._at.items()}
            return
        try:
            self._file = tempfile.TemporaryFile(buffering=0)
            try:
                self._write(direct=True)
            except OSError:  # a file system that takes no O_DIRECT writes: through the page cache
                self._write(direct=False)
        except OSError:
            self.close()
            for _, alias, _ in self._lent.values():
                alias.data = alias.detach().clone()
            self._lent.clear()
            self._at.clear()

    def _write(self, direct: bool) -> None:
        fd = self._file.fileno()
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        fcntl.fcntl(fd, fcntl.F_SETFL, flags | os.O_DIRECT if direct else flags & ~os.O_DIRECT)
        self._pages.clear()  # (a retry without O_DIRECT writes everything through the buffer)
        if direct:
            for ptr, (_, data) in self._at.items():
                lead = -data.data_ptr() % _ALIGN  # bytes before its first whole page
                whole = (data.numel() - lead) // _ALIGN * _ALIGN
                if whole and whole >= DIRECT_MIN:
                    edges = (data[:lead].clone(), data[lead + whole :].clone())
                    self._pages[ptr] = (0, data[lead : lead + whole], *edges)
        offset = 0
        for ptr, (_, data) in self._at.items():
            if ptr not in self._pages:
                self._at[ptr] = (offset, data)
                offset += _whole(data.numel())
        with _bounce() as buf:
            for at, n, pieces in _chunks(self._buffered(), offset):
                for lo, hi, data, start in pieces:
                    buf[lo:hi].copy_(data[start : start + hi - lo])
                _io(os.pwritev, fd, buf, n, at)
        for ptr, (_, pages, head, tail) in self._pages.items():
            self._pages[ptr] = (offset, pages, head, tail)
            _io(os.pwritev, fd, pages, pages.numel(), offset)  # the disk reads the user's pages themselves
            offset += pages.numel()

    def _buffered(self) -> list[tuple[int, torch.Tensor]]:
        """(offset in the file, bytes) of the storages written through the buffer."""
        return [at for ptr, at in self._at.items() if ptr not in self._pages]

    def _written(self) -> set[int]:
        """The storages whose bytes differ from the file's: the file read once, a chunk at a time (small weights
        share a chunk: one read for many, not one each)."""
        if self._kept is not None:
            kept = self._kept
            return {ptr for ptr, (_, data) in self._at.items() if not _equal(kept[ptr], data)}
        differ: set[int] = set()
        if self._file is None:  # nothing was kept: nothing lent
            return differ
        ptr_of = {id(data): ptr for ptr, (_, data) in self._at.items()}
        buffered = self._buffered()
        total = sum(_whole(data.numel()) for _, data in buffered)
        fd = self._file.fileno()
        with _bounce() as buf:
            for at, n, pieces in _chunks(buffered, total):
                _io(os.preadv, fd, buf, n, at)
                for lo, hi, data, start in pieces:
                    if ptr_of[id(data)] not in differ and not _equal(buf[lo:hi], data[start : start + hi - lo]):
                        differ.add(ptr_of[id(data)])
            for ptr, (offset, pages, head, tail) in self._pages.items():
                _, data = self._at[ptr]
                if not (_equal(head, data[: head.numel()]) and _equal(tail, data[data.numel() - tail.numel() :])):
                    differ.add(ptr)
                    continue
                for start, n in _read_back(fd, buf, offset, pages.numel()):
                    if not _equal(buf[:n], pages[start : start + n]):
                        differ.add(ptr)
                        break
        return differ

    def settle(self, modules: Collection[torch.nn.Module] = ()) -> list[tuple[torch.Tensor, int]]:
        """After the lent code ran (or failed): the user's bytes as they were; in `modules`, every alias nothing
        wrote is the user's Parameter again and every other tensor on the user's storage is its own copy.
        Returns each lent tensor of the user's with its version when lent (a write through an alias moved it)."""
        written = self._written()
        for t, _, version in self._lent.values():
            if t._version != version:  # an in-place op wrote the same values back: still its write
                written.add(t.untyped_storage().data_ptr())
        back: dict[int, torch.Tensor] = {}
        for t, alias, _ in self._lent.values():
            if t.untyped_storage().data_ptr() not in written and _fits(alias, t):
                back[id(alias)] = t
            elif _ptr(alias) in self._at:  # what was written stays the module's, as its own copy
                alias.data = alias.detach().clone()
        for ptr in written:
            self._restore(ptr)
        users = {id(t) for t, _, _ in self._lent.values()}
        for module in modules:
            _take_back(module, back, set(self._at), users)
        lent = [(t, version) for t, _, version in self._lent.values()]
        self.close()
        return lent

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self._kept = None
        self._at.clear()
        self._pages.clear()

    def _restore(self, ptr: int) -> None:
        offset, storage = self._at[ptr]
        if self._kept is not None:
            storage.copy_(self._kept[ptr])  # through the uint8 view: no version counter moves
            return
        from_file = storage  # the bytes the file holds: the whole storage, or only its whole pages
        if ptr in self._pages:  # its edges from memory
            offset, from_file, head, tail = self._pages[ptr]
            storage[: head.numel()].copy_(head)
            storage[storage.numel() - tail.numel() :].copy_(tail)
        with _bounce() as buf:
            for start, n in _read_back(self._file.fileno(), buf, offset, from_file.numel()):
                from_file[start : start + n].copy_(buf[:n])  # through the uint8 view: no version counter moves


def _ptr(t: torch.Tensor) -> int | None:
    """The data pointer of `t`'s storage; None for a tensor with none to compare (fake, meta, sparse, other device)."""
    if t.device.type != "cpu" or t.layout != torch.strided:
        return None
    try:
        return t.untyped_storage().data_ptr()
    except Exception:  # a FakeTensor's storage cannot be read
        return None


def _libc_memcmp() -> Any:
    try:
        fn = ctypes.CDLL(None).memcmp
    except (OSError, AttributeError):  # no C library to find by that name: torch compares
        return None
    fn.restype, fn.argtypes = ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
    return fn


_MEMCMP = _libc_memcmp()


def _equal(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Two contiguous uint8 runs byte for byte: the C library's memcmp where there is one (a third less CPU
    than torch.equal on int64 views, which is ~7× faster than on uint8: 0.07 s of vit_b_16's 346 MB)."""
    if a.numel() != b.numel():
        return False
    if _MEMCMP is not None and a.is_contiguous() and b.is_contiguous():
        return a.numel() == 0 or _MEMCMP(a.data_ptr(), b.data_ptr(), a.numel()) == 0
    n = a.numel() // 8 * 8
    try:
        head = torch.equal(a[:n].view(torch.int64), b[:n].view(torch.int64))
    except RuntimeError:  # an offset not on 8 bytes: no int64 view
        return torch.equal(a, b)
    return head and torch.equal(a[n:], b[n:])


def _whole(n: int) -> int:
    return -(-n // _ALIGN) * _ALIGN


def _chunks(stored: Iterable[tuple[int, torch.Tensor]], total: int) -> Iterator[tuple[int, int, list[tuple]]]:
    """The file in chunks of _CHUNK bytes: (file offset, bytes to read or write, pieces), each piece
    (start in the chunk, end in it, a storage's bytes, where in them it starts), for `stored` (offset in the
    file, bytes) laid end to end at whole blocks."""
    order = sorted(stored, key=lambda s: s[0])
    i = 0
    for at in range(0, total, _CHUNK):
        end = min(at + _CHUNK, total)
        pieces = []
        while i < len(order) and order[i][0] < end:
            offset, data = order[i]
            lo, hi = max(offset, at), min(offset + data.numel(), end)
            if hi > lo:
                pieces.append((lo - at, hi - at, data, lo - offset))
            if offset + data.numel() > end:
                break  # the rest of it is in the next chunk
            i += 1
        yield at, end - at, pieces


@contextlib.contextmanager
def _bounce() -> Iterator[torch.Tensor]:
    """A page-aligned buffer (O_DIRECT reads and writes need one), as a uint8 tensor."""
    with mmap.mmap(-1, _CHUNK) as region:
        view = torch.frombuffer(region, dtype=torch.uint8)
        try:
            yield view
        finally:
            del view


def _read_back(fd: int, buf: torch.Tensor, offset: int, size: int) -> Iterator[tuple[int, int]]:
    """The file's `size` bytes from `offset`, a chunk at a time into `buf`: (start, n) once `buf[:n]` holds them."""
    for start in range(0, size, _CHUNK):
        n = min(_CHUNK, size - start)
        _io(os.preadv, fd, buf, _whole(n), offset + start)
        yield start, n


def _io(call: Any, fd: int, buf: torch.Tensor, n: int, offset: int) -> None:
    mv = buf.numpy().data
    done = 0
    while done < n:
        got = call(fd, [mv[done:n]], offset + done)
        if got <= 0:  # a read past the end: the file holds less than was written
            raise OSError(f"temp file short: {done} of {n} bytes")
        done += got


def _take_back(module: torch.nn.Module, back: dict[int, torch.Tensor], lent: set[int], users: set[int]) -> None:
    """In `module`: aliases in `back` become the user's tensors again; any other tensor still on a lent storage
    (a view lent code made and kept) gets its own copy."""
    for mod in module.modules():
        for store in (mod._parameters, mod._buffers):
            for name, t in store.items():
                if t is not None:
                    store[name] = _settled(t, back, lent, users)
        for name, value in list(vars(mod).items()):
            if isinstance(value, torch.Tensor):
                object.__setattr__(mod, name, _settled(value, back, lent, users))


def _settled(t: torch.Tensor, back: dict[int, torch.Tensor], lent: set[int], users: set[int]) -> Any:
    if id(t) in back:
        return back[id(t)]
    if id(t) in users or _ptr(t) not in lent:
        return t
    c = t.detach().clone()
    return torch.nn.Parameter(c, requires_grad=t.requires_grad) if isinstance(t, torch.nn.Parameter) else c
