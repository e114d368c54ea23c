"""The self-unpacking viewer of text/html (`_static.packed_viewer`, src/report/unpacker.ts), run in Node with
the page's objects stubbed: its base91 text of Python's LZMA decodes to exactly report.js, for every length of
the data's tail and for data LZMA codes every way (literals, matches, repeats, long distances, any byte)."""

import json
import lzma
import random
import shutil
import string
import subprocess

import pytest

from pt2e_lens import _static
from pt2e_lens._static import bundle, packed_viewer

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node")

# a document whose <head> keeps each script the unpacker appends; prints their texts
_PAGE = "const out=[];globalThis.document={createElement:()=>({}),head:{appendChild:(e)=>out.push(e.textContent)}};"


def run(page: str, calls: list[str]) -> list[str]:
    """What the unpacker calls append to `page` (the script on stdin: the data is too long for an argument)."""
    code = f"{page}{''.join(calls)}process.stdout.write(JSON.stringify(out))"
    done = subprocess.run([NODE, "-"], input=code, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def unpacked(calls: list[str]) -> list[str]:
    """What each call of the unpacker appends to the page (one page each: the previous viewer forgotten)."""
    return run(_PAGE, [f"delete globalThis.pt2eLens;{c};" for c in calls])


def unpacker() -> str:
    text = bundle("unpacker.js")
    if text is None or bundle("report.js") is None:
        pytest.skip("the front end is not built")
    return text.strip()


def call(text: str) -> str:
    raw = text.encode()
    data = lzma.compress(raw, format=lzma.FORMAT_RAW, filters=_static.VIEWER_FILTERS)
    return f"{unpacker()}({json.dumps(_static.viewer_text(data))},{len(data)},{len(raw)})"


def test_the_inlined_viewer_unpacks_to_report_js_and_cannot_close_its_script():
    unpacker()
    script = packed_viewer()
    assert script is not None
    body = script.removeprefix("<script>").removesuffix("</script>")
    assert "</" not in body and "<!--" not in body and "\\" not in body  # nothing to escape but the quotes
    data = body[body.rindex('("') + 2 : body.rindex('",')]
    assert set(data) <= set(_static._ALPHABET) and not set(data) & set('"<')
    js = bundle("report.js")
    assert unpacked([body]) == [js]
    raw = lzma.compress(js.encode(), format=lzma.FORMAT_RAW, filters=_static.VIEWER_FILTERS)
    assert len(data) <= -(-len(raw) * 16 // 13) + 2  # 16 characters per 13 bytes (base85: 5 per 4)


def test_every_tail_length_and_every_kind_of_data_decodes():
    rng = random.Random(0)
    texts, tails = [], set()
    while len(tails) < 13:  # LZMA data of every length mod 13: each way the last 13-bit pair is filled
        text = "".join(rng.choices(string.printable, k=rng.randrange(400)))
        tail = len(lzma.compress(text.encode(), format=lzma.FORMAT_RAW, filters=_static.VIEWER_FILTERS)) % 13
        if tail not in tails:
            tails.add(tail)
            texts.append(text)
    texts += ["", "a", "漢字 ünïcode ✓ " * 40, "abc" * 5000]  # empty, one byte, UTF-8, one long repeat
    # any byte value (as Latin-1 text: UTF-8 of it holds every byte), and repeats at distances past 64 KiB
    noise = "".join(map(chr, rng.choices(range(256), k=70000)))
    texts += [noise, noise + "tail" + noise[:3000] + noise[1000:9000]]
    assert unpacked([call(t) for t in texts]) == texts


def test_a_page_loads_the_viewer_once_for_all_its_outputs():
    # a page that runs what is appended: here a stand-in viewer that says when it draws the page
    page = _PAGE.replace("out.push(e.textContent)", "(out.push(e.textContent),(0,eval)(e.textContent))")
    viewer = "globalThis.pt2eLens={renderOutput:1,renderAll:()=>out.push('drawn')}"
    # the first output appends the viewer; the second finds it and has it draw the page
    assert run(page, [call(viewer) + ";", call("never appended") + ";"]) == [viewer, "drawn"]
