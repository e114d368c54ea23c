"""Cost of checking a saved snapshot on load (`Snapshot.from_json`) against a bare `json.loads`.

    PYTHONPATH=kernel_pkg python bench/load_snapshot.py

A real prepared snapshot of a 2000-op chain of convolutions (one observer per edge), saved with `to_json`,
then loaded: bare json.loads, the depth pre-scan, the JSON Schema check (ours, and jsonschema's for
comparison) and the id check, each as a ratio to json.loads.
"""

from __future__ import annotations

import json
import time
import warnings

warnings.filterwarnings("ignore")

import torch  # noqa: E402
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e  # noqa: E402

import pt2e_lens as pl  # noqa: E402
from pt2e_lens.examples import ConvReluQuantizer  # noqa: E402
from pt2e_lens.schema import VIEW_SCHEMA  # noqa: E402
from pt2e_lens.schema.bounds import check_tree  # noqa: E402
from pt2e_lens.schema.check import nesting_depth, parse, schema_error  # noqa: E402
from pt2e_lens.schema.references import reference_error  # noqa: E402

LAYERS = 500


def _jsonschema_valid(data) -> bool:
    import jsonschema  # a test dependency only

    schema = {**VIEW_SCHEMA, "oneOf": [{"$ref": "#/$defs/Snapshot"}]}
    return jsonschema.Draft202012Validator(schema).is_valid(data)


def best(f, repeat=3) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    pl.quiet()
    model = torch.nn.Sequential(*[m for _ in range(LAYERS) for m in (torch.nn.Conv2d(4, 4, 1), torch.nn.ReLU())])
    ep = torch.export.export(model.eval(), (torch.randn(1, 4, 4, 4),))
    prepared = prepare_pt2e(ep.module(), ConvReluQuantizer())
    text = pl.snapshot(prepared).to_json()
    data = json.loads(text)
    base = best(lambda: json.loads(text))
    print(f"{len(data['nodes'])} nodes, {len(text) / 1e6:.1f} MB; json.loads {base * 1e3:.0f} ms")
    for name, f in [
        ("depth pre-scan", lambda: nesting_depth(text)),
        ("bounds walk (contract limits: strings, values, depth)", lambda: check_tree(data)),
        ("parse (pre-scan + loads + finite numbers + bounds)", lambda: parse(text)),
        ("JSON Schema check (pt2e_lens.schema.check)", lambda: schema_error(data, VIEW_SCHEMA, "Snapshot")),
        ("the same with jsonschema (not used: for comparison)", lambda: _jsonschema_valid(data)),
        ("id check", lambda: reference_error(data)),
        ("Snapshot.from_json (all)", lambda: pl.Snapshot.from_json(text)),
    ]:
        t = best(f)
        print(f"{name}: {t * 1e3:.0f} ms, {t / base:.1f}x json.loads")


if __name__ == "__main__":
    main()
