"""XNNPACK's own record of precision: the graph a delegate serialized (its flatbuffer, decoded with the flatc that
ships with ExecuTorch), where every XNNPACK node names its input value and every value its datatype."""

import json
import re
import subprocess
import tempfile
from pathlib import Path

import executorch
from executorch.backends.xnnpack.serialization.xnnpack_graph_serialize import XNNHeader
from executorch.exir._serialize._flatbuffer import _get_flatc_path

SCHEMA = Path(next(iter(executorch.__path__))) / "backends" / "xnnpack" / "serialization" / "schema.fbs"
QUANTIZED = {"xnn_datatype_qint8", "xnn_datatype_quint8", "xnn_datatype_qcint8", "xnn_datatype_qdint8"}


def decoded(lowered) -> dict:
    data = lowered.processed_bytes
    header = XNNHeader.from_bytes(data[: XNNHeader.EXPECTED_LENGTH])
    flat = data[header.flatbuffer_offset : header.flatbuffer_offset + header.flatbuffer_size]
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "g.bin").write_bytes(flat)
        args = ["--json", "--strict-json", "--defaults-json", "--raw-binary", "-o", d, str(SCHEMA), "--"]
        subprocess.run([_get_flatc_path(), *args, str(Path(d) / "g.bin")], check=True, capture_output=True)
        text = (Path(d) / "g.json").read_text()
    # flatc writes an unbounded clamp as bare inf / -inf / nan, which JSON spells Infinity / NaN
    text = re.sub(r"(?<=[:\[,\s])(-?)inf\b", r"\1Infinity", text)
    return json.loads(re.sub(r"(?<=[:\[,\s])nan\b", "NaN", text))


def compute_precisions(lowered) -> dict[int, bool]:
    """debug handle -> does XNNPACK's node (not a convert) read a quantized input?"""
    graph = decoded(lowered)
    datatypes = []
    for v in graph["xvalues"]:
        u = v["xvalue_union"]
        datatypes.append((u.get("tensor_value") or u).get("datatype"))
    out = {}
    for n in graph["xnodes"]:
        if n["xnode_union_type"] == "XNNConvert":
            continue
        u = n["xnode_union"]
        first = u.get("input1_id", u.get("input_id"))
        if first is not None:
            out[n["debug_handle"]] = datatypes[first] in QUANTIZED
    return out
