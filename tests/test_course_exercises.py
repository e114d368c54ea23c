"""Issue 18, point 4: the course's exercises check a student's answer against torchao's own graphs and say,
in the chapter's language, what is right, what is wrong and where (a graph with the differing nodes noted)."""

import copy

import pytest
import torch
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e

import pt2e_lens as pl
from pt2e_lens.examples import (
    ComposableQuantizer,
    ConvQuantizer,
    ConvReluQuantizer,
    example_inputs,
    exercise,
    export_module,
    get_model,
    get_module_name_filter,
)


def _observer_feeding_relu(gm):
    """In torchao's prepared graph: the observer node relu reads, if any."""
    relu = next(n for n in gm.graph.nodes if n.target == torch.ops.aten.relu.default)
    return relu.args[0].name if relu.args[0].op == "call_module" else None


def test_relu_last_wrong_order_is_explained_in_zh_tw_and_marked(capsys):
    wrong = [ConvQuantizer(), ConvReluQuantizer()]
    result = exercise("m03_6.relu_last", wrong, lang="zh-TW")
    gm = export_module(get_model("conv_relu").eval(), example_inputs(4))
    between = _observer_feeding_relu(prepare_pt2e(copy.deepcopy(gm), ComposableQuantizer(wrong)))
    assert between is not None and not result.passed
    printed = capsys.readouterr().out
    assert f"conv2d 與 relu 之間多了一個 observer（{between}）" in printed
    assert "conv2d 先被 ConvQuantizer 標走了" in printed and "pl.compare_orders：順序有影響" in printed
    assert result.view["locale"] == "zh-TW" and result.view["title"] == "✘ 還沒對：看圖上標出來的 node"
    assert list(result.view["notes"][1]) == [between]  # the note sits on torchao's observer


def test_relu_last_right_order_passes():
    right = [ConvReluQuantizer(), ConvQuantizer()]
    result = exercise("m03_6.relu_last", right, lang="zh-TW")
    gm = export_module(get_model("conv_relu").eval(), example_inputs(4))
    assert _observer_feeding_relu(prepare_pt2e(copy.deepcopy(gm), ComposableQuantizer(right))) is None
    assert result.passed and result.lines[0].startswith("✔ ConvReluQuantizer → ConvQuantizer：observer 在 relu 之後")
    assert result.view["notes"][1] == {}


def test_stem_only_names_what_lies_outside_stem():
    result = exercise("m03_6.stem_only", ConvQuantizer(get_module_name_filter("block")), lang="en")
    gm = export_module(get_model("tiny").eval(), example_inputs(8))
    in_block = get_module_name_filter("block")
    block_convs = sorted(n.name for n in gm.graph.nodes if n.target == torch.ops.aten.conv2d.default and in_block(n))
    stem_convs = [n.name for n in gm.graph.nodes if n.target == torch.ops.aten.conv2d.default and not in_block(n)][:1]
    assert not result.passed
    assert sorted(result.view["notes"][1]) == block_convs  # the answer's pane: each conv it took outside stem
    assert list(result.view["notes"][0]) == stem_convs  # the reference's pane: the stem conv it missed
    assert any(line.startswith(f"✘ {block_convs[0]} is annotated, but it lies in block") for line in result.lines)
    assert exercise("m03_6.stem_only", ConvQuantizer(get_module_name_filter("stem"))).passed


def test_stem_only_reports_pl_check_problems():
    from pt2e_lens.examples import RuleQuantizer

    class Overwriting(RuleQuantizer):
        """Annotates stem's conv twice with different specs: pl.check names the overwrite."""

        def annotate(self, model):
            ConvQuantizer(get_module_name_filter("stem")).annotate(model)
            conv = next(n for n in model.graph.nodes if n.target == torch.ops.aten.conv2d.default)
            from pt2e_lens.examples import ANNOTATION_KEY, QuantizationAnnotation

            conv.meta[ANNOTATION_KEY] = QuantizationAnnotation(_annotated=True)
            return model

    result = exercise("m03_6.stem_only", Overwriting(), lang="zh-TW")
    problems = pl.check(Overwriting(), export_module(get_model("tiny").eval(), example_inputs(8)))
    assert not result.passed and len(problems) >= 1
    assert [line for line in result.lines if line.startswith("✘ pl.check：")]


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_chain_right_and_wrong(lang):
    ep = torch.export.export(get_model("tiny").eval(), example_inputs())
    truth = pl.chain(ep.run_decompositions({}).module(), "conv2d", until="relu")
    assert exercise("m00_3.chain", list(truth), lang=lang).passed
    wrong = exercise("m00_3.chain", ["conv2d", "batch_norm", "relu"], lang=lang)
    assert not wrong.passed and wrong.view["notes"][1] == {truth[1]: wrong.view["notes"][1][truth[1]]}
    assert ("第 2 步" if lang == "zh-TW" else "step 2") in wrong.lines[0]


def test_echo_false_checks_without_printing(capsys):
    """A chapter's self-test checks the wrong answer too: with echo=False nothing reaches the student."""
    capsys.readouterr()
    quiet = exercise("m00_3.chain", ["conv2d", "batch_norm", "relu"], lang="zh-TW", echo=False)
    assert capsys.readouterr().out == "" and not quiet.passed and quiet.lines[0].startswith("✘")
    exercise("m00_3.chain", ["conv2d", "batch_norm", "relu"], lang="zh-TW")
    assert capsys.readouterr().out.startswith("✘")


def test_a_bad_answer_or_name_is_one_clear_line():
    with pytest.raises(pl.Pt2eLensError, match="no exercise 'm99'; there are: m00_3.chain, "):
        exercise("m99", None, lang="en")
    with pytest.raises(pl.Pt2eLensError, match=r"takes a list of two or more quantizers"):
        exercise("m03_6.relu_last", ConvQuantizer(), lang="en")
