from .export import export as export_program
from .run import Run, capture
from .stage import STAGE_ORDER, Stage

__all__ = ["STAGE_ORDER", "Run", "Stage", "capture", "export_program"]
