"""Server-Sent Events: one stream per page, carrying the newest view on every change.

A stream subscribes a :class:`~companion.table.fanout.Mailbox` and writes whatever
view is in it: a slow phone skips views instead of queueing them. The first
message is the current view (the session puts it in the mailbox on subscribing),
so a page that reconnects has missed nothing. Between views a comment line
keeps proxies and phones from dropping the connection. A client that has gone
is noticed by waitress at once and asked about twice a second, so its thread is
free within half a second (a vanished phone that never closed its connection is
caught by the kernel's TCP_USER_TIMEOUT, web/serve.py). How many streams may be
open, and from whom, is decided before answering (web/streams.py): past the
limits a table stream gets 503 ``busy``, a seat's newest stream ends its oldest.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from flask import Blueprint, Response, request, session

from companion.table.fanout import Mailbox, View

from .context import WebContext, context
from .guard import client_address
from .language import page_locale
from .player import require_seat

blueprint = Blueprint("events", __name__)
RETRY_MS = 2000  # how soon EventSource reconnects after losing the stream


@blueprint.get("/events/table")
def table_stream() -> Response:
    return _open(context(), None, lambda: True)


@blueprint.get("/events/seat")
def seat_stream() -> Response:
    seat, web = require_seat(), context()
    key = session.get("seat_key")
    # A revoked seat's stream ends at its next message: the phone is out at once, not at reload.
    return _open(web, seat, lambda: web.pairing.valid(seat, key))


def _open(web: WebContext, seat: str | None, allowed: Callable[[], bool]) -> Response:
    """Admit the stream before answering, so a refusal is a plain 503 (raised here), not a broken stream."""
    box = web.open_stream(seat, client_address())
    locale = page_locale().tag  # the stream's language is fixed when it opens (the page reloads to change it)
    # waitress (with channel_request_lookahead, web/serve.py) notices at once that a client has gone;
    # asking it is what frees the stream's thread without waiting for the next write to fail.
    gone: Callable[[], bool] = request.environ.get("waitress.client_disconnected") or _never
    response = Response(_stream(web, box, allowed, gone, locale), mimetype="text/event-stream")
    # Unsubscribe when the server closes the answer, even if it never started iterating it.
    response.call_on_close(lambda: web.close_stream(box))
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # a reverse proxy must not hold messages back
    return response


def _never() -> bool:
    return False


def _stream(web: WebContext, box: Mailbox, allowed: Callable[[], bool], gone: Callable[[], bool],
            locale: str) -> Iterator[str]:
    yield f"retry: {RETRY_MS}\n\n"
    last: View | None = None  # the view this stream sent last: the base of its next delta
    quiet_until = time.monotonic() + web.keepalive
    while not gone():
        view = box.get(timeout=max(0.0, min(web.streams.limits.poll, quiet_until - time.monotonic())))
        if not allowed():
            yield "event: revoked\ndata: {}\n\n"
            return
        if view is not None:
            yield web.view_message(last, view, locale)  # the whole view first, then what changed (web/deltas.py)
            last = view
        elif box.closed:
            return
        elif time.monotonic() < quiet_until:
            continue
        else:
            yield ": keepalive\n\n"
        quiet_until = time.monotonic() + web.keepalive
