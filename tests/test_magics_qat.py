"""`%pt2e check / blame / orders … --qat`: the magics of pl.check, pl.blame and pl.compare_orders pass qat=True
as those calls take it (docs/qat.md); checked against the Python calls and torchao's own prepare_qat_pt2e."""

import copy
import re
import types
import warnings

import pytest
import torch
from _fingerprint import fingerprint
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

import pt2e_lens as pl
from pt2e_lens import i18n
from pt2e_lens._torchao import is_fake_quant_module, prepare_qat_pt2e
from pt2e_lens.kernel.magics import Pt2eMagics
from pt2e_lens.kernel.tracker import Tracker
from pt2e_lens.why import OrderComparison

CJK = re.compile(r"[\u4e00-\u9fff]")


def _qat_quantizer():
    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True, is_qat=True))


@pytest.fixture(scope="module")
def magic():
    torch.manual_seed(0)
    user_ns = {
        "mlp": torch.nn.Sequential(torch.nn.Linear(8, 6), torch.nn.ReLU(), torch.nn.Linear(6, 4)).train(),
        "y": (torch.randn(4, 8),),
        "q": _qat_quantizer(),
        "fc0": XNNPACKQuantizer().set_module_name("0", get_symmetric_quantization_config(is_qat=True)),
        # prepare_pt2e folds its batch norm: the QAT config runs there as torchao runs it, with one warning
        "convbn": torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4)).eval(),
        "z": (torch.randn(2, 3, 8, 8),),
    }
    shell = types.SimpleNamespace(user_ns=user_ns)  # all the magics read of a shell
    before = {k: fingerprint(user_ns[k]) for k in ("mlp", "convbn")}
    yield Pt2eMagics(shell, Tracker(user_ns)), user_ns
    assert {k: fingerprint(user_ns[k]) for k in before} == before


def _run(magics, line):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # XNNPACKQuantizer's deprecation
        return magics.pt2e(line)


def test_without_qat_a_qat_quantizer_is_checked_as_prepare_pt2e_runs_it_with_one_warning(magic):
    magics, ns = magic
    with warnings.catch_warnings(record=True) as caught:  # blame and orders alike (Python side: tests/test_qat.py)
        warnings.simplefilter("always")
        table = magics.pt2e("check q convbn --inputs z")
    said = [str(w.message) for w in caught if issubclass(w.category, pl.Pt2eLensWarning)]
    assert len(said) == 1 and "\n" not in said[0] and "qat=True" in said[0] and "fake-quantize" in said[0], said
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert isinstance(table, pl.Table) and table.rows == pl.check(ns["q"], ns["convbn"], ns["z"]).rows


def test_check_with_qat_is_pl_check_with_qat(magic):
    magics, ns = magic
    table = _run(magics, "check q mlp --inputs y --qat")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = pl.check(ns["q"], ns["mlp"], ns["y"], qat=True)
    assert isinstance(table, pl.Table) and table.rows == want.rows and table.title == want.title


def test_blame_with_qat_is_pl_blame_with_qat(magic):
    magics, ns = magic
    rows = _run(magics, "blame mlp q --inputs y --qat").rows
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert rows == pl.blame(ns["mlp"], ns["q"], ns["y"], qat=True).rows
    # both linears (weight, bias, output) annotated by the one quantizer
    assert {r[1] for r in rows} == {"XNNPACKQuantizer"} and {"linear", "linear_1"} <= {r[0] for r in rows}, rows


def test_orders_with_qat_prepares_torchaos_qat_graph(magic):
    magics, ns = magic
    table = _run(magics, "orders mlp q fc0 --inputs y --qat")
    assert isinstance(table, OrderComparison) and not any(o.error for o in table.outcomes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = prepare_qat_pt2e(torch.export.export(copy.deepcopy(ns["mlp"]), ns["y"]).module(), _qat_quantizer())

    def fake_quants(gm):
        return sorted(type(m).__name__ for m in gm.modules() if is_fake_quant_module(m))

    ours = table.outcomes[0].gm  # the order [q, fc0]: q annotates every linear first
    assert fake_quants(ours) == fake_quants(theirs) and fake_quants(ours)  # fake-quantize modules, not observers
    assert len(ours.graph.nodes) == len(theirs.graph.nodes)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_help_lists_them_with_qat(magic, lang, capsys):
    magics, _ = magic
    with i18n.using(lang):
        magics.pt2e("help")
    text = capsys.readouterr().out
    for command in ("check QUANTIZER X", "blame X [QUANTIZER]", "orders X Q1 Q2"):
        line = next(ln for ln in text.splitlines() if f"%pt2e {command}" in ln)
        assert "[--inputs I] [--qat]" in line, line
        assert lang == "en" or CJK.search(line), line  # its description in Traditional Chinese
    assert "%pt2e show X" in text  # the other magics are still listed
