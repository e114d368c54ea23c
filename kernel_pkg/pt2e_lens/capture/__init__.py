from .run import Run, capture
from .stage import STAGE_ORDER, Stage

__all__ = ["STAGE_ORDER", "Run", "Stage", "capture"]
