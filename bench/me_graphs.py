"""Write Model Explorer's graph JSON of the bench graphs, for bench/me_layout.mjs to lay out with ME's worker.

Runs in the venv that has `ai-edge-model-explorer` (see docs/bench.md), never in pt2e-lens's own venv:
    .bench-venv/bin/python bench/me_graphs.py OUT_DIR [name …]
Names as in bench/view_docs.py; a graph whose file exists is kept. Prints `web_app DIR` (ME's bundled front
end, where its layout worker is), then `name nodes` per graph written. Exported with the same
builders (bench/models.py), converted exactly as `model_explorer.visualize_pytorch` does.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
warnings.filterwarnings("ignore")

from bench import models  # noqa: E402

GRAPHS = {"resnet-250": ("resnet", 250), "resnet-1000": ("resnet", 1000), "transformer-100": ("transformer", 100)}


def main(argv: list[str]) -> int:
    import model_explorer
    import torch
    from model_explorer.consts import DEFAULT_SETTINGS
    from model_explorer.pytorch_exported_program_adapter_impl import PytorchExportedProgramAdapterImpl
    from model_explorer.utils import convert_adapter_response

    torch.set_num_threads(1)
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    print(f"web_app {Path(model_explorer.__file__).parent / 'web_app'}", flush=True)
    for name in argv[1:] or list(GRAPHS):
        if (out / f"{name}.me.json").exists():
            continue
        kind, n = GRAPHS[name]
        ep = models.export(kind, n)
        resp = convert_adapter_response(PytorchExportedProgramAdapterImpl(ep, DEFAULT_SETTINGS).convert())
        graphs = resp["graphs"] if "graphs" in resp else resp["graphCollections"][0]["graphs"]
        (out / f"{name}.me.json").write_text(json.dumps(graphs[0]), encoding="utf-8")
        print(f"{name} {len(graphs[0]['nodes'])}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
