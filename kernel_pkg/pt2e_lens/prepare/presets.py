"""The built-in quantizers by name (the workbench's picker, the CLI's `x86`): each one object and its code.

One description per preset makes both the quantizer and the Python that builds it (`code`), so what a
workbench shows as pasteable code is what it ran. XNNPACK presets are ExecuTorch's own quantizer (what its
XNNPACK delegate lowers); X86 is torchao's X86InductorQuantizer.
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

from .. import i18n
from .._quiet import quiet_import
from .._torchao import Quantizer
from ..errors import Pt2eLensError

_XNNPACK = "executorch.backends.xnnpack.quantizer.xnnpack_quantizer"
_X86 = "torchao.quantization.pt2e.quantizer.x86_inductor_quantizer"


@dataclasses.dataclass(frozen=True)
class Preset:
    name: str
    module: str  # where the quantizer class and its config function live
    cls: str
    config: str  # the function that makes the global config
    kwargs: tuple[tuple[str, Any], ...]
    backend: str  # the backend this quantizer's graph is made for

    def build(self) -> Quantizer:
        with quiet_import():
            mod = importlib.import_module(self.module)
        return getattr(mod, self.cls)().set_global(getattr(mod, self.config)(**dict(self.kwargs)))

    def code(self, name: str = "quantizer") -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.kwargs)
        return (
            f"from {self.module} import {self.cls}, {self.config}\n\n"
            f"{name} = {self.cls}().set_global({self.config}({args}))\n"
        )

    @property
    def label(self) -> str:
        return i18n.t(f"workbench.preset.{self.name}")


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "xnnpack",
            _XNNPACK,
            "XNNPACKQuantizer",
            "get_symmetric_quantization_config",
            (("is_per_channel", True),),
            "xnnpack",
        ),
        Preset(
            "xnnpack_per_tensor",
            _XNNPACK,
            "XNNPACKQuantizer",
            "get_symmetric_quantization_config",
            (("is_per_channel", False),),
            "xnnpack",
        ),
        Preset(
            "xnnpack_dynamic",
            _XNNPACK,
            "XNNPACKQuantizer",
            "get_symmetric_quantization_config",
            (("is_per_channel", True), ("is_dynamic", True)),
            "xnnpack",
        ),
        Preset("x86", _X86, "X86InductorQuantizer", "get_default_x86_inductor_quantization_config", (), "inductor"),
    )
}


def preset(name: str) -> Preset:
    if not isinstance(name, str) or name not in PRESETS:
        raise Pt2eLensError(i18n.t("error.unknown_quantizer", name=repr(name), choices=", ".join(PRESETS)))
    return PRESETS[name]
