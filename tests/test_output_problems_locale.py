"""A bound breach and a damaged packed View are one line in the current locale (pl.set_locale / PT2E_LENS_LANG),
from the catalogues' output.* keys (the viewer shows the same keys in the View's or page's language)."""

import base64
import gzip

import pytest

from pt2e_lens import i18n
from pt2e_lens.schema import LIMITS
from pt2e_lens.schema.bounds import TooBig, check_tree, gunzip
from pt2e_lens.schema.packed import PackedProblem, pack, unpack

ZH = i18n.catalogue("zh-TW")


def problem(data) -> str:
    with pytest.raises(PackedProblem) as e:
        unpack(data)
    line = str(e.value)
    assert line.startswith("pt2e-lens output: ") and "\n" not in line
    return line


def test_damaged_lines_in_zh_tw_and_english():
    not_gzip = {**pack({"a": 1}), "data": base64.b64encode(b"\x1f\x8bnot gzip").decode()}
    assert "a damaged packed View (its data is not valid gzip" in problem(not_gzip)
    with i18n.using("zh-TW"):
        line = problem(not_gzip)
        assert ZH["output.not_gzip"] in line and "重新執行這一格" in line and "damaged" not in line
        assert ZH["output.not_base64"] in problem({**pack({"a": 1}), "data": "not base64!"})


def test_bound_breaches_name_the_bound_in_zh_tw():
    title = "x" * (LIMITS["max_string_chars"] + 1)
    with i18n.using("zh-TW"):
        line = problem({**pack({"title": title})})
        assert "max_string_chars" in line and "契約限制" in line and "refused" not in line
        with pytest.raises(TooBig, match="max_depth") as e:
            check_tree([[[[1]]]], {**LIMITS, "max_depth": 2})
        assert ZH["output.bound.depth"].format(n=2) in str(e.value)
    bomb = {**pack({}), "data": base64.b64encode(gzip.compress(b"0" * 3_000_000)).decode()}
    # the English line is what it was (docs/errors.md quotes it)
    with pytest.raises(TooBig, match=r"it unpacks to more than 2,000,000 bytes \(at most 2,000,000: contract limit"):
        gunzip(base64.b64decode(bomb["data"]), {**LIMITS, "max_json_bytes": 2_000_000})
