"""In IPython, a Pt2eLensError prints as one line, not a traceback — once something asked for it
(`%load_ext pt2e_lens`, a pt2e-lens display, or a Pt2eLensError); `import pt2e_lens` installs nothing."""

import subprocess
import sys

from IPython.testing import globalipapp

FRESH_SHELL = """
from IPython.testing.globalipapp import start_ipython
ip = start_ipython()
ip.run_cell("import pt2e_lens as pl")
print("import:", ip.custom_exceptions)
ip.run_line_magic("load_ext", "pt2e_lens")
print("load_ext:", [c.__name__ for c in ip.custom_exceptions])
"""

ONE_LINE = (
    "Pt2eLensError: pt2e-lens needs a graph here, got the nn.Module TinyConvNet: export it first "
    "with pl.Run(model, example_inputs) or torch.export.export(model, example_inputs)."
)


def test_import_installs_nothing_and_load_ext_installs_the_handler():
    out = subprocess.run([sys.executable, "-c", FRESH_SHELL], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith(("import:", "load_ext:"))]
    assert lines == ["import: ()", "load_ext: ['Pt2eLensError']"]


def test_pt2e_lens_error_is_one_line_in_ipython(capsys):
    # the process's one test shell, started here or by an earlier test file (start_ipython runs only once;
    # the module's get_ipython is replaced by the shell's own once it has)
    ip = globalipapp.get_ipython()
    ip.run_cell("import pt2e_lens as pl; from pt2e_lens.examples import get_model")
    ip.custom_exceptions = ()  # as if nothing had asked yet: the error itself installs the handler
    capsys.readouterr()
    ip.run_cell("pl.op_counts(get_model('tiny'))")
    assert capsys.readouterr().out.strip().splitlines() == [ONE_LINE]
    ip.run_cell("1/0")  # other errors keep IPython's normal traceback
    assert "ZeroDivisionError" in capsys.readouterr().out
