"""Silence the load noise torch and torchao print on CPU machines (the course's `quiet()`)."""

from __future__ import annotations

import contextlib
import logging
import warnings

# torchao logs "Failed to load <CUDA-only .so>" on CPU builds; torch's pytree logs an Enum
# registration deprecation when torchao registers its enums. Neither is actionable for users.
_NOISY_LOGGERS = ("torchao", "torch.utils._pytree", "torch._export", "torch.export")


@contextlib.contextmanager
def quiet_import():
    """Silence only the loggers that torchao's import talks through, then restore them."""
    loggers = [logging.getLogger(name) for name in _NOISY_LOGGERS[:2]]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


def quiet() -> None:
    """Silence torch/torchao load and export noise for the rest of the session."""
    for name in _NOISY_LOGGERS:
        logging.getLogger(name).setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", category=UserWarning, module=r"torch(ao)?(\.|$)")
    warnings.filterwarnings("ignore", category=FutureWarning, module=r"torch(ao)?(\.|$)")
    warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"torch(ao)?(\.|$)")
    # torch's pytree deprecation fires from copyreg whenever a GraphModule is deep-copied (ep.module())
    warnings.filterwarnings("ignore", message=r".*treespec, LeafSpec.*", category=FutureWarning)
