"""The self-unpacking viewer of text/html (`_static.packed_viewer`), run in Node with the page's objects
stubbed: its base91 text decodes to exactly the gzip of report.js, for every length of the data's tail."""

import gzip
import json
import random
import shutil
import string
import subprocess

import pytest

from pt2e_lens import _static
from pt2e_lens._static import bundle, packed_viewer

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node (it has DecompressionStream and Response)")

# a document whose <head> keeps each script the unpacker appends; prints their texts once every one has arrived
_PAGE = "const out=[];globalThis.document={createElement:()=>({}),head:{appendChild:(e)=>out.push(e.textContent)}};"


def unpacked(calls: list[str]) -> list[str]:
    """What each call of the unpacker appends to the page (one page each: the previous load forgotten)."""
    body = "".join(f"delete globalThis.__pt2eLensLoad;{c};await globalThis.__pt2eLensLoad;" for c in calls)
    code = f"{_PAGE}(async()=>{{{body}process.stdout.write(JSON.stringify(out))}})()"
    done = subprocess.run([NODE, "-e", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_inlined_viewer_unpacks_to_report_js_and_cannot_close_its_script():
    script = packed_viewer()
    if script is None:
        pytest.skip("the front end is not built")
    body = script.removeprefix("<script>").removesuffix("</script>")
    assert "</" not in body and "<!--" not in body and "\\" not in body  # nothing to escape in the notebook's JSON
    data = body[body.rindex('("') + 2 : body.rindex('",')]
    assert set(data) <= set(_static._ALPHABET) and not set(data) & set('"<')
    js = bundle("report.js")
    assert unpacked([body]) == [js]
    assert len(data) < len(gzip.compress(js.encode(), 9)) * 1.24  # 16 characters per 13 bytes (base85: 1.25)


def test_every_tail_length_decodes():
    rng = random.Random(0)
    texts, tails = [], set()
    while len(tails) < 13:  # gzip data of every length mod 13: each way the last 13-bit pair is filled
        text = "".join(rng.choices(string.printable, k=rng.randrange(400)))
        tail = len(gzip.compress(text.encode(), 9, mtime=0)) % 13
        if tail not in tails:
            tails.add(tail)
            texts.append(text)
    calls = []
    for text in texts:
        data = gzip.compress(text.encode(), 9, mtime=0)
        calls.append(f"{_static._UNPACKER}({json.dumps(_static.viewer_text(data))},{len(data)})")
    assert unpacked(calls) == texts
