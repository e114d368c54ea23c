"""strict= and dynamic_shapes= go through to torch.export; a quantizer that fails on a non-strict graph is
told apart from a broken quantizer: the error names the export mode and what to pass."""

import warnings

import pytest
import torch
from torch import nn

import pt2e_lens as pl


class Block(nn.Module):
    """resnet's BasicBlock: conv-bn-relu, conv-bn, optional downsample, in-place residual add, relu."""

    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.downsample = (
            nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
            if stride != 1 or cin != cout
            else None
        )

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        out = self.bn2(self.conv2(self.relu(self.bn1(self.conv1(x)))))
        out += identity
        return self.relu(out)


class TinyResNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, 1, 1, bias=False), nn.BatchNorm2d(8), nn.ReLU(inplace=True))
        self.layers = nn.Sequential(Block(8, 8, 1), Block(8, 16, 2))
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        x = self.layers(self.stem(x))
        return self.fc(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))


def _x86():
    from torchao.quantization.pt2e.quantizer import x86_inductor_quantizer as xiq

    return xiq.X86InductorQuantizer().set_global(xiq.get_default_x86_inductor_quantization_config())


X = (torch.randn(2, 3, 16, 16),)


def test_non_strict_failure_names_the_export_mode_and_what_to_pass():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(pl.Pt2eLensError) as e:
            pl.capture(TinyResNet().eval(), X, _x86(), calibration=[X])
    msg = str(e.value)
    assert "\n" not in msg and "export mode" in msg and "strict=True" in msg
    assert "Input partition has more than one output node" in msg  # torchao's own words stay


def test_strict_export_works_and_is_what_bare_torchao_does():
    from pt2e_lens._torchao import convert_pt2e, prepare_pt2e

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.capture(TinyResNet().eval(), X, _x86(), calibration=[X], strict=True)
        gm = torch.export.export(TinyResNet().eval(), X, strict=True).module()
        bare = prepare_pt2e(gm, _x86())
        bare(*X)
        bare = convert_pt2e(bare)
    assert run.export_mode == "strict"
    ours = sorted(str(n.target) for n in run["converted"].graph_module.graph.nodes if n.op == "call_function")
    theirs = sorted(str(n.target) for n in bare.graph.nodes if n.op == "call_function")
    assert ours == theirs


def test_dynamic_shapes_pass_through():
    dims = ({0: torch.export.Dim("batch", min=1, max=64)},)
    run = pl.Run(TinyResNet().eval(), X, dynamic_shapes=dims)
    placeholder = next(n for n in run["exported"].graph_module.graph.nodes if n.op == "placeholder")
    assert not isinstance(placeholder.meta["val"].shape[0], int)  # symbolic, as asked
    from pt2e_lens.examples import ConvQuantizer

    run.prepare(ConvQuantizer()).calibrate([(torch.randn(5, 3, 16, 16),), (torch.randn(7, 3, 16, 16),)])
    assert "calibrated" in run


def test_bad_export_options_give_one_line():
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.Run(TinyResNet().eval(), X, strict="yes")
    assert "strict=" in str(e.value) and "True or False" in str(e.value)
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.Run(TinyResNet().eval(), X, dynamic_batch=True, dynamic_shapes=({0: torch.export.Dim("b")},))
    assert "not both" in str(e.value)
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.Run(TinyResNet().eval(), X, dynamic_shapes={"nope": 1})
    assert "export mode" in str(e.value) and "\n" not in str(e.value)
