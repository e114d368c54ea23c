"""Cost of refusing a gzip bomb in an untrusted notebook (`pt2e_lens.schema.packed.unpack`): a 1 GB gzip of
zeros whose trailer declares its size (what gzip writes) against the same bytes with a trailer that lies
(the path every bomb took before: inflate up to `max_json_bytes`, then refuse).

    PYTHONPATH=kernel_pkg python bench/bombs.py

Prints the median of 3 of each, and their ratio (inflating / declared).
"""

from __future__ import annotations

import base64
import statistics
import time
import zlib

from pt2e_lens.schema.packed import PackedProblem, unpack


def gzip_of_zeros(n: int) -> bytes:
    """A gzip stream of n zero bytes, compressed a MB at a time (never n bytes in memory)."""
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunk = bytes(1 << 20)
    parts = [c.compress(chunk) for _ in range(n >> 20)]
    return b"".join(parts) + c.flush()


def envelope(raw: bytes) -> dict:
    data = base64.b64encode(raw).decode()
    return {"format": "pt2e-lens.packed", "encoding": "gzip+base64", "schema_version": 1, "data": data}


def refuse(doc: dict) -> float:
    t = time.perf_counter()
    try:
        unpack(doc)
    except PackedProblem as e:
        assert "max_json_bytes" in str(e), e
    else:
        raise AssertionError("not refused")
    return time.perf_counter() - t


def main() -> None:
    bomb = gzip_of_zeros(1 << 30)
    liar = bomb[:-4] + (1000).to_bytes(4, "little")
    declared = statistics.median(refuse(envelope(bomb)) for _ in range(3))
    inflating = statistics.median(refuse(envelope(liar)) for _ in range(3))
    print(f"1 GB gzip of zeros ({len(bomb):,} bytes compressed)")
    print(f"  refused by its declared size: {declared:.3f} s")
    print(f"  refused while inflating (a lying trailer, the earlier path for every bomb): {inflating:.3f} s")
    print(f"  ratio inflating / declared: {inflating / declared:.1f}x")


if __name__ == "__main__":
    main()
