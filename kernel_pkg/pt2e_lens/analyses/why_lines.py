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

# an annotator that read at least this share of the graph's ops scans every node: its read says nothing
_SCAN_SHARE = 0.9


def _fn(name: str) -> str:
    return name.rpartition(".")[2] or name


def _scanners(snap: Snapshot, nodes: dict) -> set[tuple[str, str]]:
    ops = [n["id"] for n in snap.nodes if n["op"] == "call_function"]
    if len(ops) < 4:
        return set()
    seen: dict[tuple[str, str], int] = {}
    for entry in nodes.values():
        for q, fn in entry["looked"]:
            seen[(q, fn)] = seen.get((q, fn), 0) + 1
    return {k for k, v in seen.items() if v >= _SCAN_SHARE * len(ops)}


def _by_quantizer(pairs) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for q, fn in pairs:
        out.setdefault(q, [])
        if _fn(fn) not in out[q]:
            out[q].append(_fn(fn))
    return out


def _annotated_lines(ann: dict, log: dict) -> list[str]:
    who = ann["quantizer"] or i18n.t("why.unknown_quantizer")
    fns = [_fn(fn) for q, fn in log.get("wrote", []) if q == ann["quantizer"]]
    via = i18n.t("why.via", fns=", ".join(dict.fromkeys(fns))) if fns else ""
    has_specs = ann["output"] is not None or any(i["spec"] for i in ann["inputs"])
    lines = [i18n.t("why.annotated" if has_specs else "why.claimed", quantizer=who, via=via)]
    if ann.get("skipped_by"):
        lines.append(i18n.t("why.skipped_by", quantizers=", ".join(ann["skipped_by"])))
    return lines


def _unannotated_lines(node: dict, log: dict, ran: list[str], scanners: set, island: bool) -> list[str]:
    return _unannotated_reason(node, log, ran, scanners) + ([i18n.t("why.island")] if island else [])


def _unannotated_reason(node: dict, log: dict, ran: list[str], scanners: set) -> list[str]:
    if not ran:
        return [i18n.t("why.not_watched")]
    lookers = _by_quantizer(p for p in map(tuple, log.get("looked", [])) if p not in scanners)
    if lookers:
        return [i18n.t("why.looked", quantizer=q, fns=", ".join(fns)) for q, fns in lookers.items()]
    return [i18n.t("why.no_match", op=node["target"], quantizers=", ".join(ran))]


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
    ran: list[str] = list(record.get("ran", []))
    logs: dict = record.get("nodes", {})
    scanners = _scanners(snap, logs)
    annotation_of = {a["node"]: a for a in snap.annotations}
    done = claimed(snap)
    observer_of = {n: o for o in snap.observers for n in o["nodes"]}
    qdq_of = {q["node"]: q for q in snap.qdq}
    in_island = {m for island in islands(snap) for m in island.ops}
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
            key: tuple = ("annotated", _annotation_key(ann), _pairs(log.get("wrote")))
            lines = _shared(same, key, _annotated_lines, ann, log)
        elif n["role"] == "compute" and n["op"] == "call_function":
            log, island = logs.get(nid, {}), nid in in_island
            key = ("unannotated", n["target"], _pairs(log.get("looked")), island)
            lines = _shared(same, key, _unannotated_lines, n, log, ran, scanners, island)
        out[nid] = lines
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
    has_specs = ann["output"] is not None or any(i["spec"] for i in ann["inputs"])
    return ann["quantizer"], has_specs, tuple(ann.get("skipped_by") or ())


def with_why(snap: Snapshot, annotators: dict | None = None) -> Snapshot:
    """Fill every node's optional `why` in a quantizing stage (a float stage has nothing to explain)."""
    if snap.stage not in QUANTIZED_STAGES and not (snap.stage is None and (snap.annotations or snap.observers)):
        return snap
    lines = why_lines(snap, annotators)
    for n in snap.nodes:
        n["why"] = lines.get(n["id"], [])
    return snap
