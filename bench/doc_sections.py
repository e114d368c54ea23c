"""A `## ` section of a markdown page replaced where it stands, or appended: bench/zoo.py's Zoo and bench/beyond.py's
"Beyond the matrix" in docs/conformance.md, each writer owning its section and leaving the others as they are."""

from __future__ import annotations


def replace_section(doc: str, heading: str, text: str) -> str:
    """`doc` with the section under `heading` (down to the next `## ` heading) replaced by `text` (which starts with
    that heading), one blank line before the next section; `text` appended after a blank line if `doc` has none."""
    start = doc.find(f"\n{heading}\n")
    if start < 0:
        return doc.rstrip("\n") + "\n\n" + text
    end = doc.find("\n## ", start + 1)
    new = doc[:start].rstrip("\n") + "\n\n" + text
    return new.rstrip("\n") + "\n" + doc[end:] if end >= 0 else new
