"""Bad input to pl.workbench: one line (en and zh-TW), the steps before it kept, and advance() goes on once fixed;
a calibration cancelled half way keeps the batches its observers saw and continues with the rest."""

import pytest
import torch
from _xnnpack_models import ResBlock

import pt2e_lens as pl
from pt2e_lens._torchao import Quantizer


def _batches(n=4, seed=2):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(2, 8, 8, 8, generator=g),) for _ in range(n)]


class Raises(Quantizer):
    def annotate(self, model):
        raise ValueError("no annotator for this model")

    def validate(self, model):
        pass


def _one_line(e):
    text = str(e.value)
    assert "\n" not in text and text.strip()
    return text


def test_a_quantizer_that_raises_keeps_the_export_and_another_quantizer_goes_on():
    batches = _batches()
    wb = pl.workbench(ResBlock().eval(), batches[0], quantizer=Raises(), calibration=batches)
    wb.advance()
    with pytest.raises(pl.Pt2eLensError) as e:
        wb.advance()
    assert "no annotator" in _one_line(e) and wb.error == str(e.value)
    assert wb.done == ["export"] and wb.run.stages == ["exported"] and wb.next_step == "prepare"
    wb.use("xnnpack").advance()
    assert wb.done == ["export", "prepare"] and wb.error is None


def test_calibration_of_the_wrong_shape_keeps_the_prepared_run():
    good = _batches()
    wb = pl.workbench(ResBlock().eval(), good[0], calibration=[(torch.randn(2, 3, 8, 8),)])
    wb.advance().advance()
    with pytest.raises(pl.Pt2eLensError) as e:
        wb.advance()
    _one_line(e)
    assert wb.done == ["export", "prepare"] and "calibrated" not in wb.run and wb.seen == 0


def test_a_cancelled_calibration_keeps_what_was_seen_and_continues_to_the_same_observers():
    batches = _batches(6)
    model = ResBlock().eval()
    whole = pl.workbench(model, batches[0], calibration=batches)
    for _ in range(4):
        whole.advance()
    wb = pl.workbench(model, batches[0], calibration=batches)
    wb.advance().advance()
    wb._listeners.append(lambda what: wb.cancel() if what == "progress" and wb.seen == 2 else None)
    with pytest.raises(KeyboardInterrupt):
        wb.advance()
    assert wb.seen == 2 and wb.run["calibrated"].info["batches"] == 2 and wb.done == ["export", "prepare"]
    # the line names the batches kept with the stages (the calibrated stage is on show beside them)
    assert wb.error == pl.i18n.t(
        "workbench.cancelled_calibration", step="calibrate", kept="export, prepare", seen=2, total=6
    )
    assert "2 of 6 batches" in wb.error and "\n" not in wb.error
    wb._listeners.clear()
    wb.advance().advance()
    assert wb.seen == 6
    a, b = whole.run["converted"].snapshot.qdq, wb.run["converted"].snapshot.qdq
    assert [(q["scale"], q["zero_point"]) for q in a] == [(q["scale"], q["zero_point"]) for q in b]
    assert wb.sqnr == whole.sqnr


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_wrong_arguments_are_one_line_in_each_language(lang):
    batches = _batches()
    model = ResBlock().eval()
    with _using(lang):
        for make in (
            lambda: pl.workbench(model, batches[0], quantizer=3),
            lambda: pl.workbench(model, batches[0], quantizer="xnnpak"),
            lambda: pl.workbench(model, batches[0], calibration=[]),
            lambda: pl.workbench(model, batches[0]).keep_fp32("conv1"),
        ):
            with pytest.raises(pl.Pt2eLensError) as e:
                make()
            _one_line(e)
        wb = pl.workbench(model, batches[0]).advance()
        for bad in ("no_such_node", 3.5, torch.nn.Linear(2, 2)):
            with pytest.raises(pl.Pt2eLensError) as e:
                wb.keep_fp32(bad)
            _one_line(e)
        with pytest.raises(pl.Pt2eLensError) as e:
            wb.recipe(30.0)
        _one_line(e)


def _using(lang):
    from pt2e_lens import i18n

    return i18n.using(lang)
