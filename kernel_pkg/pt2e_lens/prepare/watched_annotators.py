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
# where torch.fx's matchers read which module or function a node came from (only their reads are noted)
SOURCE_KEYS = ("source_fn_stack", "torch_fn")
# what every pass reads of every node (its value, where it came from): a read of these decides nothing;
# any other key (a quantizer's own mark, ExecuTorch's `Q_PATTERN_MATCHED_KEY`) is a look like LOOK_KEYS
_DESCRIPTIVE = frozenset({"val", "tensor_meta", "example_value", "stack_trace", "from_node", "seq_nr", "custom"})
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
        "_annotate_nodes_not_quantize",  # X86's writer of a None config: the annotator is its caller
    }
)
_HERE = os.path.dirname(os.path.abspath(__file__))  # our recorder's own reads are no annotator's
_COMPOSABLE = "composable_quantizer"


_NAMES: dict[CodeType, str | None] = {}  # code object → its annotator name, or None: one lookup per frame
_OURS: dict[CodeType, bool] = {}  # code object → whether it is pt2e-lens's recorder
# torch.fx's matchers (get_source_partitions, SubgraphMatcher, …) read every node's meta to find candidates:
# such a read is a search, not a decision about that node
_MATCHERS = os.sep + os.path.join("torch", "fx") + os.sep
_MISSING = object()


def _name_of(code: CodeType) -> str | None:
    name = code.co_name
    if (
        "annotat" in name  # `_annotate_linear`, `annotate`, and XNNPACK's final pass `propagate_annotation`
        and name not in _HELPERS
        and not name.endswith("_helper")
        and os.path.dirname(code.co_filename) != _HERE
        and _COMPOSABLE not in code.co_filename
    ):
        qualname = getattr(code, "co_qualname", name)
        # a function defined inside an annotator (Cadence's `annotate_inputs`) is part of it: name the outer one
        return None if "<locals>" in qualname else qualname
    return None


def annotator_frame(frame: FrameType | None) -> tuple[str | None, FrameType | None]:
    """The annotating function (name and frame) that caused a meta access by `frame`, or (None, None) when
    pt2e-lens itself reads."""
    if frame is None:
        return None, None
    ours = _OURS.get(frame.f_code)
    if ours is None:
        ours = _OURS[frame.f_code] = os.path.dirname(frame.f_code.co_filename) == _HERE
    if ours:
        return None, None
    while frame is not None:
        code = frame.f_code
        try:
            name = _NAMES[code]
        except KeyError:
            name = _NAMES[code] = _name_of(code)
        if name is not None:
            return name, frame
        frame = frame.f_back
    return None, None


def annotator_of(frame: FrameType | None) -> str | None:
    """The annotating function that caused a meta access by `frame`, or None when pt2e-lens itself reads."""
    return annotator_frame(frame)[0]


def _held_ids(frame: FrameType) -> set[int]:
    """The nodes an annotator's frame has in hand: its locals, the items of a list/tuple/set local (a pattern's
    nodes), and a partition's `nodes`. A scan over the graph holds another node, or none."""
    ids: set[int] = set()
    for v in frame.f_locals.values():
        ids.add(id(v))
        if isinstance(v, (list, tuple, set, frozenset)) and len(v) < 64:
            for x in v:
                ids.add(id(x))
                inner = getattr(x, "nodes", None)
                if isinstance(inner, list) and len(inner) < 64:
                    ids.update(map(id, inner))
        else:
            inner = getattr(v, "nodes", None)
            if isinstance(inner, list) and len(inner) < 64:
                ids.update(map(id, inner))
    return ids


def _held(reader: FrameType, top: FrameType, node: Any, holds) -> bool:
    """Whether the annotator, or a function it called on the way to this read, has `node` in hand beside the
    one reading it (ExecuTorch's `_validate_match(match)`), or the annotator itself holds it."""
    if reader is not top:
        f = reader.f_back
        while f is not None and f is not top:
            if holds(f, node, reader):
                return True
            f = f.f_back
    return holds(top, node, reader)


def _filter_between(reader: FrameType, top: FrameType) -> FrameType | None:
    """The outermost frame under the annotator whose function is a filter (`filter_fn`, XNNPACK's
    `not_module_type_or_name_filter`, X86's `_global_config_filter`), or None."""
    found: FrameType | None = None
    f: FrameType | None = reader
    while f is not None and f is not top:
        if "filter" in f.f_code.co_name:
            found = f
        f = f.f_back
    return found


def _config_none(frame: FrameType | None) -> bool:
    """Whether an annotator on the stack up to the quantizer's `annotate` runs with `quantization_config`
    None: the user's None config (X86's `set_module_name_qconfig(name, None)` → `_annotate_nodes_not_quantize`)."""
    while frame is not None and frame.f_code.co_name != "annotate":  # (annotate's own loop variable may be
        if frame.f_locals.get("quantization_config", _MISSING) is None:  # left None by an earlier pass)
            return True
        frame = frame.f_back
    return False


class LoggedMeta(dict):
    """Mixin for the watched node meta (prepare/annotate.py): notes reads of LOOK_KEYS and writes of the
    annotation to `self.recorder.log` for `self.name` (`self.node`: the Node, to tell whether the annotator
    that read holds it)."""

    name: str
    node: Any = None
    recorder: Any

    def get(self, key, default=None):
        if key not in _DESCRIPTIVE:
            log = self.recorder.log
            # a matcher's loop (get_source_partitions reads `.get` of every node) reading a node it read before:
            # nothing to note, known without a call (AnnotatorLog.note's first check, inlined)
            if log._matcher is None or self.name not in log._searched or sys._getframe(1) is not log._frame:
                log.note(self, "sourced" if key in SOURCE_KEYS else "looked")
        return dict.get(self, key, default)  # (no super() lookup: ~15k-50k reads per annotate)

    def __getitem__(self, key):
        if key not in _DESCRIPTIVE:
            self.recorder.log.note(self, "sourced" if key in SOURCE_KEYS else "looked")
        return super().__getitem__(key)

    def __contains__(self, key):
        if key not in _DESCRIPTIVE:
            self.recorder.log.note(self, "sourced" if key in SOURCE_KEYS else "looked")
        return super().__contains__(key)

    def __setitem__(self, key, value):
        if key == LOOK_KEYS[0]:
            self.recorder.log.note(self, "wrote", value)
        super().__setitem__(key, value)


def _spec_less(value: Any) -> bool:
    return getattr(value, "output_qspec", 0) is None and not any(
        s is not None for s in (getattr(value, "input_qspec_map", None) or {}).values()
    )


class AnnotatorLog:
    """node → {"wrote": [(quantizer, annotator)], "looked": [...], "kept": [...], "filtered": [(q, fn, filter)],
    "searched": [(q, fn, matcher)]}, and the quantizers that ran.

    - wrote: the annotator wrote the node's annotation; kept: it wrote one without specs while its
      `quantization_config` was None (the user's None config: the node stays fp32 on purpose);
    - looked: the annotator read the node's annotation or module stack while holding the node (it decided
      about this node: checked whether it is taken, or asked a filter); input_looked (q, fn, input): it read
      that input's meta while holding this node (the input's own line does not count it as a look);
    - filtered: a filter the annotator asked about this node answered no (evaluated once more to know);
    - searched: only a torch.fx matcher (get_source_partitions) read it while the annotator searched for its
      pattern — the node was not among what it looked for.
    """

    def __init__(self) -> None:
        self.nodes: dict[str, dict[str, list[tuple[str, ...]]]] = {}
        self.ran: list[str] = []
        self.top: str | None = None  # the user's quantizer (a composite's own name)
        # the frame that read last and what it resolved to: a matcher reads every node from one loop, one
        # frame, whose callers do not change while it runs, so the stack walk is done once per loop
        self._frame: FrameType | None = None
        self._fn: str | None = None
        self._ann: FrameType | None = None
        self._matcher: str | None = None
        # the nodes the last reader, a matcher, has been noted as reading (its entry's part of `_seen`): a matcher
        # reads every node of the graph once per call, so most of its reads stop at this one lookup
        self._searched: set[str] = set()
        self._asking = False  # evaluating a filter again: its own reads are not the quantizer's
        self._asked: tuple[Any, bool] | None = None  # (filter frame, its answer): one evaluation per call
        self._ids: dict[tuple, set[int]] = {}  # (frame, instruction, reader) → ids of what it holds
        self._seen: set[tuple] = set()  # (node, what, entry) already in `nodes`
        self._searched_by: dict[tuple, set[str]] = {}  # (quantizer, annotator, matcher) → nodes it searched

    def note(self, meta: LoggedMeta, what: str, value: Any = None) -> None:
        who = ANNOTATING.get()
        if who is None or self._asking:
            return
        frame = sys._getframe(2)  # the reader of the meta: note ← LoggedMeta.get/… ← it
        if frame is not self._frame:
            self._frame, self._fn = frame, None  # (no stale name if the walk below raises)
            self._fn, self._ann = annotator_frame(frame)
            self._matcher = frame.f_code.co_name if _MATCHERS in frame.f_code.co_filename else None
            self._searched = self._searched_by.setdefault((who, self._fn, self._matcher), set())
        elif self._matcher is not None and what != "wrote" and meta.name in self._searched:
            return  # (most reads: a matcher reading the same node again)
        fn, ann = self._fn, self._ann
        if fn is None or ann is None:
            return
        if what == "wrote":
            self._add(meta.name, "wrote", (who, fn))
            if _spec_less(value) and _config_none(frame):
                self._add(meta.name, "kept", (who, fn))
            return
        if self._matcher is not None:  # torch.fx searching for the annotator's pattern read it
            self._searched.add(meta.name)
            self._add(meta.name, "searched", (who, fn, self._matcher))
            return
        if what == "sourced" or meta.node is None or not _held(frame, ann, meta.node, self._holds):
            return  # a read of a node the annotator is not deciding about (a scan over the graph)
        users = [u for u in meta.node.users if self._holds(ann, u, frame)]
        if users:  # read as the input of a node it decides about (XNNPACK's propagate_annotation): not a look
            for u in users:  # at this node, a look at that user's input
                self._add(u.name, "input_looked", (who, fn, meta.name))
        else:
            self._add(meta.name, "looked", (who, fn))
        flt = _filter_between(frame, ann)
        if flt is not None and not self._answer(flt):
            self._add(meta.name, "filtered", (who, fn, flt.f_code.co_name))

    def _holds(self, frame: FrameType, node: Any, reader: FrameType) -> bool:
        """_held_ids of a frame, kept while it waits at the same instruction on the same call (a helper reading
        a pattern's nodes one by one: the annotator's locals do not change meanwhile). A frame that reads
        itself is asked afresh: its loop comes back to the same instruction with other locals."""
        if frame is reader:
            return id(node) in _held_ids(frame)
        key = (frame, frame.f_lasti, reader)  # (the reader is kept alive by the key: its id is not reused)
        ids = self._ids.get(key)
        if ids is None:
            if len(self._ids) > 8:
                self._ids.clear()
            ids = self._ids[key] = _held_ids(frame)
        return id(node) in ids

    def _answer(self, flt: FrameType) -> bool:
        """What the filter running in `flt` answers: called again with its own argument (filters read node
        meta and keep no state; a filter that cannot be called again counts as yes)."""
        if self._asked is not None and self._asked[0] is flt:
            return self._asked[1]
        answer = True
        fn = next(
            (
                v
                for v in (flt.f_back.f_locals.values() if flt.f_back else ())
                if getattr(v, "__code__", None) is flt.f_code
            ),
            None,
        )
        if fn is not None and flt.f_code.co_argcount >= 1:
            arg = flt.f_locals.get(flt.f_code.co_varnames[0], _MISSING)
            if arg is not _MISSING:
                self._asking = True
                try:
                    answer = bool(fn(arg))
                except Exception:
                    answer = True
                finally:
                    self._asking = False
        self._asked = (flt, answer)
        return answer

    def _add(self, node: str, what: str, entry: tuple) -> None:
        key = (node, what, entry)
        if key in self._seen:  # (get_source_partitions reads every node's meta once per call: ~15k reads)
            return
        self._seen.add(key)
        log = self.nodes.setdefault(node, {"wrote": [], "looked": []})
        log.setdefault(what, []).append(entry)

    def forget_frame(self) -> None:
        """Let go of the last reader's frames (they keep locals alive) once annotate is done."""
        self._frame = self._fn = self._ann = self._matcher = None
        self._asked = None
        self._ids = {}

    def as_record(self) -> dict:
        """Plain data for the CaptureRecord: {"ran": [...], "top": q, "nodes": {node: {"wrote": [[q, fn]], …}}}."""
        return {
            "ran": list(self.ran),
            "top": self.top,
            "nodes": {n: {k: [list(p) for p in v] for k, v in e.items()} for n, e in self.nodes.items()},
        }
