"""In IPython, a Pt2eLensError prints as one line, not a traceback."""

from IPython.testing.globalipapp import start_ipython

from pt2e_lens._ipython import install_short_errors


def test_pt2e_lens_error_is_one_line_in_ipython(capsys):
    ip = start_ipython()
    assert install_short_errors()  # what `import pt2e_lens` does when IPython is running
    ip.run_cell("import pt2e_lens as pl; from pt2e_lens.examples import get_model")
    capsys.readouterr()
    ip.run_cell("pl.op_counts(get_model('tiny'))")
    out = capsys.readouterr().out.strip().splitlines()
    assert out == [
        "Pt2eLensError: pt2e-lens needs a graph here, got the nn.Module TinyConvNet: export it first "
        "with pl.Run(model, example_inputs) or torch.export.export(model, example_inputs)."
    ]
    ip.run_cell("1/0")  # other errors keep IPython's normal traceback
    assert "ZeroDivisionError" in capsys.readouterr().out
