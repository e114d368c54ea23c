"""Conformance beyond the matrix: real models from timm and Hugging Face transformers that no test or table of
this project uses, × torchao's and ExecuTorch's quantizers, with the conformance table's own checks
(bench/conformance_cases.py `run_row`: counts, annotation map, pl.why_not, findings, pl.check, blame, pl.record).

    ../zoo-venv/bin/python bench/beyond.py --zoo timm --save timm.json      # timm needs torchvision: torch 2.14.1
    .venv/bin/python bench/beyond.py --zoo transformers --save hf.json      # ExecuTorch's quantizers: torch 2.13.0
    python bench/beyond.py --load timm.json hf.json --docs                  # the section of docs/conformance.md

A `pl.check` row on the vendor's own graph counts as false unless torchao's converted graph then fails when run:
there the check named the cause ahead of time (a spec on an int64 tensor: quantize_per_tensor refuses it).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import re
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "kernel_pkg"))
sys.path.insert(0, str(HERE.parent))

import torch  # noqa: E402

from bench import conformance_cases as cc  # noqa: E402
from bench.conformance_quantizers import CASES, Missing  # noqa: E402
from bench.doc_sections import replace_section  # noqa: E402
from bench.zoo_models import FirstOutput, _need  # noqa: E402

DOC = HERE.parent / "docs" / "conformance.md"
SECTION = "## Beyond the matrix"

TIMM = [
    "mobilevit_xxs", "levit_128s", "deit_tiny_patch16_224", "regnetx_002", "ghostnet_100", "mnasnet_100",
    "lcnet_050", "resnest14d", "rexnet_100", "poolformer_s12", "edgenext_xx_small", "repvgg_a0", "mobileone_s0",
    "fastvit_t8", "tinynet_a", "mixer_s16_224",
]  # fmt: skip
TIMM_224 = {"levit_128s", "deit_tiny_patch16_224", "mixer_s16_224", "fastvit_t8"}  # fixed input size
TIMM_QUANTIZERS = ["torchao XNNPACK static per-channel", "torchao X86Inductor default"]
HF_QUANTIZERS = [
    "ExecuTorch XNNPACK", "ExecuTorch Arm TOSA-1.0+INT", "ExecuTorch Arm Ethos-U55", "ExecuTorch Cortex-M",
    "ExecuTorch Cortex-M (.module(check_guards=False))", "ExecuTorch Vulkan", "ExecuTorch Cadence default",
    "ExecuTorch Samsung Enn A8W8",
]  # fmt: skip
SMALL = {"hidden_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 256}


def _image(size: int):
    return lambda seed: (torch.randn(1, 3, size, size, generator=torch.Generator().manual_seed(seed)),)


def _tokens(seed: int) -> tuple:
    return (torch.randint(0, 1000, (1, 32), generator=torch.Generator().manual_seed(seed)),)


def _hf(model: str, config: str, inputs, **kw):
    """A transformers model from a small config (random weights), returning its first output."""

    def make():
        t = _need("transformers")
        return FirstOutput(getattr(t, model)(getattr(t, config)(**kw)))

    return make, inputs


def hf_models() -> dict:
    text = {"vocab_size": 1000, "max_position_embeddings": 64}
    return {
        "HF DistilBERT": _hf(
            "DistilBertModel", "DistilBertConfig", _tokens, **text, dim=128, n_layers=2, n_heads=4, hidden_dim=256
        ),
        "HF RoBERTa": _hf(
            "RobertaModel", "RobertaConfig", _tokens, **SMALL, vocab_size=1000, max_position_embeddings=70
        ),
        "HF ALBERT": _hf("AlbertModel", "AlbertConfig", _tokens, **SMALL, **text, embedding_size=64),
        "HF T5 encoder": _hf(
            "T5EncoderModel",
            "T5Config",
            _tokens,
            vocab_size=1000,
            d_model=128,
            d_kv=32,
            d_ff=256,
            num_layers=2,
            num_heads=4,
        ),
        "HF ConvNeXt": _hf(
            "ConvNextModel",
            "ConvNextConfig",
            _image(64),
            image_size=64,
            hidden_sizes=[32, 64, 96, 128],
            depths=[1, 1, 1, 1],
        ),
        "HF MobileViT": _hf("MobileViTModel", "MobileViTConfig", _image(64), image_size=64),
        "HF DeiT": _hf("DeiTModel", "DeiTConfig", _image(64), **SMALL, image_size=64, patch_size=16),
        "HF ResNet": _hf(
            "ResNetModel",
            "ResNetConfig",
            _image(64),
            hidden_sizes=[32, 64, 96, 128],
            depths=[1, 1, 1, 1],
            embedding_size=32,
        ),
    }


def timm_models() -> dict:
    def make(name: str):
        return lambda: _need("timm").create_model(name, pretrained=False)

    return {f"timm {n}": (make(n), _image(224 if n in TIMM_224 else 160)) for n in TIMM}


def converted_runs(case, model_name: str) -> str:
    """'' when torchao's own converted graph runs on the example inputs, else why it does not."""
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    model, inputs, batches = cc.model_and_data(model_name)
    quantizer = case.make()
    with cc._quiet():
        prepared = prepare_pt2e(cc.vendor_graph(case, model, inputs, quantizer), quantizer)
        with torch.no_grad():
            for batch in batches:
                prepared(*batch)
            try:
                convert_pt2e(prepared)(*inputs)
            except Exception as e:
                return cc.one_line(e)[:120]
    return ""


def run(zoo: str, models: str, quantizers: str, save: str | None) -> list[dict]:
    registry = timm_models() if zoo == "timm" else hf_models()
    names = TIMM_QUANTIZERS if zoo == "timm" else HF_QUANTIZERS
    cc.MODELS.update(registry)
    out = []
    for model in (m for m in registry if re.search(models, m)):
        for case in (c for c in CASES if c.name in names and re.search(quantizers, c.name)):
            t = time.time()
            try:
                row = cc.run_row(case, model)
            except Missing as e:
                row = cc.Row(case.name, model, reason=str(e))
            d = dataclasses.asdict(row)
            d["true_checks"] = converted_runs(case, model) if row.false_checks else ""
            d["seconds"] = round(time.time() - t, 1)
            out.append(d)
            print(json.dumps(d)[:400], file=sys.stderr, flush=True)
            if save:
                Path(save).write_text(json.dumps(out, indent=1))
    return out


def green(d: dict) -> bool:
    row = cc.Row(**{k: v for k, v in d.items() if k in {f.name for f in dataclasses.fields(cc.Row)}})
    return row.green or bool(
        dataclasses.replace(row, false_checks=0).green and d.get("true_checks")  # the check was right
    )


def section(rows: list[dict]) -> str:
    ran = [d for d in rows if d["torchao_ok"]]
    fails = [d for d in rows if d["torchao_ok"] is False]
    lines = [
        SECTION,
        "",
        f"Generated by `python bench/beyond.py` on {datetime.date.today().isoformat()} (its docstring says how); do not "
        "edit by hand. Models no other table or test of this project uses — timm (random weights, 160 px unless the "
        "model fixes 224) with torchao's XNNPACK and X86 quantizers in the torch 2.14.1 venv, Hugging Face "
        "transformers from small configs with ExecuTorch 1.5.1's quantizers in torch 2.13.0 — through the "
        "conformance table's checks (its columns above). A `pl.check` row counts as right when torchao's own "
        "converted graph fails to run there.",
        "",
        f"**{len(ran)} rows where torchao's flow runs: {sum(green(d) for d in ran)} green**; {len(fails)} where "
        "torchao's own flow fails (nothing to equal).",
        "",
        "| model | quantizer | capture | record | counts | annotations | why specific / wrong | false findings | "
        "pl.check | blame | note |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    yes = {True: "yes", False: "**no**", None: "—"}
    for d in ran:
        checks = "0" if not d["false_checks"] else (f"{d['false_checks']} right" if d["true_checks"] else "**false**")
        note = f"torchao's converted graph fails: {d['true_checks']}" if d["true_checks"] else d["reason"][:160]
        specific = "—" if d["why_specific"] is None else f"{d['why_specific']:.0%} / {d['why_wrong']}"
        lines.append(
            f"| {d['model']} | {d['quantizer']} | {yes[d['capture_ok']]} | {d['record']} | {yes[d['counts_equal']]} | "
            f"{yes[d['annotations_equal']]} | {specific} | {d['false_findings']} | {checks} | {d['blame']} | "
            f"{note.replace('|', '/')} |"
        )
    done = {(d["model"], d["quantizer"]) for d in rows}
    pairs = [(m, q) for m in timm_models() for q in TIMM_QUANTIZERS] + [
        (m, q) for m in hf_models() for q in HF_QUANTIZERS
    ]
    missing = [f"{m} × {q}" for m, q in pairs if (m, q) not in done]
    if missing:
        lines += ["", f"Not run this time ({len(missing)}): {', '.join(missing)}."]
    if fails:
        failed: dict[str, list[str]] = {}
        for d in fails:
            failed.setdefault(d["reason"].removeprefix("torchao itself fails: ")[:90], []).append(
                f"{d['model']} × {d['quantizer']}"
            )
        lines += ["", "Where torchao's own flow fails:", ""]
        lines += [f"- {reason}: {', '.join(where)}" for reason, where in failed.items()]
    return "\n".join(lines) + "\n"


def write_docs(text: str) -> None:
    DOC.write_text(replace_section(DOC.read_text(), SECTION, text))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--zoo", choices=("timm", "transformers"), help="which models to run")
    parser.add_argument("--models", default="", help="regex on model names")
    parser.add_argument("--quantizers", default="", help="regex on quantizer case names")
    parser.add_argument("--save", help="write the rows as JSON")
    parser.add_argument("--load", nargs="*", help="rows from saved parts instead of running")
    parser.add_argument("--docs", action="store_true", help="write the section of docs/conformance.md")
    args = parser.parse_args()
    if args.load:
        # a later part's row of a pair replaces an earlier one's
        rows = list(
            {(d["model"], d["quantizer"]): d for p in args.load for d in json.loads(Path(p).read_text())}.values()
        )
    elif args.zoo:
        rows = run(args.zoo, args.models, args.quantizers, args.save)
    else:
        parser.error("--zoo or --load")
    text = section(rows)
    print(text)
    if args.docs:
        write_docs(text)


if __name__ == "__main__":
    main()
