"""A .pt2 from a bug report is safe to open: what torch.export.load would run is refused unless trusted.

Each crafted archive is first shown to run its code under torch.export.load itself (a file appears), then
pt2e-lens (CLI, pl.load_pt2, %pt2e load) refuses the same archive in one line and no file appears.
"""

import io
import json
import os
import pathlib
import zipfile

import pytest
import torch

import pt2e_lens as pl
from pt2e_lens.cli import main
from pt2e_lens.examples import example_inputs, get_model


class _Touch:
    """Unpickles by calling pathlib.Path.touch: code a pickle runs, with a visible trace."""

    def __init__(self, path):
        self.path = pathlib.Path(path)

    def __reduce__(self):
        return (pathlib.Path.touch, (self.path,))


def _saved(tmp_path, dynamic=False) -> pathlib.Path:
    model = get_model("conv_relu").eval()
    shapes = ({0: torch.export.Dim("batch", min=1, max=64)},) if dynamic else None
    path = tmp_path / ("dyn.pt2" if dynamic else "ok.pt2")
    torch.export.save(torch.export.export(model, example_inputs(2), dynamic_shapes=shapes), str(path))
    return path


def _rewritten(src: pathlib.Path, dst: pathlib.Path, change) -> pathlib.Path:
    """A copy of the archive with `change(name, data) -> data | None` applied to each entry (None: unchanged)."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            new = change(info.filename.split("/", 1)[1], data)
            zout.writestr(info, data if new is None else new)
    return dst


def _torch_save(obj) -> bytes:
    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


def _runs_under_torch(path: pathlib.Path, marker: pathlib.Path) -> None:
    """The crafted archive really is hostile: torch.export.load on it leaves the marker file."""
    try:
        ep = torch.export.load(str(path))
        for node in ep.graph.nodes:  # a target is called when the graph runs
            if node.op == "call_function" and node.target is pathlib.Path.touch:
                node.target(*node.args)
    except Exception:
        pass
    assert marker.exists(), "the crafted archive did not run its code under torch.export.load"
    marker.unlink()


def _refused_everywhere(path: pathlib.Path, marker: pathlib.Path, capsys, words: str) -> None:
    assert main(["report", str(path), "--out", str(path.parent / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("pt2e-lens: error:") and "\n" not in err, err
    assert "--trust" in err and words in err, err
    assert not marker.exists()
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.load_pt2(path)
    assert "trust=True" in str(e.value) and words in str(e.value) and "\n" not in str(e.value)
    assert not marker.exists()
    assert not (path.parent / "out").exists()  # refused before the pipeline wrote anything


def test_a_pickle_in_the_sample_inputs_is_refused_and_never_run(tmp_path, capsys):
    marker = tmp_path / "ran"
    evil = _torch_save(((_Touch(marker),), {}))
    path = _rewritten(_saved(tmp_path), tmp_path / "evil.pt2", lambda n, d: evil if "sample_inputs" in n else None)
    _runs_under_torch(path, marker)
    _refused_everywhere(path, marker, capsys, "data/sample_inputs/model.pt")
    assert "(GLOBAL " in str(pytest.raises(pl.Pt2eLensError, pl.load_pt2, path).value)  # what it would call


def test_a_pickled_weight_is_refused(tmp_path, capsys):
    marker = tmp_path / "ran"

    def change(name, data):
        if name.endswith("model_weights_config.json"):
            config = json.loads(data)
            first = next(iter(config["config"].values()))
            first["use_pickle"] = True
            return json.dumps(config).encode()
        if name == "data/weights/weight_0":
            return _torch_save(_Touch(marker))
        return None

    path = _rewritten(_saved(tmp_path), tmp_path / "evil.pt2", change)
    _runs_under_torch(path, marker)
    _refused_everywhere(path, marker, capsys, "weight_0")


def test_a_symbolic_shape_that_is_python_is_refused(tmp_path, capsys):
    marker = tmp_path / "ran"
    code = f"__import__('pathlib').Path({str(marker)!r}).touch() or "

    def change(name, data):
        if name == "models/model.json":
            return data.replace(b'"expr_str": "Symbol(', b'"expr_str": "' + code.encode() + b"Symbol(", 1)
        return None

    src = _saved(tmp_path, dynamic=True)
    assert b'"expr_str": "Symbol(' in zipfile.ZipFile(src).read("dyn/models/model.json")
    path = _rewritten(src, tmp_path / "evil.pt2", change)
    _runs_under_torch(path, marker)
    _refused_everywhere(path, marker, capsys, "sympy.sympify")


def test_a_node_calling_a_function_reached_from_torch_stays_refused(tmp_path, capsys):
    # torch resolves "torch.<attr>.<attr>…" by walking attributes (torch.os is the os module); its verifier
    # then refuses any target that is no operator: one line here, nothing called
    assert torch.os is os

    def change(name, data):
        if name == "models/model.json":
            return data.replace(b'"torch.ops.aten.relu.default"', b'"torch.os.mkdir"', 1)
        return None

    path = _rewritten(_saved(tmp_path), tmp_path / "evil.pt2", change)
    for trust in ([], ["--trust"]):
        assert main(["report", str(path), *trust, "--out", str(tmp_path / "out")]) == 2
        err = capsys.readouterr().err.strip()
        assert "not a readable torch.export archive" in err and "mkdir" in err and "\n" not in err


def test_compiled_code_in_the_archive_is_refused(tmp_path, capsys):
    src = _saved(tmp_path)
    path = tmp_path / "aoti.pt2"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(path, "w") as zout:
        for info in zin.infolist():
            zout.writestr(info, zin.read(info))
        zout.writestr("ok/data/aotinductor/model/model.so", b"\x7fELF")
    _refused_everywhere(path, tmp_path / "never", capsys, "AOTInductor")


def test_archives_torch_writes_load_and_trust_opens_the_rest(tmp_path, capsys):
    for dynamic in (False, True):
        path = _saved(tmp_path, dynamic)
        ep = pl.load_pt2(path)
        assert len(ep.graph.nodes) == len(torch.export.load(str(path)).graph.nodes)
        assert main(["report", str(path), "--out", str(tmp_path / f"out{dynamic}")]) == 0
    capsys.readouterr()
    plain = _torch_save(((torch.ones(1),), {}))  # a harmless file, with --trust, is read as torch reads it
    path = _rewritten(_saved(tmp_path), tmp_path / "t.pt2", lambda n, d: plain if "sample_inputs" in n else None)
    assert torch.equal(pl.load_pt2(path, trust=True).example_inputs[0][0], torch.ones(1))
    with pytest.raises(pl.Pt2eLensError, match="trust= is True or False"):
        pl.load_pt2(path, trust="yes")
    assert main(["report", "--example", "tiny", "--trust"]) == 2
    assert "--trust applies only to a .pt2 file" in capsys.readouterr().err


def test_the_magic_refuses_unless_trusted(tmp_path, capsys):
    import types

    from IPython.core.error import UsageError

    from pt2e_lens.kernel.magics import Pt2eMagics
    from pt2e_lens.kernel.tracker import Tracker

    marker = tmp_path / "ran"
    evil = _torch_save(((_Touch(marker),), {}))
    path = _rewritten(_saved(tmp_path), tmp_path / "evil.pt2", lambda n, d: evil if "sample_inputs" in n else None)
    user_ns: dict = {}
    magics = Pt2eMagics(types.SimpleNamespace(user_ns=user_ns), Tracker(user_ns))
    with pytest.raises(UsageError) as e:
        magics.pt2e(f"load {path} ep")
    assert "--trust" in str(e.value) and "\n" not in str(e.value) and "ep" not in user_ns and not marker.exists()
    magics.pt2e(f"load {_saved(tmp_path)} ep")
    assert isinstance(user_ns["ep"], torch.export.ExportedProgram) and "%pt2e show ep" in capsys.readouterr().out
    with pytest.raises(UsageError, match="NAME is the variable"):
        magics.pt2e(f"load {path} 'not a name'")
    magics.pt2e(f"load {path} risky --trust")  # the user's explicit choice: torch.export.load runs the pickle
    assert marker.exists() and isinstance(user_ns["risky"], torch.export.ExportedProgram)
