"""Server-Sent Events: one stream per page, carrying the newest view on every change.

A stream subscribes a :class:`~companion.table.fanout.Mailbox` and writes whatever
view is in it: a slow phone skips views instead of queueing them. The first
message is the current view (the session puts it in the mailbox on subscribing),
so a page that reconnects has missed nothing. Between views a comment line
keeps proxies and phones from dropping the connection; writing it (or a view)
to a client that has gone raises in the server, which closes the generator and
unsubscribes the mailbox: dead clients are cleaned up within one keepalive.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from flask import Blueprint, Response, session

from .context import WebContext, context
from .player import require_seat

blueprint = Blueprint("events", __name__)
RETRY_MS = 2000  # how soon EventSource reconnects after losing the stream


@blueprint.get("/events/table")
def table_stream() -> Response:
    return _response(_stream(context(), None, lambda: True))


@blueprint.get("/events/seat")
def seat_stream() -> Response:
    seat, web = require_seat(), context()
    key = session.get("seat_key")
    # A revoked seat's stream ends at its next message: the phone is out at once, not at reload.
    return _response(_stream(web, seat, lambda: web.pairing.valid(seat, key)))


def _response(body: Iterator[str]) -> Response:
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # a reverse proxy must not hold messages back
    return response


def _stream(web: WebContext, seat: str | None, allowed: Callable[[], bool]) -> Iterator[str]:
    box = web.open_stream(seat)
    try:
        yield f"retry: {RETRY_MS}\n\n"
        while True:
            view = box.get(timeout=web.keepalive)
            if not allowed():
                yield "event: revoked\ndata: {}\n\n"
                return
            if view is None:
                if box.closed:
                    return
                yield ": keepalive\n\n"
                continue
            yield f"event: view\ndata: {web.view_json(view)}\n\n"
    finally:
        web.close_stream(box)
