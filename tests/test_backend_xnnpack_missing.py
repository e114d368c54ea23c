"""Without the executorch extra, lowering to XNNPACK is one line naming the command that installs it."""

import sys

import pytest
import torch

from pt2e_lens import i18n
from pt2e_lens.backends import xnnpack
from pt2e_lens.errors import Pt2eLensError


def test_missing_executorch_is_one_line_with_the_install_command(monkeypatch):
    for name in [m for m in sys.modules if m == "executorch" or m.startswith("executorch.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "executorch", None)  # `import executorch...` now raises ImportError
    gm = torch.fx.symbolic_trace(torch.nn.ReLU())
    with pytest.raises(Pt2eLensError) as e:
        xnnpack.lower(gm, (torch.randn(2),))
    msg = str(e.value)
    assert "\n" not in msg and "pip install 'pt2e-lens[executorch]'" in msg
    with i18n.using("zh-TW"), pytest.raises(Pt2eLensError) as e:
        xnnpack.lower(gm, (torch.randn(2),))
    assert "ExecuTorch" in str(e.value) and "pip install 'pt2e-lens[executorch]'" in str(e.value)
