"""`pl.workbench`: the PT2E pipeline as steps (Workbench, bench.py) and its widget (widget.py, needs anywidget)."""

from .bench import Workbench
from .compare import RunComparison
from .steps import STEPS

__all__ = ["STEPS", "RunComparison", "Workbench"]
