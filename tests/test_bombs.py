"""Bombs in an untrusted notebook, read by Python (`unpack`, `Snapshot.from_json`, `pt2e_lens.pictures`):
every size is bounded before it is decoded (contract.json "limits"), and a breach is one line naming the
bound. Small but representative bombs; where a real-sized one would cost the test a GB, the bound is lowered.
Memory is measured with tracemalloc (a property of the code, not of the machine's speed)."""

from __future__ import annotations

import base64
import gzip
import json
import tracemalloc
from pathlib import Path

import pytest

import pt2e_lens as pl
from pt2e_lens import pictures
from pt2e_lens.display import MIME
from pt2e_lens.schema import LIMITS
from pt2e_lens.schema.packed import PackedProblem, pack, unpack
from pt2e_lens.schema.tabular import TabularProblem, decode

FIXTURES = Path(__file__).parent / "ts" / "fixtures"


def _view() -> dict:
    return json.loads((FIXTURES / "real_run.json").read_text(encoding="utf-8"))


def _envelope(doc, encoding: str = "gzip+base64") -> dict:
    text = doc if isinstance(doc, (bytes, str)) else json.dumps(doc)
    raw = gzip.compress(text.encode() if isinstance(text, str) else text, mtime=0)
    return {
        "format": "pt2e-lens.packed",
        "encoding": encoding,
        "schema_version": 1,
        "data": base64.b64encode(raw).decode(),
    }


def _refused(data, bound: str, peak_mb: float) -> str:
    tracemalloc.start()
    try:
        with pytest.raises(PackedProblem) as e:
            unpack(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    msg = str(e.value)
    assert bound in msg and "\n" not in msg, msg
    assert peak < peak_mb * 1e6, f"{peak / 1e6:.0f} MB to refuse it"
    return msg


def test_the_limits_are_the_contracts():
    contract = json.loads((Path(pl.__file__).parent / "schema" / "contract.json").read_text(encoding="utf-8"))
    assert LIMITS == {k: v for k, v in contract["limits"].items() if not k.startswith("$")}


def test_a_valid_view_with_a_huge_title_is_refused_unopened():
    view = {**_view(), "title": "x" * (LIMITS["max_string_chars"] + 1)}
    assert len(json.dumps(_envelope(view))) < 20_000  # a few kB in the notebook
    _refused(_envelope(view), "max_string_chars", peak_mb=30)


def test_a_gzip_bomb_stops_at_the_bound_and_says_so(monkeypatch):
    monkeypatch.setitem(LIMITS, "max_json_bytes", 2_000_000)
    bomb = _envelope(bytes(50_000_000))  # 50 MB of zeros in ~50 kB
    msg = _refused(bomb, "max_json_bytes", peak_mb=10)
    assert "unpacks to more than 2,000,000 bytes" in msg and "not valid gzip" not in msg


def test_a_tabular_chain_of_2_to_the_40_is_measured_not_expanded():
    values = [[1, 2]] + [[{"$": i}, {"$": i}] for i in range(40)]
    _refused(_envelope({"values": values, "root": {"$": 40}}, "tabular+gzip+base64"), "max_values", peak_mb=5)
    with pytest.raises(TabularProblem, match="expands to more than 20,000,000 values"):
        decode({"values": values, "root": {"$": 40}})


def test_a_reference_chain_deeper_than_max_depth_is_refused_before_recursing():
    values = [[1]] + [[{"$": i}] for i in range(300)]
    with pytest.raises(TabularProblem, match="max_depth"):
        decode({"values": values, "root": {"$": 300}})


def test_a_plain_view_800_deep_is_one_line():
    deep: object = 1
    for _ in range(800):
        deep = [deep]
    _refused({**_view(), "notes": deep}, "max_depth", peak_mb=5)


def test_a_real_view_passes_and_round_trips():
    view = _view()
    assert unpack(pack(view)) == view


def test_a_lone_surrogate_is_refused_by_from_json():
    gm = pl.examples.export_module(pl.examples.get_model("conv_relu").eval(), pl.examples.example_inputs(2))
    snap = pl.snapshot(gm).to_json()
    broken = snap.replace('"torch":"', '"torch":"\\ud800', 1)
    assert broken != snap
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.Snapshot.from_json(broken)
    assert "surrogate" in str(e.value) and "\n" not in str(e.value)


def _notebook(tmp_path: Path, nb) -> Path:
    f = tmp_path / "nb.ipynb"
    f.write_text(json.dumps(nb), encoding="utf-8")
    return f


def _output(data) -> dict:
    return {"cells": [{"cell_type": "code", "outputs": [{"output_type": "display_data", "data": {MIME: data}}]}]}


@pytest.mark.parametrize(
    ("nb", "why"),
    [
        ([1, 2], "the notebook is a list"),
        ({"cells": 5}, "cells is int"),
        ({"cells": [{"outputs": 7}]}, "cells[0].outputs is int"),
        ({"cells": [{"outputs": [{"data": 3}]}]}, "cells[0].outputs[0].data is int"),
        (_output(42), "is int"),
        (_output("[1, 2]"), "not a View"),
    ],
)
def test_pictures_on_a_malformed_notebook_is_one_line(tmp_path, capsys, nb, why):
    f = _notebook(tmp_path, nb)
    before = f.read_bytes()
    assert pictures.main([str(f)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("pt2e-lens pictures:") and "\n" not in err and why in err, err
    assert f.read_bytes() == before


def test_pictures_refuses_bombs_before_drawing(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(LIMITS, "max_json_bytes", 2_000_000)
    deep: object = 1
    for _ in range(800):
        deep = [deep]
    for data, bound in [(_envelope(bytes(50_000_000)), "max_json_bytes"), ({**_view(), "notes": deep}, "max_depth")]:
        f = _notebook(tmp_path, _output(data))
        tracemalloc.start()
        assert pictures.main([str(f)]) == 1
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        err = capsys.readouterr().err.strip()
        assert bound in err and "\n" not in err, err
        assert peak < 40e6


def test_pictures_timeout_is_one_line(monkeypatch):
    import subprocess

    def slow(*a, **k):
        raise subprocess.TimeoutExpired(cmd="chromium", timeout=k.get("timeout"))

    monkeypatch.setattr(pictures, "_chromium", lambda: "chromium")
    monkeypatch.setattr(pictures, "bundle", lambda name: "")
    monkeypatch.setattr(subprocess, "run", slow)
    with pytest.raises(pl.Pt2eLensError, match="took over 7 s"):
        pictures.draw([_view()], timeout=7)


def test_a_json_bomb_of_many_values_is_refused_before_it_is_built(monkeypatch):
    monkeypatch.setitem(LIMITS, "max_values", 10_000)
    msg = _refused(_envelope("[" + ",".join(["0"] * 20_000) + "]"), "max_values", peak_mb=5)
    assert "more than 10,000 values" in msg


def test_a_gzip_bomb_that_declares_its_size_is_refused_before_inflating(monkeypatch):
    from pt2e_lens.schema import bounds

    monkeypatch.setitem(LIMITS, "max_json_bytes", 2_000_000)
    bomb = gzip.compress(bytes(50_000_000), mtime=0)  # its trailer says 50,000,000
    assert bounds.declared_size(bomb) == 50_000_000

    def no_inflating(*args, **kwargs):
        raise AssertionError("inflated a stream whose trailer declares more than the bound")

    with monkeypatch.context() as m:
        m.setattr(bounds.zlib, "decompressobj", no_inflating)
        msg = _refused(_envelope(bytes(50_000_000)), "max_json_bytes", peak_mb=1)
    assert "unpacks to more than 2,000,000 bytes" in msg
    liar = bomb[:-4] + (1000).to_bytes(4, "little")  # a trailer that lies is still stopped while inflating
    with pytest.raises(bounds.TooBig, match="max_json_bytes"):
        bounds.gunzip(liar)
    assert bounds.gunzip(gzip.compress(b'{"a": 1}')) == b'{"a": 1}'
