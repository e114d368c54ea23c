"""Write the View JSON of real exported graphs for bench/views.mjs (what `pl.show(ep)` displays).

Run: .venv/bin/python bench/view_docs.py OUT_DIR [name …]
Names: resnet-250 (~4.8k nodes), resnet-1000 (~19k), transformer-100 (the 100-layer encoder, ~4.7k),
decoder-100k (models.DECODER_100K GPT-like blocks through `pl.capture` with torchao's XNNPACKQuantizer:
the converted stage's View, ~100k nodes; several minutes to write).
Each file is `<name>.json`, the View exactly as the MIME bundle carries it; a line per file is printed as
`name nodes bytes seconds` (seconds = export + snapshot) for the caller to read.
"""

from __future__ import annotations

import json
import sys
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch  # noqa: E402

import pt2e_lens as pl  # noqa: E402
from bench import models  # noqa: E402

GRAPHS = {
    "resnet-250": ("resnet", 250),
    "resnet-1000": ("resnet", 1000),
    "transformer-100": ("transformer", 100),
    "decoder-100k": ("decoder", models.DECODER_100K),
}
CONVERTED = {"decoder"}  # kinds drawn as their quantized (converted) stage, the graph a user reads after convert


def converted(kind: str, n: int) -> Any:
    """The converted Stage of `pl.capture` (export → prepare → calibrate on 2 batches → convert)."""
    from pt2e_lens.examples import xnnpack_quantizer

    model, inputs = models.build(kind, n)
    run = pl.capture(model, inputs, xnnpack_quantizer(), calibration=models.calibration(kind, 2, inputs))
    return run["converted"]


def write(out: Path, name: str) -> None:
    kind, n = GRAPHS[name]
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = converted(kind, n) if kind in CONVERTED else models.export(kind, n)
        view = pl.show(x, title=f"{name} (bench)").view
    text = json.dumps(view, separators=(",", ":"), allow_nan=False)
    (out / f"{name}.json").write_text(text, encoding="utf-8")
    nodes = len(view["panes"][0]["snapshot"]["nodes"])
    print(f"{name} {nodes} {len(text)} {time.perf_counter() - t0:.1f}", flush=True)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    names = argv[1:] or list(GRAPHS)
    unknown = [n for n in names if n not in GRAPHS]
    if unknown:
        print(f"unknown graph {unknown}: pick from {', '.join(GRAPHS)}", file=sys.stderr)
        return 2
    torch.set_num_threads(1)
    for name in names:
        write(out, name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
