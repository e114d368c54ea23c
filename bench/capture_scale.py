"""pl.capture + snapshot ÷ the bare torchao pipeline on a big graph, with peak RSS (goal ≤ 1.10, < 4 GB).

    PYTHONPATH=kernel_pkg .venv/bin/python bench/capture_scale.py --kind decoder --n 8 --repeats 3
    … --baseline main   # also time pt2e_lens as it is on `main` (git archive into a temp dir), same run

Every measurement runs alone in a child process (bench/capture_child.py), so each peak RSS is its own and no
run's garbage slows the next one's GC; the order alternates between repeats. Ratios of medians, wall and CPU.
Also run by `bench/capture.py --only scale`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def checkout(ref: str, into: str) -> str:
    """kernel_pkg as it is at git `ref`, extracted under `into`: its path for PYTHONPATH."""
    os.makedirs(into, exist_ok=True)
    archive = os.path.join(into, "kernel_pkg.tar")
    subprocess.run(["git", "-C", ROOT, "archive", "-o", archive, ref, "kernel_pkg"], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return os.path.join(into, "kernel_pkg")


def child(which: str, kind: str, n: int, batches: int, threads: int, pkg: str) -> dict:
    env = dict(os.environ, PYTHONPATH=pkg)
    cmd = [sys.executable, os.path.join(HERE, "capture_child.py"), which, kind, str(n), str(batches), str(threads)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")), None)
    if line is None:
        raise RuntimeError(f"{which} child failed: {proc.stderr.strip().splitlines()[-3:]}")
    return json.loads(line[len("RESULT ") :])


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def bench_scale(
    kind: str,
    n: int,
    batches: int,
    repeats: int,
    threads: int,
    baseline: str | None,
    quantizer: str = "xnnpack",
    ref: str | None = None,
) -> dict:
    """`ref`: time pt2e_lens at this git ref instead of the working tree (so editing during a long run is safe)."""
    os.environ["PT2E_LENS_BENCH_QUANTIZER"] = quantizer  # the children read it
    tmp = tempfile.TemporaryDirectory() if baseline or ref else None
    pkgs = {"lens": os.path.join(ROOT, "kernel_pkg")}
    if tmp is not None and ref:
        pkgs = {f"lens@{ref}": checkout(ref, os.path.join(tmp.name, "ref"))}
    if tmp is not None and baseline:
        pkgs[f"lens@{baseline}"] = checkout(baseline, os.path.join(tmp.name, "baseline"))
    names = ["bare", *pkgs]
    print(f"\n== scale: pl.capture + snapshot vs bare torchao, {kind} {n}, {batches} batches, quantizer {quantizer}")
    print(f"   {repeats} repeats, order rotating, each in its own process; load average at start {load()}")
    got: dict[str, list[dict]] = {k: [] for k in names}
    for i in range(repeats):
        order = names[i % len(names) :] + names[: i % len(names)]
        for which in order:
            r = child("bare" if which == "bare" else "lens", kind, n, batches, threads, pkgs.get(which, ROOT))
            got[which].append(r)
            steps = ", ".join(f"{k} {v:.1f}" for k, v in r["steps"].items())
            print(
                f"   repeat {i} {which:<12} {r['wall']:7.1f} s wall, {r['cpu']:7.1f} s cpu ({steps}); gc "
                f"{r['gc_s']:.1f} s ({r['gc_full']} full); peak RSS {r['rss_peak_mb']:,.0f} MB "
                f"(model built: {r['rss_before_mb']:,.0f} MB); {r['nodes']:,} nodes; load {load()}",
                flush=True,
            )
    if tmp is not None:
        tmp.cleanup()
    med = {k: {m: statistics.median(r[m] for r in v) for m in ("wall", "cpu", "rss_peak_mb")} for k, v in got.items()}
    out = {
        "kind": kind,
        "n": n,
        "quantizer": quantizer,
        "batches": batches,
        "runs": got,
        "median": med,
        "load_end": load(),
    }
    for k in pkgs:
        out[f"ratio {k}"] = {m: med[k][m] / med["bare"][m] for m in ("wall", "cpu")}
        print(
            f"   RATIO {k} ÷ bare = {out[f'ratio {k}']['wall']:.2f} wall, {out[f'ratio {k}']['cpu']:.2f} CPU "
            f"(medians {med[k]['wall']:.1f} s vs {med['bare']['wall']:.1f} s); peak RSS {med[k]['rss_peak_mb']:,.0f} MB "
            f"vs bare {med['bare']['rss_peak_mb']:,.0f} MB   (goal ≤ 1.10, < 4 GB)"
        )
    print(f"   load average at end {out['load_end']}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kind", default="decoder")
    ap.add_argument("--n", type=int, default=8)
    ap.add_argument("--batches", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--baseline", help="a git ref whose kernel_pkg is timed too (e.g. main)")
    ap.add_argument("--ref", help="time this git ref's kernel_pkg instead of the working tree's")
    ap.add_argument("--quantizer", choices=["xnnpack", "x86"], default="xnnpack")
    ap.add_argument("--json-out")
    args = ap.parse_args()
    out = bench_scale(
        args.kind, args.n, args.batches, args.repeats, args.threads, args.baseline, args.quantizer, args.ref
    )
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
