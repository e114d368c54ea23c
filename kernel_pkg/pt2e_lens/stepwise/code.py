"""`wb.code`: the plain Python that reproduces a workbench's run — pl.capture / pl.Run, pl.KeepFp32, torchao.

It names the user's objects as the workbench was given them: `model`, `example_inputs`, `calibration`, and
`quantizer` when it was the user's own instance. tests/test_workbench_code.py executes it and compares.
"""

from __future__ import annotations

from ..prepare.presets import Preset


def run_code(
    preset: Preset | None,
    edges: list[tuple[str, str]],
    outputs: list[str],
    done: list[str],
    batches: int | None,
    total: int,
    own_calibration: bool,
    backend: str,
) -> str:
    """`done`: the steps run so far; `batches`: how many calibration batches the observers saw (None: none)."""
    lines = ["import pt2e_lens as pl", ""]
    if "prepare" in done:
        if preset is not None:
            lines += preset.code().rstrip("\n").split("\n")
        else:
            lines.append("# quantizer: your own torchao Quantizer, as given to pl.workbench")
        if edges or outputs:
            lines += ["quantizer = pl.KeepFp32(", "    quantizer,", f"    edges={list(edges)!r},"]
            lines += [f"    outputs={list(outputs)!r},", ")"]
        lines.append("")
    data = "calibration" if own_calibration else "[example_inputs]"
    if batches is not None and batches < total:
        data = f"{data}[:{batches}]"
    if "convert" in done:
        if batches is None:
            lines.append("run = pl.Run(model, example_inputs).prepare(quantizer).convert()")
        else:
            lines.append(f"run = pl.capture(model, example_inputs, quantizer, calibration={data})")
    else:
        chain = "pl.Run(model, example_inputs)"
        if "prepare" in done:
            chain += ".prepare(quantizer)"
        if batches is not None:
            chain += f".calibrate({data})"
        lines.append(f"run = {chain}")
    if "lower" in done:
        lines.append(f"run.lower({backend!r})")
    return "\n".join(lines) + "\n"
