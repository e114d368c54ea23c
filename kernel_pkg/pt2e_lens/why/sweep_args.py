"""One-line checks of what pl.sensitivity and pl.recipe are handed (docs/errors.md): each bad argument is
refused before the sweep starts, or — a metric or an executor failing in the sweep — named when it fails."""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import torch

from .. import i18n
from ..errors import Pt2eLensError, Pt2eLensWarning, first_line


def check_flag(value: Any, name: str, who: str) -> None:
    if not isinstance(value, bool):
        raise Pt2eLensError(i18n.t("sweep.flag", who=who, name=name, got=repr(value)))


def check_count(value: Any, name: str, who: str, least: int) -> None:
    """None, or a whole number ≥ least (bool is no count)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < least:
        raise Pt2eLensError(i18n.t("sweep.count", who=who, name=name, least=least, got=repr(value)))


def check_iterable(batches: Any, who: str) -> None:
    if batches is None or isinstance(batches, (str, bytes, torch.Tensor)) or not hasattr(batches, "__iter__"):
        raise Pt2eLensError(i18n.t("sweep.batches_type", who=who, got=type(batches).__name__))


def check_executor(executor: Any, who: str) -> None:
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise Pt2eLensError(i18n.t("sweep.executor_type", who=who, got=type(executor).__name__))


def metric_value(metric: Any, ref: Any, out: Any, who: str) -> float:
    """metric(ref, out) as a float; a metric that raises or returns no number is named in one line."""
    try:
        value = metric(ref, out)
    except Pt2eLensError:
        raise
    except Exception as e:
        raise Pt2eLensError(
            i18n.t("sweep.metric_raised", who=who, error=type(e).__name__, reason=first_line(e)), original=e
        ) from None
    if isinstance(value, torch.Tensor) and value.numel() == 1:
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise Pt2eLensError(i18n.t("sweep.metric_not_number", who=who, got=type(value).__name__))
    return float(value)


def check_metric(metric: Any, reference: list, who: str) -> None:
    """Before the sweep: callable, and a number on the float outputs against themselves."""
    if metric is None:
        return
    if not callable(metric):
        raise Pt2eLensError(i18n.t("sweep.metric_type", who=who, got=type(metric).__name__))
    metric_value(metric, reference[0], reference[0], "metric")


def warn_non_finite(batches: list[tuple], who: str) -> None:
    """A batch holding NaN or inf makes every SQNR NaN: say which one, once."""
    for i, batch in enumerate(batches):
        for t in batch:
            if isinstance(t, torch.Tensor) and t.is_floating_point() and not bool(torch.isfinite(t).all()):
                warnings.warn(i18n.t("sweep.non_finite_batch", who=who, index=i), Pt2eLensWarning, stacklevel=3)
                return


def submit_all(executor: Any, fn, tasks: list[tuple]) -> list:
    """executor.submit for every task and their results, a failing submit or task as one line."""
    try:
        futures = [executor.submit(fn, *task) for task in tasks]
    except Exception as e:
        raise Pt2eLensError(
            i18n.t("sweep.submit_raised", error=type(e).__name__, reason=first_line(e)), original=e
        ) from None
    out = []
    for future in futures:
        try:
            out.append(future.result())
        except Pt2eLensError:
            raise
        except Exception as e:
            raise Pt2eLensError(
                i18n.t("sweep.task_failed", error=type(e).__name__, reason=first_line(e)), original=e
            ) from None
    return out
