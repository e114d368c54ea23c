"""What pt2e-lens outputs cost a saved notebook: bytes per MIME type in the executed quickstart.

Run: .venv/bin/python bench/notebook_size.py
Prints each output's size by MIME type and the share taken by the inlined front-end bundle, so the
choice "inline the report bundle in every text/html output" can be weighed against its cost.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from pt2e_lens._static import bundle
from pt2e_lens.display import MIME

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "quickstart.ipynb"


def main() -> int:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3").execute()
    js = bundle("report.js") or ""
    totals: dict[str, int] = {}
    views = 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            for mime, data in out.get("data", {}).items():
                size = len(data if isinstance(data, str) else json.dumps(data))
                totals[mime] = totals.get(mime, 0) + size
            views += MIME in out.get("data", {})
    whole = len(nbformat.writes(nb))
    print(f"notebook: {whole / 1024:.0f} KiB with {views} pt2e-lens outputs")
    for mime, size in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(f"  {mime:40s} {size / 1024:8.0f} KiB  ({size / whole:.0%})")
    inlined = len(js) * views
    print(
        f"report bundle: {len(js) / 1024:.0f} KiB, inlined {views}x = {inlined / 1024:.0f} KiB "
        f"({inlined / whole:.0%} of the notebook); view JSON (ratio to bundle): "
        f"{totals.get(MIME, 0) / max(inlined, 1):.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
