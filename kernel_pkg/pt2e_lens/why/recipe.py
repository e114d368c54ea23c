"""`pl.recipe`: the fewest sites to keep in fp32 so that the output SQNR reaches a target, as a quantizer.

Greedy on `pl.sensitivity` (the site whose fp32 buys most first), each step predicted on the gated copy;
then every chosen site is tried once more without (the set shrinks while the target still holds). The
prediction keeps every other observer's calibrated range; the quantizer it returns is verified by one
real capture (prepare, calibrate, convert) whose SQNR is shown beside the prediction.
"""

from __future__ import annotations

import keyword
import math
from collections.abc import Iterable
from concurrent.futures import Executor
from typing import Any

import torch

from .. import i18n
from .._progress import Task, task
from .._torchao import Quantizer
from ..analyses.table import Table
from ..capture import Run
from ..errors import Pt2eLensError
from ..prepare.keep_fp32 import KeepFp32
from .reference import float_reference, is_qat
from .sensitivity import (
    Sensitivity,
    batches_of,
    check_run,
    db_text,
    forward_all,
    kind_of,
    reference_outputs,
    run_configs,
    sensitivity,
    sqnr_db,
)
from .sites import Site, gated
from .sweep_args import check_count, check_executor

COLUMNS = ["site", "tensor", "serves", "kind", "gain_db"]


def keep_fp32_code(edges: list, outputs: list, name: str = "quantizer") -> str:
    """The Python that builds the recipe's quantizer from the user's own (`name`), to print and paste."""
    lines = ["import pt2e_lens as pl", "", f"{name} = pl.KeepFp32(", f"    {name},", "    edges=["]
    lines += [f"        ({src!r}, {dst!r})," for src, dst in edges]
    lines += ["    ],", "    outputs=["]
    lines += [f"        {o!r}," for o in outputs]
    lines += ["    ],", ")"]
    return "\n".join(lines) + "\n"


class Recipe(Table):
    """The chosen fp32 sites (rows), `.quantizer` (a torchao Quantizer), `.code`, predicted and verified SQNR."""

    def __init__(self, sites, gains, quantizer, code, target, predicted, verified, run, rows_of, reference=None):
        rows = [rows_of(s, g) for s, g in zip(sites, gains)]
        title = i18n.t(
            "sensitivity.recipe_title",
            n=len(sites),
            predicted=db_text(predicted),
            verified=db_text(verified),
            target=f"{target:.2f}",
            met=i18n.t("sensitivity.recipe_met" if verified >= target else "sensitivity.recipe_unmet"),
        )
        title = reference.title(title) if reference is not None else title
        super().__init__("recipe", COLUMNS, rows, title=title)
        self.reference = reference  # what predicted and verified SQNRs are measured against (why/reference.py)
        self.sites, self.quantizer, self.code = sites, quantizer, code
        self.target_db, self.predicted_db, self.verified_db = target, predicted, verified
        self.met = verified >= target
        self.run = run  # the verifying capture

    def __str__(self) -> str:
        return super().__str__() + "\n\n" + self.code


def _verify(run: Run, quantizer: Quantizer, calibration: list[tuple]) -> Run:
    base = float_reference(run).float_stage
    source = base.exported_program if base.exported_program is not None else base.graph_module
    again = Run(source, dynamic_batch=run.dynamic_batch).prepare(quantizer)
    return again.calibrate(calibration).convert()


def recipe(
    run: Any,
    batches: Iterable[Any],
    target_sqnr: float,
    max_fp32_sites: int | None = None,
    quantizer: Quantizer | None = None,
    calibration: Iterable[Any] | None = None,
    executor: Executor | None = None,
    sensitivity_table: Sensitivity | None = None,
    name: str = "quantizer",
    by: str = "group",
) -> Recipe:
    """Keep the fewest sites fp32 (at most `max_fp32_sites`) for output SQNR ≥ `target_sqnr` dB on `batches`.
    `quantizer` defaults to the one the run was prepared with; `calibration` (default: `batches`) feeds the
    verifying capture."""
    check_run(run, "pl.recipe")
    if is_qat(run):  # before the sweep: its verifying capture is PTQ's, which a QAT quantizer cannot take
        raise Pt2eLensError(i18n.t("error.qat_recipe_unverifiable"))
    if isinstance(target_sqnr, bool) or not isinstance(target_sqnr, (int, float)) or math.isnan(target_sqnr):
        raise Pt2eLensError(i18n.t("sensitivity.recipe_bad_target", got=repr(target_sqnr)))
    check_count(max_fp32_sites, "max_fp32_sites", "pl.recipe", 0)
    check_executor(executor, "pl.recipe")
    if not (isinstance(name, str) and name.isidentifier() and not keyword.iskeyword(name)):
        raise Pt2eLensError(i18n.t("sweep.recipe_name", got=repr(name)))
    if sensitivity_table is not None and not (
        isinstance(sensitivity_table, Sensitivity) and sensitivity_table.stage is run["converted"]
    ):
        raise Pt2eLensError(i18n.t("sweep.recipe_table", got=type(sensitivity_table).__name__))
    user_quantizer = quantizer if quantizer is not None else getattr(run, "quantizer", None)
    if not isinstance(user_quantizer, Quantizer):
        raise Pt2eLensError(i18n.t("sensitivity.recipe_needs_quantizer"))
    batches = batches_of(batches, "pl.recipe")
    calibration = batches if calibration is None else batches_of(calibration, "pl.recipe")
    own = quantizer is None or quantizer is getattr(run, "quantizer", None)  # run is what the recipe verifies
    with task(i18n.t("progress.recipe"), 4, i18n.t("progress.unit.steps")) as shown:
        return _recipe(
            run,
            batches,
            target_sqnr,
            max_fp32_sites,
            user_quantizer,
            own,
            calibration,
            executor,
            sensitivity_table,
            name,
            by,
            shown,
        )


def _recipe(
    run: Run,
    batches: list[tuple],
    target_sqnr: float,
    max_fp32_sites: int | None,
    user_quantizer: Quantizer,
    own_quantizer: bool,
    calibration: list[tuple],
    executor: Executor | None,
    sensitivity_table: Sensitivity | None,
    name: str,
    by: str,
    shown: Task,
) -> Recipe:
    reference = reference_outputs(run, batches, "pl.recipe")
    gm = gated(run)
    index = {s.id: i for i, s in enumerate(gm.sites)}
    if sensitivity_table is None:  # every site quantized first: a target it already meets needs no sweep
        baseline = run_configs(gm, batches, reference, [[]])[0][0]
        if baseline >= target_sqnr and own_quantizer:
            keep = KeepFp32(user_quantizer, edges=[], outputs=[])
            code = keep_fp32_code([], [], name)
            return Recipe([], [], keep, code, float(target_sqnr), baseline, baseline, run, None, float_reference(run))
    shown.advance()
    table = sensitivity_table or sensitivity(run, batches, only=False, executor=executor, by=by)
    shown.advance()
    by = table.by
    units = list(table.sites)  # ranked: the unit whose fp32 gives most back first
    limit = len(units) if max_fp32_sites is None else max(0, int(max_fp32_sites))

    def predict(chosen: list[int]) -> float:
        off = sorted({index[g] for u in chosen for g in units[u].groups})
        return run_configs(gm, batches, reference, [off])[0][0]

    chosen: list[int] = []
    predicted = table.baseline_db
    for u in range(len(units)):
        if predicted >= target_sqnr or len(chosen) >= limit:
            break
        chosen.append(u)
        predicted = predict(chosen)
    if predicted >= target_sqnr:  # smaller still? try each chosen unit without, last added first
        for u in list(reversed(chosen)):
            trial = [j for j in chosen if j != u]
            value = predict(trial)
            if value >= target_sqnr:
                chosen, predicted = trial, value
    shown.advance()
    sites = [units[u] for u in sorted(chosen)]
    gains = {s.id: row[5] for s, row in zip(table.sites, table.rows)}
    edges = list(dict.fromkeys(k[1:] for s in sites for k in s.keys if k[0] == "edge"))
    outputs = list(dict.fromkeys(k[1] for s in sites for k in s.keys if k[0] == "node"))
    keep = KeepFp32(user_quantizer, edges=edges, outputs=outputs)
    checked = _verify(run, keep, calibration)
    with torch.no_grad():
        verified = sqnr_db(reference, forward_all(checked["converted"].graph_module, batches))
    shown.advance()

    def rows_of(site: Site, gain: Any) -> tuple:
        return (site.id, site.tensor, site.serves, kind_of(site, by), gain)

    return Recipe(
        sites,
        [gains.get(s.id) for s in sites],
        keep,
        keep_fp32_code(edges, outputs, name),
        float(target_sqnr),
        predicted,
        verified,
        checked,
        rows_of,
        float_reference(run),
    )
