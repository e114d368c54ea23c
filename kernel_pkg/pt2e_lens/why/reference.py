"""The float model a converted Run is measured against: one for `pl.accuracy` (per node and three-way with a
backend), `pl.sensitivity` and `pl.recipe`.

PTQ: the float graph prepare started from (the decomposed stage, else the exported one); its weights are the
ones the observers saw. QAT: training moved the weights, batch-norm statistics and scales, so that graph
would measure training, not quantization. The fair reference is the trained model with fake quantization
off: the same float graph carrying the parameters and buffers of the run's observed stage (trained, or
calibrated after it) and switched to eval mode with torchao's move_exported_model_to_eval, as convert is.
It is the float graph rather than the trained module with its fake-quantize modules disabled: both compute
the same (tests/test_qat.py checks it with torchao's disable_fake_quant), but only the float
graph's nodes pair with the converted ones (the QAT pattern puts a scale, div and add between conv and bn).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import torch

from .. import i18n
from .._copy import private_copy
from ..capture import Run, Stage
from ..capture.qat import to_eval, traced_in_train
from ..errors import Pt2eLensError
from .observed import observed_stage

# observed stage → (float stage, the eval-mode reference built from both): move_exported_model_to_eval
# re-traces its patterns (seconds), and a re-trained or re-calibrated run makes a new observed Stage
_BUILT: weakref.WeakKeyDictionary[Stage, tuple[Stage, torch.fx.GraphModule]] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class Reference:
    """`kind`: "float" (PTQ) or "trained" (QAT); `stage`: the stage whose weights it computes with."""

    kind: str
    stage: str
    _float: Stage
    _observed: Stage | None = None

    @property
    def float_stage(self) -> Stage:
        """The stage whose graph the reference is (decomposed or exported)."""
        return self._float

    @property
    def label(self) -> str:
        return i18n.t(f"reference.{self.kind}", stage=self.stage)

    def title(self, title: str) -> str:
        """An analysis' title with the reference it was measured against."""
        return i18n.t("reference.against", title=title, reference=self.label)

    def module(self, who: str = "pl.accuracy") -> torch.fx.GraphModule:
        """A new private module to run: a forward may write buffers (batch-norm statistics, counters)."""
        if self._observed is None:
            return self._float.fresh_module()
        built = _BUILT.get(self._observed)
        if built is None or built[0] is not self._float:
            built = (self._float, _trained_float(self._float, self._observed, who))
            _BUILT[self._observed] = built
        return private_copy(built[1])


def is_qat(run: Run) -> bool:
    return "prepared" in run and bool(run["prepared"].info.get("qat"))


def float_reference(run: Run) -> Reference:
    """The reference of `run`'s converted stage (see the module's docstring)."""
    base = run["decomposed" if "decomposed" in run else "exported"]
    if not is_qat(run):
        return Reference("float", base.name, base)
    observed = observed_stage(run)
    return Reference("trained", observed.name, base, observed)


def _trained_float(base: Stage, observed: Stage, who: str) -> torch.fx.GraphModule:
    gm = base.fresh_module()
    trained = observed.graph_module.state_dict()
    mine = gm.state_dict()
    missing = [k for k, v in mine.items() if k not in trained or trained[k].shape != v.shape]
    if missing:
        raise Pt2eLensError(i18n.t("error.qat_reference_missing", who=who, stage=observed.name, tensor=missing[0]))
    gm.load_state_dict({k: trained[k] for k in mine})  # copies into the private module's own tensors
    if traced_in_train(gm):  # batch norm on its running statistics, dropout off: what convert computes
        to_eval(gm)
    return gm
