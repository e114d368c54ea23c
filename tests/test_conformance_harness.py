"""The conformance harness itself (bench/conformance_cases.py, bench/conformance.py): it judges why-lines by the
catalogue's own reason texts (every locale, every reason analyses/why_lines.py writes), and the table's writer
keeps the sections other writers own in docs/conformance.md (bench/zoo.py's `## Zoo`)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.conformance import with_other_sections  # noqa: E402
from bench.conformance_cases import (  # noqa: E402
    ANNOTATED_KEYS,
    DECIDED_KEYS,
    NOTHING_KEYS,
    REASON_KEYS,
    classify,
    judge_why,
    why_reasons,
)
from pt2e_lens import i18n  # noqa: E402

WHY_LINES = ROOT / "kernel_pkg" / "pt2e_lens" / "analyses" / "why_lines.py"
NOT_REASONS = {"why.via", "why.unknown_quantizer", "why.skipped_by", "why.island"}  # parts or later lines


def test_every_reason_why_lines_writes_is_known():
    """A reason added to why_lines.py must be put in one of the harness's groups, or it is judged unspecific."""
    written = set(re.findall(r'"(why\.[a-z_]+)"', WHY_LINES.read_text())) - NOT_REASONS
    assert written and written <= set(REASON_KEYS), written - set(REASON_KEYS)


def _filled(cat: dict[str, str], key: str, **fields: str) -> str:
    via = cat["why.via"].format(fns=fields.get("fns", "")) if fields.get("fns") else ""
    values = {"via": via, "op": "aten.linear.default", "module": "attn", "matcher": "get_source_partitions"}
    values |= {"filters": "f", "example": "linear_2", "node": "x", **fields}
    return cat[key].format(**values)


@pytest.mark.parametrize("lang", i18n.available())
def test_lines_are_judged_by_their_fields(lang):
    cat = i18n.catalogue(lang)
    reasons = why_reasons(cat)
    names, top = {"XNNPACKQuantizer", "EmbeddingQuantizer"}, "ComposableQuantizer"
    for key in ANNOTATED_KEYS:
        line = _filled(cat, key, quantizer="[1] XNNPACKQuantizer", fns="_annotate_linear")
        got_key, fields = classify(line, reasons)
        assert (got_key, fields["quantizer"], fields["fns"]) == (key, "[1] XNNPACKQuantizer", "_annotate_linear")
        assert judge_why(*classify(line, reasons), names, top) == (True, True)
        # no annotator named, or the composite named for what a sub-quantizer wrote: not specific
        assert judge_why(*classify(_filled(cat, key, quantizer="XNNPACKQuantizer"), reasons), names, top) == (
            True,
            False,
        )
        other = _filled(cat, key, quantizer="ComposableQuantizer", fns="annotate")
        assert judge_why(*classify(other, reasons), names, top) == (True, False)
    for key in DECIDED_KEYS:
        line = _filled(cat, key, quantizer="XNNPACKQuantizer", fns="propagate_annotation")
        got_key, fields = classify(line, reasons)
        assert got_key == key and fields["quantizer"] == "XNNPACKQuantizer" and fields["fns"] == "propagate_annotation"
        assert judge_why(got_key, fields, names, top) == (False, True)
        stranger = _filled(cat, key, quantizer="X86InductorQuantizer", fns="_annotate_conv2d")
        assert judge_why(*classify(stranger, reasons), names, top) == (False, False)
    for key in NOTHING_KEYS:
        line = _filled(cat, key, quantizers=top)
        assert judge_why(*classify(line, reasons), names, top) == (False, True)
    assert judge_why(*classify(cat["why.not_watched"], reasons), names, top) == (False, False)
    assert classify("something no catalogue says", reasons) == (None, {})


OURS = "# Conformance\n\nnew table\n"
ZOO = "## Zoo\n\nzoo table\n"


def test_the_table_writer_keeps_the_zoo_section():
    old = "# Conformance\n\nold table\n\n" + ZOO
    assert with_other_sections(OURS, old) == OURS + "\n" + ZOO
    assert with_other_sections(OURS, "") == OURS
    assert with_other_sections(OURS, "# Conformance\n\nold table\n") == OURS


def test_a_table_read_back_gives_its_rows():
    """--load docs/conformance.md: the rows of the table bench/conformance.py wrote, as they were measured."""
    from bench.conformance import rows_from_docs, table
    from bench.conformance_cases import Row

    rows = [
        Row("Q", "cnn_bn_residual", True, True, "runs", True, True, 0.97, 0, 0, 0, "n/a", "why: a | b"),
        Row("Q", "encoder_mha", False, reason="torchao itself fails: IndexError: x"),
        Row("ExecuTorch Cadence default", "cat_mean", True, True, "—", True, False, 1.0, 1, 2, 3, "no: ['X']", "r"),
    ]
    back = [Row(**d) for d in rows_from_docs(table(rows))]
    assert back == rows


def test_beyond_counts_a_check_right_only_where_torchaos_converted_graph_fails(tmp_path, monkeypatch):
    """bench/beyond.py: a pl.check row on the vendor's graph is false unless torchao's converted graph then fails to
    run (Samsung's quantizer on HF T5: a spec on an int64 tensor); its section replaces itself, the Zoo stays."""
    import dataclasses

    from bench import beyond
    from bench.conformance_cases import Row

    def row(model: str, checks: int, true_checks: str = "") -> dict:
        r = Row("Q", model, True, True, "runs", True, True, 1.0, 0, 0, checks, "n/a")
        return {**dataclasses.asdict(r), "true_checks": true_checks}

    right, false, clean = row("A", 1, "AssertionError: int64"), row("B", 2), row("C", 0)
    failing = {**dataclasses.asdict(Row("Q", "D", False, reason="torchao itself fails: E: x")), "true_checks": ""}
    assert [beyond.green(d) for d in (right, false, clean)] == [True, False, True]
    text = beyond.section([right, false, clean, failing])
    assert "**3 rows where torchao's flow runs: 2 green**; 1 where" in text
    assert "| 1 right |" in text and "| **false** |" in text and "- E: x: D × Q" in text
    doc = tmp_path / "conformance.md"
    doc.write_text("# Conformance\n\ntable\n\n" + beyond.SECTION + "\n\nold\n\n" + ZOO)
    monkeypatch.setattr(beyond, "DOC", doc)
    beyond.write_docs(text)
    assert doc.read_text() == "# Conformance\n\ntable\n\n" + text + "\n" + ZOO


def test_the_zoo_section_is_replaced_where_it_stands(tmp_path, monkeypatch):
    """bench/zoo.py --docs: its section keeps its place before the sections after it (it used to move to the end)."""
    from bench import zoo

    doc = tmp_path / "conformance.md"
    after = "\n## Beyond the matrix\n\nbeyond\n"
    doc.write_text("# Conformance\n\ntable\n\n" + ZOO + after)
    monkeypatch.setattr(zoo, "DOC", doc)
    monkeypatch.setattr(zoo, "section", lambda rows: "## Zoo\n\nnew zoo\n")
    zoo.write_docs([])
    assert doc.read_text() == "# Conformance\n\ntable\n\n## Zoo\n\nnew zoo\n" + after
    doc.write_text("# Conformance\n\ntable\n")
    zoo.write_docs([], extra="\nextra\n")
    assert doc.read_text() == "# Conformance\n\ntable\n\n## Zoo\n\nnew zoo\n\nextra\n"
