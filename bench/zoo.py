"""Real zoo models (bench/zoo_models.py) × XNNPACK static/dynamic, X86, composed: torchao's own flow vs pl.capture.

    python bench/zoo.py                                   # every model × quantizer; prints the markdown table
    python bench/zoo.py --models 'resnet18|HF BERT' --quantizers static --save a.json
    python bench/zoo.py --load a.json b.json --docs       # the table from saved parts, into docs/conformance.md

Each flow of each row runs alone in its own process (bench/zoo_child.py), bare torchao first, then pl.capture:
counts (observer call sites and instances of the prepared graph, every op of the converted graph) and the
annotation map compared as bench/conformance_cases.py does; CPU seconds lens ÷ bare (goal ≤ 1.10); peak RSS
above each process's baseline (after imports and the model's build), lens ÷ bare (goal ≤ 1.5). Rows of the full
matrix neither measured nor loaded are listed "not run this session". No assertions: numbers only.
torchvision only imports with its own torch (2.14.1 + torchvision 0.29.1 here): run those rows in that venv and
the transformers rows in the repo's too (`pip install -e ".[zoo]"`), then --load both parts. That venv, outside
the checkout (pt2e_lens is imported from this checkout's kernel_pkg; no downloads of weights: torchvision
weights=None, HF small configs):

    python3 -m venv ../zoo-venv && ../zoo-venv/bin/pip install torch==2.14.1 torchvision==0.29.1
    ../zoo-venv/bin/pip install torchao==0.18.0 timm transformers anywidget ipywidgets ipython comm numpy torch==2.14.1
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "kernel_pkg"))
sys.path.insert(0, str(HERE.parent))

from bench.conformance_cases import differences  # noqa: E402
from bench.conformance_quantizers import Missing  # noqa: E402
from bench.doc_sections import replace_section  # noqa: E402
from bench.zoo_models import ZOO, build  # noqa: E402

DOC = HERE.parent / "docs" / "conformance.md"
SECTION = "## Zoo"

QUANTIZERS = {  # column label -> the conformance case it runs (bench/conformance_quantizers.py)
    "XNNPACK static": "torchao XNNPACK static per-channel",
    "XNNPACK dynamic": "torchao XNNPACK dynamic",
    "X86": "torchao X86Inductor default",
    "composed": "torchao Composable[Embedding, XNNPACK]",
}
CPU_GOAL, RSS_GOAL = 1.10, 1.5
# failures of torchao's own flow seen on these models (read in torchao 0.18.0's source): reason regex -> note
TORCHAO_NOTES = [
    (
        r"indices",
        "torchao's XNNPACKQuantizer.transform_for_annotation (`_convert_scalars_to_attrs`) makes every scalar of "
        "add/mul a float tensor, also in integer position-id arithmetic",
    ),
    (
        r"IndexError: list index out of range|Input partition has more than one output node",
        "torchao's X86InductorQuantizer fails in its own `_get_output_nodes_of_partitions` while annotating",
    ),
]
EARLIER = " — figures from before this run"  # status suffix of a row kept from the docs' table (--merge-docs)
NOISE_MB = 32  # both flows adding less than this: the RSS ratio is allocator and page noise, not judged


@dataclasses.dataclass
class ZooRow:
    model: str
    quantizer: str
    torch: str = ""
    torchao: str = ""
    status: str = "not run this session"
    counts_equal: bool | None = None
    annotations_equal: bool | None = None
    cpu_bare: float | None = None
    cpu_lens: float | None = None
    rss_bare_mb: float | None = None  # peak RSS above the process's baseline
    rss_lens_mb: float | None = None
    rss_lens_read_mb: float | None = None  # the same after the snapshots were read
    nodes: int | None = None
    repeats: int = 0  # child processes per flow; CPU and RSS are their medians
    cpu_bare_runs: list[float] = dataclasses.field(default_factory=list)  # CPU seconds of each process
    cpu_lens_runs: list[float] = dataclasses.field(default_factory=list)
    load: float | None = None  # the machine's 1-minute load average when the row was done
    reason: str = ""
    earlier: bool = False  # kept from the docs' table, not measured in this run (--merge-docs)

    @property
    def rss_judged(self) -> bool:
        return self.rss_lens_mb is not None and max(self.rss_lens_mb, self.rss_bare_mb or 0) >= NOISE_MB

    @property
    def cpu_ratio(self) -> float | None:
        return self.cpu_lens / self.cpu_bare if self.cpu_lens and self.cpu_bare else None

    @property
    def rss_ratio(self) -> float | None:
        return (
            self.rss_lens_mb / max(self.rss_bare_mb, 1.0) if self.rss_lens_mb is not None and self.rss_bare_mb else None
        )


def child(which: str, model: str, quantizer: str, timeout: float) -> dict:
    cmd = [sys.executable, str(HERE / "zoo_child.py"), which, model, QUANTIZERS[quantizer]]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{which} timed out after {timeout:.0f} s") from None
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")), None)
    if line is None:
        tail = [ln for ln in proc.stderr.strip().splitlines() if ln.strip()][-1:] or ["(no output)"]
        raise RuntimeError(f"{which} fails: {tail[0][:200]}")
    return json.loads(line[len("RESULT ") :])


def _annotations(d: dict) -> dict:
    return {k: (tuple(v[0]), v[1]) for k, v in d.items()}


def run_row(model: str, quantizer: str, timeout: float, repeats: int = 1) -> ZooRow:
    import torch
    import torchao

    row = ZooRow(model, quantizer, torch.__version__, torchao.__version__)
    try:
        build(model)  # not importable here: one clear status instead of two failing children
    except Missing as e:
        row.status, row.reason = "not importable here", str(e)
        return row
    runs: dict[str, list[dict]] = {"bare": [], "lens": []}
    for i in range(repeats):  # order alternates between repeats
        for which in ("bare", "lens") if i % 2 == 0 else ("lens", "bare"):
            try:
                runs[which].append(child(which, model, quantizer, timeout))
            except RuntimeError as e:
                row.status = "torchao itself fails" if which == "bare" else "pl.capture fails"
                row.reason = str(e)
                return row
    real, got = runs["bare"][0], runs["lens"][0]
    row.status = "ran"
    row.counts_equal = (got["calls"], got["instances"], got["ops"]) == (real["calls"], real["instances"], real["ops"])
    row.annotations_equal = _annotations(got["annotations"]) == _annotations(real["annotations"])
    reasons = []
    if not row.counts_equal:
        reasons.append(
            f"counts: observers {got['calls']}/{got['instances']} vs torchao {real['calls']}/{real['instances']}; "
            f"ops {differences(real['ops'], got['ops'])}"
        )
    if not row.annotations_equal:
        reasons.append(
            f"annotations: {differences(_annotations(real['annotations']), _annotations(got['annotations']))}"
        )
    row.cpu_bare = statistics.median(r["cpu"] for r in runs["bare"])
    row.cpu_lens = statistics.median(r["cpu"] for r in runs["lens"])
    row.rss_bare_mb = statistics.median(r["rss_peak_mb"] - r["rss_base_mb"] for r in runs["bare"])
    row.rss_lens_mb = statistics.median(r["rss_peak_mb"] - r["rss_base_mb"] for r in runs["lens"])
    row.rss_lens_read_mb = statistics.median(r["rss_peak_read_mb"] - r["rss_base_mb"] for r in runs["lens"])
    row.repeats = repeats
    row.cpu_bare_runs = [r["cpu"] for r in runs["bare"]]
    row.cpu_lens_runs = [r["cpu"] for r in runs["lens"]]
    row.load = os.getloadavg()[0]
    row.nodes = real["nodes"]
    row.reason = " | ".join(reasons)
    return row


def _yes(value: bool | None) -> str:
    return "—" if value is None else ("yes" if value else "**no**")


def _ratio(value: float | None, goal: float) -> str:
    if value is None:
        return "—"
    return f"{value:.2f}" if value <= goal else f"**{value:.2f}**"


def _mb(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f}"


def _cpu_note(r: ZooRow) -> str:
    """Why a row's CPU ratio is over the goal, from its own processes: within their spread, or not."""
    b, lens = r.cpu_bare_runs, r.cpu_lens_runs
    if len(b) < 2:
        return (
            f"CPU over the goal in one process per flow (bare {b[0]:.1f} s, lens {lens[0]:.1f} s, load "
            f"{r.load or 0:.0f} on {os.cpu_count()} cores), not repeated: two processes of one flow differ by more "
            "than that at such a load"
        )
    digits = 2 if max(b + lens) < 1 else 1  # a flow under a second: tenths would show 0.3–0.3
    spread = (
        f"CPU s of the {len(b)} processes per flow: bare {min(b):.{digits}f}–{max(b):.{digits}f}, lens "
        f"{min(lens):.{digits}f}–{max(lens):.{digits}f} (load {r.load or 0:.0f} on {os.cpu_count()} cores)"
    )
    if len(b) > 1 and min(lens) <= max(b):
        return f"CPU over the goal within the noise: {spread}"
    return (
        "CPU over the goal: pt2e-lens's own work (the prepared stage's copy, whose code fx regenerates; watching "
        "the annotators for pl.why_not; the weights lent to the quantizer, kept and compared byte for byte; the "
        f"annotated snapshot) on top of the noise; {spread}"
    )


def _reason(r: ZooRow) -> str:
    notes = [n for pattern, n in TORCHAO_NOTES if r.status == "torchao itself fails" and re.search(pattern, r.reason)]
    over = (r.cpu_ratio or 0) > CPU_GOAL and r.cpu_bare_runs and r.cpu_lens_runs
    text = "".join(f"[{n}] " for n in notes) + " | ".join(
        t for t in (r.reason[:240], _cpu_note(r) if over else "") if t
    )
    return text.replace("|", "\\|").replace("\n", " ")


def _measured(r: ZooRow) -> str:
    """How a row that ran was measured: processes per flow, the machine's load when it was done."""
    parts = [f"medians of {r.repeats}"] if r.repeats > 1 else []
    if r.status == "ran" and r.load is not None:
        parts.append(f"load {r.load:.0f}")
    return f" ({'; '.join(parts)})" if parts else ""


def table(rows: list[ZooRow]) -> str:
    head = (
        "| model | quantizer | torch | status | counts | annotations | converted ops | CPU lens ÷ bare "
        "| peak RSS above baseline, bare MB | lens MB | lens ÷ bare | lens MB, snapshots read | reason |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    lines = []
    for r in rows:
        cells = [
            r.model,
            r.quantizer,
            r.torch or "—",
            r.status + _measured(r) + (EARLIER if r.earlier else ""),
            _yes(r.counts_equal),
            _yes(r.annotations_equal),
            "—" if r.nodes is None else str(r.nodes),
            _ratio(r.cpu_ratio, CPU_GOAL),
            _mb(r.rss_bare_mb),
            _mb(r.rss_lens_mb),
            _ratio(r.rss_ratio, RSS_GOAL) if r.rss_judged or r.rss_ratio is None else f"({r.rss_ratio:.2f})",
            _mb(r.rss_lens_read_mb),
            _reason(r),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return head + "\n".join(lines) + "\n"


def section(rows: list[ZooRow]) -> str:
    ran = [r for r in rows if r.status == "ran"]
    torchao_fails = sum(r.status == "torchao itself fails" for r in rows)
    not_run = sum(r.status == "not run this session" for r in rows)
    equal = sum(bool(r.counts_equal and r.annotations_equal) for r in ran)
    cpu_ok = sum((r.cpu_ratio or 0) <= CPU_GOAL for r in ran)
    judged = [r for r in ran if r.rss_judged]
    rss_ok = sum((r.rss_ratio or 0) <= RSS_GOAL for r in judged)
    versions = sorted({f"torch {r.torch}, torchao {r.torchao}" for r in ran})
    loads = [r.load for r in ran if r.load is not None]
    load = (
        f" The machine's 1-minute load average when each row was done (in its status): {min(loads):.1f}–"
        f"{max(loads):.1f} on {os.cpu_count()} cores, shared with other work."
        if loads
        else ""
    )
    return (
        f"{SECTION}\n\n"
        f"Generated by `python bench/zoo.py` on {datetime.date.today().isoformat()} ({'; '.join(versions) or '—'}); "
        "do not edit the table by hand. Real architectures from torchvision (`weights=None`), timm "
        "(`pretrained=False`) and Hugging Face transformers (small configs: 2 layers, hidden 128), random weights, "
        "nothing downloaded (`bench/zoo_models.py`), × torchao's XNNPACK static per-channel and dynamic, X86Inductor "
        "default and Composable[Embedding, XNNPACK]. Each flow runs alone in its own process, one thread "
        "(`bench/zoo_child.py`): torchao's own `export → prepare_pt2e → 4 calibration batches → convert_pt2e`, then "
        "`pl.capture` with the same quantizer case, model and batches. **counts** and **annotations** as in the table "
        "above; **CPU** is the process CPU seconds of the flow (goal ≤ 1.10); **peak RSS above baseline** is "
        "`ru_maxrss` at the end minus the RSS after imports and the model's build (goal lens ÷ bare ≤ 1.5); the last "
        "MB column is lens's peak once the prepared, converted and annotated snapshots are read as well. torchvision "
        "imports only with its own torch (2.14.1 + torchvision 0.29.1): those rows ran in that venv. One process per "
        "flow unless the status says medians; bare's peak above baseline varies between processes of one row (by up "
        "to a few hundred MB on the largest models) much more than lens's: read a single RSS ratio as a rough one."
        f"{load}\n\n"
        f"**{len(ran)} rows ran** (model × quantizer × torch version; {torchao_fails} more where torchao's own flow "
        f"fails, nothing to equal; {not_run} of the {len(ZOO) * len(QUANTIZERS)} model × quantizer pairs not run "
        f"this session): {equal} with counts and annotations equal to torchao's, "
        f"{cpu_ok} within the CPU goal, {rss_ok} of {len(judged)} within the memory goal "
        f"(a ratio in parentheses: both flows added < {NOISE_MB} MB, noise, not judged).\n\n" + table(rows)
    )


def write_docs(rows: list[ZooRow], extra: str = "") -> None:
    """Replace the Zoo section of docs/conformance.md where it stands (or append it); the rest stays as it is."""
    DOC.write_text(replace_section(DOC.read_text(), SECTION, section(rows) + extra))


def matrix(models: str, quantizers: str) -> list[tuple[str, str]]:
    return [(m, q) for m in ZOO for q in QUANTIZERS if re.search(models, m) and re.search(quantizers, q, re.IGNORECASE)]


Key = tuple[str, str, str]  # model, quantizer, torch version


def _cell_number(text: str) -> float | None:
    text = text.strip().strip("*()").replace(",", "")
    return None if text in ("", "—") else float(text)


def _cell_yes(text: str) -> bool | None:
    return None if text.strip() == "—" else "yes" in text


def from_docs() -> dict[Key, ZooRow]:
    """The rows of the Zoo table in docs/conformance.md as they are (CPU as a ratio: bare 1.0, lens the ratio)."""
    text = DOC.read_text()
    start = text.find(f"\n{SECTION}\n")
    end = text.find("\n## ", start + 1)
    got: dict[Key, ZooRow] = {}
    part = text[start : end if end >= 0 else None]
    torchao = dict(re.findall(r"torch ([^,;()]+), torchao ([^;()\s]+)", part))  # of the "Generated …" line
    for line in part.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) != 13 or cells[0] in ("model", "---") or cells[0].startswith("---"):
            continue
        status = cells[3].replace(EARLIER, "")
        m = re.match(r"(.*) \((?:medians of (\d+))?(?:; )?(?:load ([\d.]+))?\)$", status)
        ratio = _cell_number(cells[7])
        if ratio is not None and cells[7].startswith("**") and ratio <= CPU_GOAL:
            ratio += 0.004  # shown rounded to the goal, but above it
        row = ZooRow(
            cells[0],
            cells[1],
            "" if cells[2] == "—" else cells[2],
            torchao.get(cells[2], ""),
            status=m.group(1) if m else status,
            counts_equal=_cell_yes(cells[4]),
            annotations_equal=_cell_yes(cells[5]),
            nodes=None if cells[6] == "—" else int(cells[6]),
            cpu_bare=1.0 if ratio is not None else None,
            cpu_lens=ratio,
            rss_bare_mb=_cell_number(cells[8]),
            rss_lens_mb=_cell_number(cells[9]),
            rss_lens_read_mb=_cell_number(cells[11]),
            repeats=int(m.group(2)) if m and m.group(2) else 1,
            load=float(m.group(3)) if m and m.group(3) else None,
            reason=re.sub(r"^(\[[^\]]*\] )+", "", cells[12].replace("\\|", "|")),  # table() adds the notes again
            earlier=EARLIER in cells[3],
        )
        got[(row.model, row.quantizer, row.torch)] = row
    return got


def before_after(before: dict[Key, ZooRow], after: dict[Key, ZooRow]) -> str:
    """Rows measured now that the docs' table had measured too: CPU and peak-RSS ratios, earlier → now."""
    lines = [
        "| model | quantizer | torch | CPU lens ÷ bare | lens MB above baseline | peak RSS lens ÷ bare |",
        "|---|---|---|---|---|---|",
    ]
    for key, new in after.items():
        old = before.get(key)
        if old is None or old.status != "ran" or new.status != "ran":
            continue
        cells = [
            *key,
            f"{_ratio(old.cpu_ratio, CPU_GOAL)} → {_ratio(new.cpu_ratio, CPU_GOAL)}",
            f"{_mb(old.rss_lens_mb)} → {_mb(new.rss_lens_mb)}",
            f"{_ratio(old.rss_ratio, RSS_GOAL)} → {_ratio(new.rss_ratio, RSS_GOAL)}",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def load(paths: list[str]) -> dict[Key, ZooRow]:
    """Saved parts; per torch version a row that ran wins over one that did not, a later part over an earlier one."""
    got: dict[Key, ZooRow] = {}
    for path in paths:
        for d in json.loads(Path(path).read_text()):
            row = ZooRow(**d)
            key = (row.model, row.quantizer, row.torch)
            if key not in got or row.status == "ran" or got[key].status != "ran":
                got[key] = row
    return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default="", help="regex on model names")
    parser.add_argument("--quantizers", default="", help="regex on quantizer labels: " + ", ".join(QUANTIZERS))
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per child process")
    parser.add_argument("--repeats", type=int, default=1, help="processes per flow, order alternating (medians)")
    parser.add_argument("--save", help="write the measured rows as JSON")
    parser.add_argument("--load", nargs="*", help="rows from saved parts instead of measuring")
    parser.add_argument("--docs", action="store_true", help="replace the Zoo section of docs/conformance.md")
    parser.add_argument(
        "--merge-docs",
        action="store_true",
        help="with --docs: rows not measured (or loaded) now keep the docs' table's figures, marked as earlier; "
        "a table of the re-measured rows, earlier → now, follows",
    )
    args = parser.parse_args()
    earlier = from_docs() if args.merge_docs else {}
    if args.load:
        got = load(args.load)
    else:
        got = {}
        for model, quantizer in matrix(args.models, args.quantizers):
            row = run_row(model, quantizer, args.timeout, args.repeats)
            got[(model, quantizer, row.torch)] = row
            print(
                f"{row.status}: {model} × {quantizer}: counts {_yes(row.counts_equal)}, annotations "
                f"{_yes(row.annotations_equal)}, CPU {_ratio(row.cpu_ratio, CPU_GOAL)}, RSS "
                f"{_mb(row.rss_bare_mb)} → {_mb(row.rss_lens_mb)} MB ({_ratio(row.rss_ratio, RSS_GOAL)}) {row.reason[:200]}",
                file=sys.stderr,
                flush=True,
            )
            if args.save:  # after every row: a long run stopped midway keeps what it measured
                Path(args.save).write_text(json.dumps([dataclasses.asdict(r) for r in got.values()], indent=1))
    measured = dict(got)
    for key, row in earlier.items():  # kept as they were, marked
        if key not in got:
            row.earlier = row.status == "ran"
            got[key] = row
    rows = []
    for m, q in matrix("", ""):  # every pair of the full matrix: its rows per torch version, or "not run"
        rows.extend(sorted((r for k, r in got.items() if k[:2] == (m, q)), key=lambda r: r.torch) or [ZooRow(m, q)])
    extra = ""
    if args.merge_docs:
        extra = (
            f"\n### Re-measured on {datetime.date.today().isoformat()}, earlier → now\n\n"
            f"{len(measured)} rows measured in this run (the rest keep their earlier figures, marked in the status "
            "column); CPU and peak RSS of the rows the earlier table had measured too (where pt2e-lens's memory goes, step "
            'by step: `bench/stage_memory.py`, docs/bench.md "Memory per stage"):\n\n' + before_after(earlier, measured)
        )
    print((section(rows) + extra) if args.docs or args.load else table([r for r in rows if r.torch]))
    if args.docs:
        write_docs(rows, extra)
        print(f"wrote {os.path.relpath(DOC, HERE.parent)}", file=sys.stderr)


if __name__ == "__main__":
    main()
