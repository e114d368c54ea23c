"""A fuzz test of the %pt2e argument parser: whatever line a user types, the magic either answers or raises
IPython's UsageError with one line — never another exception, never a hang on a huge number — and the
user's objects stay bit-identical."""

import types

import pytest
import torch
from _fingerprint import fingerprint
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from IPython.core.error import UsageError

import pt2e_lens as pl
from pt2e_lens.examples import ConvReluQuantizer, calibration_batches, example_inputs, get_model
from pt2e_lens.kernel.magics import PARSERS, Pt2eMagics
from pt2e_lens.kernel.tracker import Tracker

COMMANDS = [*PARSERS, "shwo", "", "--help"]
REFS = ["run", "run[prepared]", "run[converted]", "run[bogus]", "ep", "gm", "answer", "nope", "'<img onerror=x>'"]
FLAGS = ["--focus", "--module", "--hops", "--title", "--table", "--auto", "--html", "-h", "--"]
VALUES = st.one_of(
    st.sampled_from(["conv2d,relu", "stem", "0", "-1", "1.5", "99999999999", "core", "empty", "'a b'", '"', "'"]),
    st.integers(-(10**12), 10**12).map(str),
    st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=12),
)
WORD = st.one_of(st.sampled_from(REFS), st.sampled_from(FLAGS), VALUES)
LINE = st.one_of(
    st.tuples(st.sampled_from(COMMANDS), st.lists(WORD, max_size=6)).map(lambda t: " ".join([t[0], *t[1]])),
    st.text(max_size=40),
)


@pytest.fixture(scope="module")
def magic(tmp_path_factory):
    ep = torch.export.export(get_model("tiny").eval(), example_inputs())
    run = pl.capture(ep, None, ConvReluQuantizer(), calibration=calibration_batches(2))
    user_ns = {"ep": ep, "gm": ep.module(), "run": run, "answer": 42}
    shell = types.SimpleNamespace(user_ns=user_ns)  # all the magics read of a shell
    return Pt2eMagics(shell, Tracker(user_ns)), user_ns, tmp_path_factory.mktemp("reports")


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=LINE)
def test_any_line_answers_or_says_one_line(magic, line, monkeypatch):
    magics, user_ns, folder = magic
    monkeypatch.chdir(folder)  # `report --html x` writes there, not into the checkout
    before = {k: fingerprint(user_ns[k]) for k in ("ep", "gm")}
    try:
        magics.pt2e(line)
    except UsageError as e:
        assert str(e) and "\n" not in str(e), repr(str(e))
    assert {k: fingerprint(user_ns[k]) for k in ("ep", "gm")} == before
