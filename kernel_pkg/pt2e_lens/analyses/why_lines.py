""" "Why is this op fp32?" — one or more human lines per node: who annotated it (with which annotator), who
looked at it and left it, or that nothing matched its op; for an observer, which annotation requested it;
for a q/dq node, which observer convert turned into it. The snapshot's optional `Node.why`.

Reads the snapshot and what the recorder noted while the quantizer annotated (`CaptureRecord.annotators`,
prepare/watched_annotators.py): {"ran": [quantizer, …], "nodes": {node: {"wrote": [[q, fn]], "looked": [[q, fn]]}}}.
"""

from __future__ import annotations

from .. import i18n
from ..snapshot import Snapshot
from ..snapshot.keys import key_of
from .findings import QUANTIZED_STAGES
from .islands import claimed, islands
from .text import key_phrase, spec_text


def _fn(name: str) -> str:
    return name.rpartition(".")[2] or name


def _by_quantizer(pairs) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for q, fn in pairs:
        out.setdefault(q, [])
        if _fn(fn) not in out[q]:
            out[q].append(_fn(fn))
    return out


def _has_specs(ann: dict | None) -> bool:
    return ann is not None and (ann["output"] is not None or any(i["spec"] for i in ann["inputs"]))


def _annotated_lines(ann: dict, log: dict, near_specs: bool) -> list[str]:
    who = ann["quantizer"] or i18n.t("why.unknown_quantizer")
    fns = [_fn(fn) for q, fn in log.get("wrote", []) if q == ann["quantizer"]]
    via = i18n.t("why.via", fns=", ".join(dict.fromkeys(fns))) if fns else ""
    if _has_specs(ann):
        key = "why.annotated"
    elif any(q == ann["quantizer"] for q, _ in log.get("kept", [])):
        key = "why.kept_none"  # its annotator ran with the user's None config
    else:
        key = "why.claimed" if near_specs else "why.claimed_alone"
    lines = [i18n.t(key, quantizer=who, via=via)]
    if ann.get("skipped_by"):
        lines.append(i18n.t("why.skipped_by", quantizers=", ".join(ann["skipped_by"])))
    return lines


def _unannotated_lines(node: dict, log: dict, record: dict, elsewhere: dict, island: bool) -> list[str]:
    return _unannotated_reason(node, log, record, elsewhere) + ([i18n.t("why.island")] if island else [])


def _unannotated_reason(node: dict, log: dict, record: dict, elsewhere: dict) -> list[str]:
    """The one reason a node stayed unannotated, as specific as the record allows: a filter said no; an
    annotator checked it and its pattern did not hold; the quantizer handles the op elsewhere but its search
    did not find this one; or nothing in the quantizer handles the op."""
    ran = record.get("ran", [])
    if not ran:
        return [i18n.t("why.not_watched")]
    op = node["target"]
    filtered = [tuple(p) for p in log.get("filtered", [])]
    if filtered:
        by: dict[tuple[str, str], list[str]] = {}
        for q, fn, flt in filtered:
            by.setdefault((q, _fn(fn)), []).append(flt)
        return [
            i18n.t("why.filtered", quantizer=q, fns=fn, filters=", ".join(dict.fromkeys(f)))
            for (q, fn), f in by.items()
        ]
    lookers = _by_quantizer(map(tuple, log.get("looked", [])))
    if lookers:
        return [i18n.t("why.looked", quantizer=q, fns=", ".join(fns)) for q, fns in lookers.items()]
    inputs = [tuple(p) for p in log.get("input_looked", [])]
    if inputs:  # its annotator read its input for its pattern and stopped there
        q, fn, other = inputs[0]
        return [i18n.t("why.input_looked", quantizer=q, fns=_fn(fn), node=other)]
    done = elsewhere.get(op)
    if done:
        example, q, fn = done
        searched = [m for qq, ff, m in map(tuple, log.get("searched", [])) if qq == q and ff == fn]
        if searched:
            module = (node.get("module_stack") or [["", "?"]])[-1][1]
            return [i18n.t("why.not_found", quantizer=q, fns=_fn(fn), matcher=searched[0], op=op, module=module)]
        return [i18n.t("why.elsewhere", quantizer=q, fns=_fn(fn), op=op, example=example)]
    top = record.get("top") or ", ".join(ran)
    return [i18n.t("why.no_match", op=op, quantizers=top)]


def _words():
    """i18n.t that looks each key's text up once (the locale stays put while one snapshot gets its lines):
    an observer's or a q/dq node's line names that node, so these are made once per node, not shared."""
    texts: dict[str, str] = {}

    def t(key: str, /, **params: object) -> str:
        text = texts.get(key)
        if text is None:
            text = texts[key] = i18n.t(key)  # without params: the text as the catalogue has it
        return text.format(**params) if params else text

    return t


def _observer_lines(snap: Snapshot, obs: dict, annotation_of: dict, t) -> list[str]:
    lines = []
    for s in obs["serves"]:
        key = key_of(s["at"])
        requester = key[2] if key[0] == "edge" else key[1]
        ann = annotation_of.get(requester)
        who = (ann or {}).get("quantizer") or t("why.unknown_quantizer")
        spec = snap.spec.get(s["spec"]) if s["spec"] else None
        lines.append(
            t(
                f"why.observer.{s['via']}",
                at=key_phrase(key),
                node=requester,
                quantizer=who,
                spec=spec_text(spec),
            )
        )
    return lines


def why_lines(snap: Snapshot, annotators: dict | None = None) -> dict[str, list[str]]:
    """Node id → its lines, for every node of a quantizing stage (an empty list where there is nothing to say)."""
    record = annotators or {}
    logs: dict = record.get("nodes", {})
    annotation_of = {a["node"]: a for a in snap.annotations}
    done = claimed(snap)
    observer_of = {n: o for o in snap.observers for n in o["nodes"]}
    qdq_of = {q["node"]: q for q in snap.qdq}
    in_island = {m for island in islands(snap) for m in island.ops}
    elsewhere = _annotated_ops(snap, annotation_of, logs)
    # most nodes of a big graph say the same thing ("XNNPACKQuantizer: nothing matched aten.view"): each distinct
    # list is made once and shared by every node that says it (never mutated after: a new list per change)
    same: dict[tuple, list[str]] = {}
    out: dict[str, list[str]] = {}
    t = _words()
    for n in snap.nodes:
        nid, lines = n["id"], []
        if n["role"] == "observer" and nid in observer_of:
            lines = _observer_lines(snap, observer_of[nid], annotation_of, t)
        elif nid in qdq_of:
            q = qdq_of[nid]
            lines = [t(f"why.{q['kind']}", observer=q["from_observer"] or "?", tensor=q["tensor"] or "?")]
        elif nid in done:
            ann, log = annotation_of[nid], logs.get(nid, {})
            near = not _has_specs(ann) and any(
                _has_specs(annotation_of.get(m)) for m in (*snap.inputs.get(nid, ()), *snap.users.get(nid, ()))
            )
            key: tuple = ("annotated", _annotation_key(ann), _pairs(log.get("wrote")), _pairs(log.get("kept")), near)
            lines = _shared(same, key, _annotated_lines, ann, log, near)
        elif n["role"] == "compute" and n["op"] == "call_function":
            log, island = logs.get(nid, {}), nid in in_island
            key = (
                "unannotated",
                n["target"],
                *(_pairs(log.get(k)) for k in ("looked", "filtered", "searched", "input_looked")),
                tuple(map(tuple, n.get("module_stack") or ()))[-1:],
                island,
            )
            lines = _shared(same, key, _unannotated_lines, n, log, record, elsewhere, island)
        out[nid] = lines
    return out


def _annotated_ops(snap: Snapshot, annotation_of: dict, logs: dict) -> dict[str, tuple[str, str, str]]:
    """op → (a node of it, the quantizer, the annotator) for ops the quantizer annotated with specs somewhere:
    an unannotated node of such an op was not reached by that annotator, it is not an op nobody handles."""
    out: dict[str, tuple[str, str, str]] = {}
    for n in snap.nodes:
        ann = annotation_of.get(n["id"])
        if ann is None or n["op"] != "call_function" or n["target"] in out or not _has_specs(ann):
            continue
        wrote = [tuple(p) for p in logs.get(n["id"], {}).get("wrote", []) if p[0] == ann["quantizer"]]
        if wrote:
            out[n["target"]] = (n["id"], wrote[0][0], wrote[0][1])
    return out


def _shared(same: dict[tuple, list[str]], key: tuple, make, *args) -> list[str]:
    lines = same.get(key)
    if lines is None:
        lines = same[key] = make(*args)
    return lines


def _pairs(pairs) -> tuple:
    return tuple(map(tuple, pairs or ()))


def _annotation_key(ann: dict) -> tuple:
    """What of an annotation its why lines read (_annotated_lines), hashable."""
    return ann["quantizer"], _has_specs(ann), tuple(ann.get("skipped_by") or ())


def with_why(snap: Snapshot, annotators: dict | None = None) -> Snapshot:
    """Fill every node's optional `why` in a quantizing stage (a float stage has nothing to explain)."""
    if snap.stage not in QUANTIZED_STAGES and not (snap.stage is None and (snap.annotations or snap.observers)):
        return snap
    lines = why_lines(snap, annotators)
    for n in snap.nodes:
        n["why"] = lines.get(n["id"], [])
    return snap
