"""`python -m pt2e_lens.pictures`: bad input is one line and a non-zero exit; the notebook is left as it was.
(The drawing itself is tested in a browser: tests/ui/pictures.host.mjs.)"""

from __future__ import annotations

from pt2e_lens import pictures


def test_missing_notebook_is_one_line(tmp_path, capsys):
    assert pictures.main([str(tmp_path / "nope.ipynb")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("pt2e-lens pictures:") and "\n" not in err


def test_not_a_notebook_is_one_line_and_untouched(tmp_path, capsys):
    f = tmp_path / "bad.ipynb"
    f.write_text("{not json", encoding="utf-8")
    assert pictures.main([str(f)]) == 1
    assert f.read_text(encoding="utf-8") == "{not json"
    assert "\n" not in capsys.readouterr().err.strip()


def test_a_notebook_without_pt2e_lens_outputs_is_left_alone(tmp_path):
    f = tmp_path / "plain.ipynb"
    f.write_text('{"cells": [{"cell_type": "code", "outputs": [{"data": {"text/plain": "1"}}]}]}', encoding="utf-8")
    assert pictures.main([str(f), "-o", str(tmp_path / "out.ipynb")]) == 0
    assert '"text/plain": "1"' in (tmp_path / "out.ipynb").read_text(encoding="utf-8")
