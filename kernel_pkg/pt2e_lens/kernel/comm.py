"""The `pt2e-lens` comm: an allow-listed request/reply protocol (docs/protocol.md).

Every request is a JSON object `{type, id?, ...fields}`. Only the types in REQUESTS are served,
fields are type-checked, names are looked up in the tracker (never evaluated), and anything wrong
gets an error reply: a request can never take the kernel down.
"""

from __future__ import annotations

import json
import os
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import i18n, report
from .._version import __version__
from ..errors import Pt2eLensError, first_line
from ..schema import COMM_TARGET, PROTOCOL_SCHEMA, PROTOCOL_VERSION, REQUESTS, SCHEMA_VERSION
from ..schema.check import schema_error
from . import models, panel_views, parts
from .names import suggest
from .tracker import Tracker

PROTOCOL = PROTOCOL_VERSION
TARGET = COMM_TARGET
MAX_REQUEST_BYTES = 64 * 1024
MAX_REPLY_BYTES = 4 * 1024 * 1024
MIN_REPLY_BYTES = 16 * 1024
_ID_TYPES = (str, int)
CAP_ENV = "PT2E_LENS_PANEL_MAX_BYTES"  # a smaller reply cap for slow links (and for tests of large graphs)


class RequestError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass
class Client:
    comm: Any
    subscribed: bool = False
    max_bytes: int = MAX_REPLY_BYTES


def check_fields(kind: str, data: dict) -> dict:
    """`data` validated against the request's JSON Schema; a bad field raises one `bad_field` line."""
    definition = REQUESTS[kind]
    fields = [f for f in PROTOCOL_SCHEMA["$defs"][definition]["properties"] if f not in ("type", "id")]
    extra = sorted(set(data) - set(fields) - {"type", "id"})
    if extra:
        takes = ", ".join(fields) or i18n.t("course.comm.nothing")
        raise RequestError("bad_field", i18n.t("course.comm.no_field", kind=kind, field=repr(extra[0]), fields=takes))
    problem = schema_error(data, PROTOCOL_SCHEMA, definition, root=kind)
    if problem:
        raise RequestError("bad_field", problem)
    return data


def _cap_from_env() -> int:
    try:
        cap = int(os.environ.get(CAP_ENV, MAX_REPLY_BYTES))
    except ValueError:
        return MAX_REPLY_BYTES
    return max(MIN_REPLY_BYTES, min(MAX_REPLY_BYTES, cap))


class Backend:
    """Serves every open `pt2e-lens` comm of this kernel from one Tracker."""

    def __init__(self, tracker: Tracker):
        self.tracker = tracker
        self.clients: dict[str, Client] = {}
        self.handlers: dict[str, Callable[[Client, dict], Any]] = {
            "hello": self.hello,
            "list_models": lambda c, d: self.models(),
            "select_model": self.select_model,
            "get_stage": self.get_stage,
            "get_node": self.get_node,
            "get_diff": self.get_diff,
            "get_report": self.get_report,
            "subscribe": lambda c, d: self._subscribe(c, True),
            "unsubscribe": lambda c, d: self._subscribe(c, False),
            "workbench": self.workbench,
        }
        self._watched: weakref.WeakSet = weakref.WeakSet()  # workbench widgets whose changes go to the panels
        assert set(self.handlers) == set(REQUESTS)

    # -- comm plumbing
    def open(self, comm, open_msg=None) -> None:
        client = Client(comm, max_bytes=_cap_from_env())
        self.clients[comm.comm_id] = client
        comm.on_msg(lambda msg: self.receive(client, msg))
        comm.on_close(lambda msg: self.clients.pop(comm.comm_id, None))
        comm.send({"protocol": PROTOCOL, "type": "event", "event": "hello", "result": self.hello(client, {})})

    def receive(self, client: Client, msg: dict) -> None:
        data = msg.get("content", {}).get("data")
        client.comm.send(self.reply(client, data))

    def reply(self, client: Client, data: Any) -> dict:
        """The reply to one request; never raises."""
        rid = data.get("id") if isinstance(data, dict) else None
        rid = rid if isinstance(rid, _ID_TYPES) and not isinstance(rid, bool) else None
        kind = data.get("type") if isinstance(data, dict) else None
        out = {"protocol": PROTOCOL, "type": "reply", "id": rid, "request": kind if isinstance(kind, str) else None}
        try:
            result = self._serve(client, data)
            size = panel_views.encoded_size(result)
            if size > client.max_bytes:
                raise RequestError("too_large", i18n.t("course.comm.too_large", size=size, cap=client.max_bytes))
            return {**out, "ok": True, "result": result}
        except RequestError as e:
            return {**out, "ok": False, "error": {"code": e.code, "message": str(e)}}
        except Pt2eLensError as e:
            return {**out, "ok": False, "error": {"code": "model_error", "message": str(e)}}
        except Exception as e:  # a bug of ours must not take the kernel (or the panel) down
            return {
                **out,
                "ok": False,
                "error": {"code": "internal", "message": f"{type(e).__name__}: {first_line(e)}"},
            }

    def _serve(self, client: Client, data: Any) -> Any:
        if not isinstance(data, dict):
            raise RequestError("malformed", i18n.t("course.comm.not_an_object", got=type(data).__name__))
        if len(json.dumps(data, default=str)) > MAX_REQUEST_BYTES:
            raise RequestError("malformed", i18n.t("course.comm.too_big", cap=MAX_REQUEST_BYTES))
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in self.handlers:
            hint = suggest(kind, self.handlers) if isinstance(kind, str) else ""
            known = ", ".join(self.handlers)
            raise RequestError(
                "unknown_request", i18n.t("course.comm.unknown_request", kind=repr(kind), hint=hint, known=known)
            )
        return self.handlers[kind](client, check_fields(kind, data))

    # -- after every cell
    def notify(self, skip: Client | None = None) -> None:
        """Tell subscribed panels about the models (after a cell that changed them, or a selection)."""
        listeners = [c for c in self.clients.values() if c.subscribed and c is not skip]
        if not listeners:
            return
        event = {"protocol": PROTOCOL, "type": "event", "event": "models", "result": self.models()}
        for c in listeners:
            c.comm.send(event)

    # -- requests
    def hello(self, client: Client, data: dict) -> dict:
        if data.get("protocol", PROTOCOL) != PROTOCOL:
            raise RequestError(
                "protocol_mismatch",
                i18n.t("course.comm.protocol", kernel=PROTOCOL, panel=data["protocol"]),
            )
        if "max_bytes" in data:
            client.max_bytes = max(MIN_REPLY_BYTES, min(MAX_REPLY_BYTES, data["max_bytes"]))
        return {
            "protocol": PROTOCOL,
            "pt2e_lens": __version__,
            "schema_version": SCHEMA_VERSION,
            "requests": sorted(self.handlers),
            "max_bytes": client.max_bytes,
        }

    def models(self) -> dict:
        t = self.tracker
        rows = [
            {**t.cached(e.name, "info", lambda obj, e=e: models.info(e.name, e.kind, obj)), "revision": e.changed_at}
            for e in t.entries.values()
        ]
        return {"current": t.current, "pinned": t.pinned, "models": rows}

    def select_model(self, client: Client, data: dict) -> dict:
        name = data["name"]
        if name is not None:
            self._entry(name)
        self.tracker.pin(name)
        self.notify(skip=client)
        return self.models()

    def _subscribe(self, client: Client, on: bool) -> dict:
        client.subscribed = on
        return self.models()

    def _entry(self, name: str | None):
        name = name if name is not None else self.tracker.current
        if name is None:
            raise RequestError("no_model", i18n.t("course.comm.no_model_yet"))
        if name not in self.tracker.entries or self.tracker.entries[name].get() is None:
            raise RequestError(
                "no_model", i18n.t("course.comm.no_model", name=repr(name), hint=suggest(name, self.tracker.entries))
            )
        return self.tracker.entries[name]

    def _snapshot(self, data: dict):
        entry = self._entry(data.get("name"))
        names = self.tracker.cached(entry.name, "info", lambda obj: models.info(entry.name, entry.kind, obj))["stages"]
        stage = data.get("stage") or (names[-1] if names else "")
        if stage not in names:  # a workbench not yet exported has none
            raise RequestError(
                "no_stage",
                i18n.t("course.comm.no_stage", name=entry.name, stage=repr(stage), stages=", ".join(names) or "—"),
            )
        snap = self.tracker.cached(entry.name, ("snapshot", stage), lambda obj: models.snapshot_of(obj, stage))
        return entry, stage, snap

    def get_stage(self, client: Client, data: dict) -> dict:
        entry, stage, snap = self._snapshot(data)
        group = data.get("group", "")
        title = f"{entry.name} · {stage}" + (f" · {group}" if group else "")
        try:
            out = parts.fitted(snap, data.get("nodes"), group, client.max_bytes - 1024, title=title)
        except ValueError as e:
            raise RequestError("bad_field", f"get_stage.{e}") from None
        return {"name": entry.name, "stage": stage, **out}

    def get_node(self, client: Client, data: dict) -> dict:
        entry, stage, snap = self._snapshot(data)
        node = data["node"]
        if node not in snap.node:
            where, hint = f"{entry.name} · {stage}", suggest(node, snap.node)
            raise RequestError("no_node", i18n.t("course.comm.no_node", node=repr(node), where=where, hint=hint))
        ann = next((a for a in snap.annotations if a["node"] == node), None)
        obs = next((o for o in snap.observers if node in o["nodes"] or o["observes"] == node), None)
        spec_ids = {i["spec"] for i in ann["inputs"]} | {ann["output"]} if ann else set()
        return {
            "name": entry.name,
            "stage": stage,
            "node": snap.node[node],
            "inputs": snap.inputs[node],
            "users": snap.users[node],
            "annotation": ann,
            "observer": obs,
            "qdq": next((q for q in snap.qdq if q["node"] == node), None),
            "specs": [s for s in snap.specs if s["id"] in spec_ids],
        }

    def get_diff(self, client: Client, data: dict) -> dict:
        entry, a_stage, a = self._snapshot({"name": data.get("name"), "stage": data["from"]})
        _, b_stage, b = self._snapshot({"name": entry.name, "stage": data["to"]})
        title = f"{entry.name}: {a_stage} → {b_stage}"
        return {
            "name": entry.name,
            "from": a_stage,
            "to": b_stage,
            "view": panel_views.diff_view(a, b, a_stage, b_stage, title, client.max_bytes - 1024),
        }

    def get_report(self, client: Client, data: dict) -> dict:
        """The self-contained HTML report of a model, for the panel to save (the kernel may be remote)."""
        entry = self._entry(data.get("name"))
        page = report.html_page(models.model_of(entry.get()), title=f"pt2e-lens report: {entry.name}")
        return {"name": entry.name, "filename": f"{entry.name}-pt2e-lens.html", "html": page}

    # -- pl.workbench: the widget's controls in the panel, driving the same widget (so both stay in step)
    def workbench(self, client: Client, data: dict) -> dict:
        entry = self._entry(data.get("name"))
        if entry.kind != "Workbench":
            raise RequestError("no_model", i18n.t("course.comm.not_workbench", name=entry.name, kind=entry.kind))
        widget = entry.get().widget
        if widget not in self._watched:
            self._watched.add(widget)
            ref = weakref.ref(widget)
            widget.observe(lambda _change: self._bench_changed_safely(ref()), names="state_json")
        if "action" in data:
            content = {"action": data["action"]}
            key = _ACTION_FIELD.get(data["action"])
            if key and "value" in data:
                content[key] = data["value"]
            widget._on_msg(widget, content, None)  # as the widget's button: long steps go to its worker thread
        return {"name": entry.name, "state": json.loads(widget.state_json)}

    def _bench_changed_safely(self, widget: Any) -> None:
        try:
            self._bench_changed(widget)
        except Exception:  # a panel's copy must never break the widget's own update (it runs inside it)
            pass

    def _bench_changed(self, widget: Any) -> None:
        """A watched workbench changed (maybe in its worker thread): its state to the panels; a step that ended
        changed its Run, so the models too (no cell ran to tell them), with the workbench touched last."""
        bench = getattr(widget, "bench", None)
        # list(): one step in C, so a cell's scan in the main thread cannot change the dict under this loop
        name = next((e.name for e in list(self.tracker.entries.values()) if e.get() is bench), None)
        if bench is None or name is None:  # the widget went, or its workbench is no longer a name in the namespace
            return
        state = json.loads(widget.state_json)
        event = {"protocol": PROTOCOL, "type": "event", "event": "workbench", "result": {"name": name, "state": state}}
        for c in [c for c in self.clients.values() if c.subscribed]:
            c.comm.send(event)
        if bench.running is None and self.tracker.touch(name):
            self.notify()


# the one field of each widget action that takes the request's `value`
_ACTION_FIELD = {"use": "name", "keep_fp32": "id", "quantize": "label", "recipe": "target", "accept": "id"}
