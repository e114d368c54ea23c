"""Which annotator of a quantizer looked at a node, and which wrote its annotation.

Quantizers keep no record of this, and torchao's XNNPACKQuantizer / X86InductorQuantizer run one private
function per pattern (`_annotate_linear`, `_annotate_conv2d_binary_unary`, …). What every quantizer does
through public data is read and write `node.meta`: an annotator that matched a node's pattern reads its
`quantization_annotation` (to see whether it is taken) or its `nn_module_stack` (a module filter) and then
writes an annotation or leaves it. The watched meta dict (prepare/annotate.py) reports those reads and
writes here; the annotator is the innermost function on the Python stack whose name says it annotates.

Limits: a quantizer that decides without reading meta (it matches on `node.target` alone and skips the node
for another reason) leaves no "looked" trace; an annotator whose name does not contain "annotate" is
named by its quantizer's `annotate`.
"""

from __future__ import annotations

import os
import sys
from contextvars import ContextVar
from types import CodeType, FrameType
from typing import Any

# the (sub-)quantizer whose annotate is running: set by the recorder around each quantizer's annotate
ANNOTATING: ContextVar[str | None] = ContextVar("pt2e_lens_annotating", default=None)
# meta keys an annotator reads when a node matched its pattern (not `val`: partition matchers read it on all)
LOOK_KEYS = ("quantization_annotation", "nn_module_stack")  # the first is torchao's Q_ANNOTATION_KEY
# torchao's writing helpers: the annotator is the function that called them
_HELPERS = frozenset(
    {
        "annotate_input_qspec_map",
        "annotate_output_qspec",
        "_annotate_input_qspec_map",
        "_annotate_output_qspec",
        "_mark_nodes_as_annotated",
        "_is_annotated",
        "_is_any_annotated",
        "_is_all_annotated",
        "_is_node_annotated",
        "_is_quantized_op_pt2e",
        "_skip_annotate",
    }
)
_HERE = os.path.dirname(os.path.abspath(__file__))  # our recorder's own reads are no annotator's
_COMPOSABLE = "composable_quantizer"


_NAMES: dict[CodeType, str | None] = {}  # code object → its annotator name, or None: one lookup per frame
_OURS: dict[CodeType, bool] = {}  # code object → whether it is pt2e-lens's recorder


def _name_of(code: CodeType) -> str | None:
    name = code.co_name
    if (
        "annotate" in name
        and name not in _HELPERS
        and not name.endswith("_helper")
        and os.path.dirname(code.co_filename) != _HERE
        and _COMPOSABLE not in code.co_filename
    ):
        return getattr(code, "co_qualname", name)
    return None


def annotator_of(frame: FrameType | None) -> str | None:
    """The annotating function that caused a meta access by `frame`, or None when pt2e-lens itself reads."""
    if frame is None:
        return None
    ours = _OURS.get(frame.f_code)
    if ours is None:
        ours = _OURS[frame.f_code] = os.path.dirname(frame.f_code.co_filename) == _HERE
    if ours:
        return None
    while frame is not None:
        code = frame.f_code
        try:
            name = _NAMES[code]
        except KeyError:
            name = _NAMES[code] = _name_of(code)
        if name is not None:
            return name
        frame = frame.f_back
    return None


class LoggedMeta(dict):
    """Mixin for the watched node meta (prepare/annotate.py): notes reads of LOOK_KEYS and writes of the
    annotation to `self.recorder.log` for `self.name`."""

    name: str
    recorder: Any

    def get(self, key, default=None):
        if key in LOOK_KEYS:
            self.recorder.log.note(self.name, "looked")
        return super().get(key, default)

    def __getitem__(self, key):
        if key in LOOK_KEYS:
            self.recorder.log.note(self.name, "looked")
        return super().__getitem__(key)

    def __contains__(self, key):
        if key in LOOK_KEYS:
            self.recorder.log.note(self.name, "looked")
        return super().__contains__(key)

    def __setitem__(self, key, value):
        if key == LOOK_KEYS[0]:
            self.recorder.log.note(self.name, "wrote")
        super().__setitem__(key, value)


class AnnotatorLog:
    """node → {"wrote": [(quantizer, annotator)], "looked": [(quantizer, annotator)]}, and the quantizers that ran."""

    def __init__(self) -> None:
        self.nodes: dict[str, dict[str, list[tuple[str, str]]]] = {}
        self.ran: list[str] = []
        # the frame that read last and its annotator: a matcher reads every node from one loop, one frame,
        # whose callers do not change while it runs, so the stack walk is done once per loop, not per node
        self._frame: FrameType | None = None
        self._fn: str | None = None

    def note(self, node: str, what: str) -> None:
        who = ANNOTATING.get()
        if who is None:
            return
        frame = sys._getframe(2)  # the reader of the meta: note ← LoggedMeta.get/… ← it
        if frame is self._frame:
            fn = self._fn
        else:
            self._frame, self._fn = frame, None  # (no stale name if the walk below raises)
            fn = self._fn = annotator_of(frame)
        if fn is None:
            return
        entry = self.nodes.setdefault(node, {"wrote": [], "looked": []})[what]
        if (who, fn) not in entry:
            entry.append((who, fn))

    def forget_frame(self) -> None:
        """Let go of the last reader's frame (it keeps that function's locals alive) once annotate is done."""
        self._frame = self._fn = None

    def as_record(self) -> dict:
        """Plain data for the CaptureRecord: {"ran": [...], "nodes": {node: {"wrote": [[q, fn]], "looked": …}}}."""
        return {
            "ran": list(self.ran),
            "nodes": {n: {k: [list(p) for p in v] for k, v in e.items()} for n, e in self.nodes.items()},
        }
