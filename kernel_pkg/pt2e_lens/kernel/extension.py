"""`%load_ext pt2e_lens`: the `%pt2e` magics, a cheap post_run_cell tracker and the `pt2e-lens` comm target."""

from __future__ import annotations

import sys

from .. import i18n
from .._ipython import install_short_errors
from ..errors import Pt2eLensError, first_line
from .comm import TARGET, Backend
from .tracker import Tracker

_STATE: dict = {}  # shell → (tracker, backend, callback): one set per IPython shell


def load_ipython_extension(ip) -> None:
    from comm import get_comm_manager

    from .magics import Pt2eMagics

    install_short_errors(Pt2eLensError)
    if ip in _STATE:
        return
    tracker = Tracker(ip.user_ns, ip.user_ns_hidden)
    tracker.poll()
    backend = Backend(tracker)
    failed: list = []

    def post_run_cell(result) -> None:
        try:
            if tracker.poll(getattr(result, "result", None)):
                backend.notify()
        except Exception as e:  # never let the panel's bookkeeping break the user's cells
            if not failed:
                failed.append(e)
                error = f"{type(e).__name__}: {first_line(e)}"
                print(i18n.t("course.comm.follow_failed", error=error), file=sys.stderr)

    ip.events.register("post_run_cell", post_run_cell)
    get_comm_manager().register_target(TARGET, backend.open)
    ip.register_magics(Pt2eMagics(ip, tracker))
    _STATE[ip] = (tracker, backend, post_run_cell)


def unload_ipython_extension(ip) -> None:
    from comm import get_comm_manager

    state = _STATE.pop(ip, None)
    if state is None:
        return
    _tracker, backend, callback = state
    ip.events.unregister("post_run_cell", callback)
    manager = get_comm_manager()
    manager.unregister_target(TARGET, backend.open)
    for client in list(backend.clients.values()):
        client.comm.close()
