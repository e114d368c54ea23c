"""Write the Views of issue 15's "wall of findings" measure: the 250-block residual model captured with the
examples' ConvReluQuantizer (its adds stay fp32 between quantized convs: one island per block).

Run: .venv/bin/python bench/reading_heights.py OUT_DIR   (then `node bench/reading_heights.mjs OUT_DIR`)
Writes `run.json` (what `pl.show(run)` displays) and `compare.json` (`pl.compare` of prepared vs converted),
and prints `name converted_nodes findings` per file.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch  # noqa: E402

import pt2e_lens as pl  # noqa: E402
from bench import models  # noqa: E402
from pt2e_lens.examples import ConvReluQuantizer  # noqa: E402

# the same cell the JupyterLab panel measure runs in its kernel
CELL = """import warnings, torch, pt2e_lens as pl
from bench import models
from pt2e_lens.examples import ConvReluQuantizer
warnings.simplefilter("ignore")
model, inputs = models.build("resnet", 250)
run = pl.capture(model, inputs, ConvReluQuantizer(), calibration=models.calibration("resnet", 1, inputs))"""


def capture() -> pl.Run:
    model, inputs = models.build("resnet", 250)
    return pl.capture(model, inputs, ConvReluQuantizer(), calibration=models.calibration("resnet", 1, inputs))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = capture()
        views = {
            "run": pl.show(run).view,
            "compare": pl.compare([(run["prepared"], "prepared"), (run["converted"], "converted")]).view,
        }
    for name, view in views.items():
        (out / f"{name}.json").write_text(json.dumps(view, separators=(",", ":"), allow_nan=False), encoding="utf-8")
        last = view["panes"][-1]["snapshot"]
        print(name, len(last["nodes"]), len(last["findings"]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
