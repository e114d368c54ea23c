"""The kernel side of the JupyterLab panel: `%load_ext pt2e_lens` (see docs/protocol.md, docs/magics.md)."""

from .extension import load_ipython_extension, unload_ipython_extension

__all__ = ["load_ipython_extension", "unload_ipython_extension"]
