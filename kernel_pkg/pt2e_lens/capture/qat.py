"""Quantization-aware training as pt2e-lens runs it: prepare_qat_pt2e, training steps, then eval mode.

prepare_qat_pt2e annotates first and then replaces every conv → batch_norm with torchao's QAT pattern (the
weight scaled by the batch norm's statistics and fake-quantized, the conv's output scaled back, the batch
norm kept), so batch norm goes on learning while fake-quantize modules learn their scales. prepare_pt2e
instead folds the batch norms into the convs before annotating: a QAT quantizer given to it still prepares
and converts (torchao runs it, and so does the PTQ path), but training then updates the folded convs, not
the batch norms — the PTQ path says so in one warning.

An exported graph ignores `.train()` / `.eval()`: batch norm and dropout switch only through torchao's
`move_exported_model_to_train` / `move_exported_model_to_eval`, which rewrite the graph.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable, Iterable
from typing import Any

import torch

from .. import i18n
from .._targets import short_name
from .._torchao import (
    is_fake_quant_module,
    is_observer_module,
    move_exported_model_to_eval,
    move_exported_model_to_train,
)
from ..errors import Pt2eLensError, Pt2eLensWarning, first_line

# the ops whose `training` argument export specialises: (op name, index of that argument)
_MODE_ARGS = {"batch_norm": 5, "dropout": 2, "feature_dropout": 2, "alpha_dropout": 2}


def train_mode_model(model: Any) -> Any:
    """The module to export for QAT: the model itself when in train mode, else a train-mode deep copy.

    torch.export bakes the mode in (batch norm's statistics, dropout, `if self.training:` branches), and
    switching the user's model to train() and back would touch it.
    """
    if not isinstance(model, torch.nn.Module) or model.training:
        return model
    return copy.deepcopy(model).train()


def _traced_with(gm: torch.fx.GraphModule, training: bool) -> bool:
    for node in gm.graph.nodes:
        if node.op != "call_function":
            continue
        index = _MODE_ARGS.get(short_name(node.target))
        if index is not None and len(node.args) > index and node.args[index] is training:
            return True
    return False


def traced_in_eval(gm: torch.fx.GraphModule) -> bool:
    """True when a batch norm or dropout of the graph was exported in eval mode (its `training` arg False)."""
    return _traced_with(gm, False)


def traced_in_train(gm: torch.fx.GraphModule) -> bool:
    """True when a batch norm or dropout of the graph still trains (its `training` arg True)."""
    return _traced_with(gm, True)


def to_train(gm: torch.fx.GraphModule) -> None:
    """Batch norm and dropout of an eval-mode export switched to training, in place (only when needed:
    torchao's rewrite traces its patterns every call)."""
    if traced_in_eval(gm):
        move_exported_model_to_train(gm)


def to_eval(gm: torch.fx.GraphModule) -> None:
    """torchao's own switch before convert: batch norm uses its running statistics, dropout stops."""
    move_exported_model_to_eval(gm)


def fake_quant_count(gm: torch.fx.GraphModule) -> int:
    return sum(1 for m in gm.modules() if is_fake_quant_module(m))


def warn_folded_fake_quant(prepared: torch.fx.GraphModule, quantizer: str, folded: int) -> None:
    """The PTQ path got a QAT quantizer (its specs build fake-quantize modules) and prepare_pt2e folded `folded`
    batch norms first. torchao prepares and converts it (the converted graph is PTQ's, its convs trainable), so
    pt2e-lens runs it too, and says in one warning that the batch norms will not train (the QAT path does).
    Without a folded batch norm nothing is lost: torchao's own tests run QAT configs through prepare_pt2e."""
    found = fake_quant_count(prepared)
    if found and folded:
        text = i18n.t("warning.qat_config_folded", quantizer=quantizer, count=found, folded=folded)
        warnings.warn(text, Pt2eLensWarning, stacklevel=4)


class _NonFiniteLoss(Exception):
    pass


def refuse_no_fake_quant(prepared: torch.fx.GraphModule, quantizer: str) -> None:
    """The QAT path got a post-training quantizer: observers, no fake-quantize module — nothing would learn."""
    if fake_quant_count(prepared) == 0 and any(is_observer_module(m) for m in prepared.modules()):
        raise Pt2eLensError(i18n.t("error.ptq_quantizer_in_qat", quantizer=quantizer))


def train_module(
    gm: torch.fx.GraphModule,
    steps: Iterable[Any] | Callable[[torch.fx.GraphModule], Any],
    loss: Callable[[Any, Any], torch.Tensor] | None = None,
    optimizer: Callable[[list], torch.optim.Optimizer] | None = None,
    stepped: Callable[[], None] = lambda: None,
) -> int:
    """Train `gm` in place: `steps(gm)`, or one optimizer step per batch `(*inputs, target)` with
    `loss(gm(*inputs), target)`. Returns the number of steps (1 for a callable). Raises a one-line error."""
    if callable(steps) and not hasattr(steps, "__iter__"):
        try:
            with torch.enable_grad():
                steps(gm)
        except Exception as e:
            raise Pt2eLensError(
                i18n.t("error.qat_train_fn_raised", error=type(e).__name__, reason=first_line(e)), original=e
            ) from None
        return 1
    if isinstance(steps, (str, bytes)) or not hasattr(steps, "__iter__"):
        raise Pt2eLensError(i18n.t("error.qat_train_steps_type", got=type(steps).__name__))
    if loss is None:
        raise Pt2eLensError(i18n.t("error.qat_train_needs_loss"))
    if optimizer is not None and (isinstance(optimizer, str) or not callable(optimizer)):
        raise Pt2eLensError(i18n.t("error.qat_optimizer_type", got=repr(optimizer)[:60]))
    params = [p for p in gm.parameters() if p.requires_grad]
    opt = optimizer(params) if optimizer is not None else torch.optim.SGD(params, lr=1e-3, momentum=0.9)
    if not isinstance(opt, torch.optim.Optimizer):
        raise Pt2eLensError(i18n.t("error.qat_optimizer_type", got=f"a factory returning {type(opt).__name__}"))
    done = 0
    with torch.enable_grad():
        for index, batch in enumerate(steps):
            if not isinstance(batch, (tuple, list)) or len(batch) < 2:
                raise Pt2eLensError(i18n.t("error.qat_train_batch", index=index, got=type(batch).__name__))
            *inputs, target = batch
            try:
                opt.zero_grad()
                value = loss(gm(*inputs), target)
                if isinstance(value, torch.Tensor) and value.numel() == 1 and not bool(torch.isfinite(value)):
                    raise _NonFiniteLoss(float(value))
                value.backward()
                opt.step()
            except _NonFiniteLoss as e:  # before backward: a NaN step would poison every scale and zero_point
                raise Pt2eLensError(i18n.t("error.qat_loss_non_finite", index=index, value=e.args[0])) from None
            except Exception as e:
                raise Pt2eLensError(
                    i18n.t("error.qat_train_step", index=index, error=type(e).__name__, reason=first_line(e)),
                    original=e,
                ) from None
            done += 1
            stepped()  # progress: one more optimizer step
    if done == 0:
        raise Pt2eLensError(i18n.t("error.qat_train_no_batches"))
    return done
