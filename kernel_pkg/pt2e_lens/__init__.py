"""pt2e-lens: see what a torchao PT2E quantizer did — annotations, observers, q/dq, decompositions.

import pt2e_lens as pl
run = pl.capture(model, example_inputs, quantizer, calibration=batches)
pl.observers(run["prepared"])
"""

from ._progress import progress
from ._quiet import quiet
from ._version import __version__
from .analyses import (
    Table,
    annotations,
    boundaries,
    chain,
    decomposition,
    diff_ops,
    focus,
    module,
    node_count,
    observers,
    op_counts,
    qdq,
    sequence,
    snapshot,
    stage_diff,
)
from .analyses.backend import backend
from .analyses.focus import Pt2eLensWarning
from .capture import Run, Stage, capture
from .capture.record import Recording, record
from .display import View, compare, show
from .errors import Pt2eLensError, Pt2eLensRuntimeError
from .i18n import get_locale, set_locale
from .snapshot import SCHEMA_VERSION, Snapshot
from .why import accuracy, blame, check, compare_orders, findings, sharing, why_not
from .why.ranges import observer_ranges
from .why.recipe import KeepFp32, recipe
from .why.sensitivity import sensitivity


def widget(x, focus=None, hops=1, notes=None, title=None):
    """A live view (anywidget) of x; see `pt2e_lens.live_widget.widget`. anywidget is imported on first use."""
    from .live_widget import widget as make

    return make(x, focus=focus, hops=hops, notes=notes, title=title)


def workbench(model, example_inputs, quantizer=None, calibration=None, backend=None):
    """The PT2E pipeline as steps (export → prepare → calibrate → convert → lower) with a widget: `wb.advance()`,
    `wb.run`, `wb.keep_fp32(…)`, `wb.rerun()`, `wb.recipe(…)`, `wb.code`. See docs/workbench.md."""
    from .stepwise import Workbench

    return Workbench(model, example_inputs, quantizer=quantizer, calibration=calibration, backend=backend)


def __getattr__(name):
    if name == "LensWidget":
        from .live_widget import LensWidget

        return LensWidget
    raise AttributeError(f"module 'pt2e_lens' has no attribute {name!r}")


def load_pt2(path, trust=False):
    """The ExportedProgram in a `torch.export.save` archive. An archive that would run code when loaded
    (pickles beyond tensors, compiled code, …) is refused in one line unless `trust=True`: a file from a bug
    report is safe to open. See `pt2e_lens.load`."""
    from .load import load_exported

    return load_exported(path, trust=trust)


def load_ipython_extension(ip) -> None:
    """`%load_ext pt2e_lens`: the %pt2e magics, the current-model tracker, the `pt2e-lens` comm, and
    Pt2eLensErrors shown as one line. `import pt2e_lens` alone installs nothing in IPython."""
    from .kernel import load_ipython_extension as load

    load(ip)


def unload_ipython_extension(ip) -> None:
    from .kernel import unload_ipython_extension as unload

    unload(ip)


__all__ = [
    "KeepFp32",
    "LensWidget",
    "Pt2eLensError",
    "Pt2eLensRuntimeError",
    "Pt2eLensWarning",
    "Run",
    "SCHEMA_VERSION",
    "Snapshot",
    "Stage",
    "Table",
    "__version__",
    "accuracy",
    "annotations",
    "backend",
    "blame",
    "boundaries",
    "capture",
    "chain",
    "check",
    "compare",
    "compare_orders",
    "decomposition",
    "diff_ops",
    "findings",
    "focus",
    "get_locale",
    "load_pt2",
    "module",
    "node_count",
    "observer_ranges",
    "observers",
    "op_counts",
    "progress",
    "qdq",
    "quiet",
    "recipe",
    "record",
    "Recording",
    "sensitivity",
    "sequence",
    "set_locale",
    "sharing",
    "show",
    "snapshot",
    "stage_diff",
    "View",
    "why_not",
    "widget",
    "workbench",
]
