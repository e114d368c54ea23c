"""`course_setup()`: what a course chapter (and its book build) wants from pt2e-lens, in one call.

A chapter sets its own language instead of relying on the page (nbconvert writes `lang="en"`): every View it
shows carries that locale, so a saved output keeps it when reopened or converted (docs/i18n.md).
"""

from __future__ import annotations

import os
import sys

from .. import i18n
from .._quiet import quiet as _quiet
from ..display import VIEWER_SETTING


def _one_iframe_per_output() -> bool:
    """Colab draws each output in its own iframe: there every output needs its own copy of the viewer."""
    return "google.colab" in sys.modules


def course_setup(lang: str = "zh-TW", viewer: str | None = "once", quiet: bool = True) -> str:
    """Set the chapter's language (`pl.set_locale(lang)`), inline the viewer once per page (`viewer="once"`,
    for nbconvert / Jupyter Book pages that show every output; kept per output in Colab, `None` leaves the
    setting alone) and silence torch/torchao's load noise. Returns the locale in use.

    Pictures for readers without scripts: JupyterLab stores one per output when the notebook is saved there;
    a build fills them with `python -m pt2e_lens.pictures NOTEBOOK.ipynb` after executing (docs/hosts.md)."""
    locale = i18n.set_locale(lang)
    if viewer is not None and not _one_iframe_per_output():
        os.environ[VIEWER_SETTING] = viewer
    if quiet:
        _quiet()
    return locale
