"""Serving the app with waitress on its own thread, and saying where it is.

>>> server = WebServer(lambda environ, start: [], "127.0.0.1", 0).start()
>>> server.port > 0
True
>>> server.close()
"""

from __future__ import annotations

import errno
import json
import logging
import resource
import socket
import threading
import time
from typing import Any, TextIO

import segno
from waitress import wasyncore  # type: ignore[import-untyped]
from waitress.channel import HTTPChannel  # type: ignore[import-untyped]
from waitress.server import TcpWSGIServer  # type: ignore[import-untyped]
from waitress.task import ErrorTask  # type: ignore[import-untyped]

from .guard import MAX_BODY
from .reach import mdns_name, phone_addresses

# Worker threads. Every open SSE stream holds one (web/streams.py bounds them: 12 table
# streams and three per seat, so 42 at a ten-seat table), and the rest answer requests.
THREADS = 56
# waitress keeps everything a response wrote in one in-memory buffer until it reaches this
# size (16 MiB by default), even once sent: an SSE stream lives for hours, so seven of them
# grew the process by 100 MiB in a soak. Past it, the buffer is replaced, and a client that
# has not read that much yet holds its stream's thread (its newest-wins mailbox skips views).
OUTBUF_BYTES = 512 * 1024
# A body is refused by waitress as it arrives, long before it would spill to a temporary file
# (past 512 KiB); 4x the app's own limit, so a declared body a little over 16 KiB still gets
# the app's 413. A chunked body has no declared length: only this limit stops it.
MAX_BODY_BYTES = 4 * MAX_BODY
MAX_HEADER_BYTES = 32 * 1024  # a half-sent head is held in memory: waitress allows 256 KiB
# Open connections: at most this many in all (fewer if the descriptor limit is low), and at
# most PER_ADDRESS from one address: a browser opens six to a server, a phone on the table's
# Wi-Fi cannot take the rest. Past it, a connection is accepted and closed at once.
CONNECTIONS = 512
PER_ADDRESS = 32
SPARE_DESCRIPTORS = 64  # kept for the store, the board's serial port, logs
# A connection must send a whole request (head and body) within this many seconds of starting
# it, or of opening: a slowloris client that dribbles a byte at a time is closed.
HEAD_DEADLINE = 10.0
IDLE_TIMEOUT = 60  # an idle keep-alive connection is closed after this many seconds
# Written data a phone has not acknowledged for this long (it left the Wi-Fi without closing
# its connection) makes the kernel drop the connection, and its stream's thread is freed.
UNACKED_MS = 30_000
log = logging.getLogger(__name__)


class WebServer:
    """waitress on ``host:port`` (port 0: any free port). ``start()``, then ``close()``.

    ``per_address`` and ``head_deadline`` (s) override PER_ADDRESS and HEAD_DEADLINE (tests).
    """

    def __init__(self, app: Any, host: str = "0.0.0.0", port: int = 8000, threads: int = THREADS,
                 per_address: int = PER_ADDRESS, head_deadline: float = HEAD_DEADLINE) -> None:
        self.app = app
        self.host = host
        self.requested_port = port
        self.threads = threads
        self.guard = _Guard(per_address, head_deadline)
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._sockets: dict[int, Any] = {}  # waitress's socket map: ours, so close() can close every channel

    def start(self) -> WebServer:
        # clear_untrusted_proxy_headers: no proxy sits in front; ident: no version banner.
        # channel_request_lookahead: keep reading a connection while its request runs, so a
        # stream's client that has gone is noticed at once (web/events.py asks). poll: select()
        # cannot watch descriptors past 1024, and would stop the server when it met one.
        self._server = _Server(self.app, self.guard, map=self._sockets, host=self.host, port=self.requested_port,
                               threads=self.threads, ident="clue-companion", clear_untrusted_proxy_headers=True,
                               outbuf_high_watermark=OUTBUF_BYTES, channel_request_lookahead=1,
                               max_request_body_size=MAX_BODY_BYTES, max_request_header_size=MAX_HEADER_BYTES,
                               connection_limit=connection_limit(), channel_timeout=IDLE_TIMEOUT,
                               cleanup_interval=1, asyncore_use_poll=True)
        self._thread = threading.Thread(target=self._serve, name="web-server", daemon=True)
        self._thread.start()
        return self

    def _serve(self) -> None:
        try:
            self._server.run()
        except OSError:  # closed under it while stopping
            pass

    @property
    def port(self) -> int:
        return int(self._server.effective_port) if self._server is not None else self.requested_port

    def close(self) -> None:
        streams = getattr(self.app, "extensions", {}).get("clue")
        if streams is not None:  # our app: end its SSE streams first, so no thread is left holding one
            streams.close_streams()
        if self._server is not None:
            # Let the worker threads finish first: closing the sockets under a running task
            # makes waitress log "Bad file descriptor" tracebacks.
            self._server.task_dispatcher.shutdown(cancel_pending=True, timeout=2)
            wasyncore.close_all(self._sockets)  # the listening socket, the trigger, every open channel
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=3)
            self._thread = None

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def connection_limit(wanted: int = CONNECTIONS) -> int:
    """``wanted``, or fewer if this process may not open that many descriptors (and some to spare).

    waitress stops accepting at its limit; running out of descriptors instead would make
    every accept fail (the server keeps running, see _Server.handle_accept, but serves nobody).
    """
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(16, min(wanted, soft - SPARE_DESCRIPTORS))


class _Guard:
    """The per-address cap and the head deadline, shared by the server and its connections."""

    def __init__(self, per_address: int, head_deadline: float) -> None:
        self.per_address = per_address
        self.head_deadline = head_deadline
        self.refused = 0  # connections closed at once: too many from their address
        self.late = 0  # connections closed for not sending their request in time


_REFUSALS = {  # waitress's error status -> the app's code and sentence (docs/web.md)
    400: ("bad_request", "The request was not understood."),
    413: ("too_large", "The request is too large."),
    431: ("too_large", "The request is too large."),
    500: ("internal", "Something went wrong in the companion."),
    501: ("bad_request", "The request was not understood."),  # a transfer coding other than chunked
}


class _JsonErrorTask(ErrorTask):  # type: ignore[misc]
    """waitress's own refusals (a body too large, a bad head) as JSON, like the app's (web/guard.py)."""

    def execute(self) -> None:
        error = self.request.error
        code, message = _REFUSALS.get(error.code, _REFUSALS[400 if error.code < 500 else 500])
        body = json.dumps({"ok": False, "error": {"code": code, "message": message}}).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class _Channel(HTTPChannel):  # type: ignore[misc]
    """waitress's connection, plus when its unfinished request began (None: none is under way)."""

    error_task_class = _JsonErrorTask

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.head_started: float | None = self.creation_time  # a new connection owes a request

    def received(self, data: bytes) -> bool:
        fresh = self.request is None
        taken: bool = super().received(data)
        if self.request is None:
            self.head_started = None  # every request sent so far is complete
        elif fresh:
            self.head_started = time.time()
        return taken


class _Server(TcpWSGIServer):  # type: ignore[misc]
    """waitress's server, refusing connections past the per-address cap where they are accepted,
    closing connections that do not send their request in time, and surviving running out of
    descriptors."""

    channel_class = _Channel

    def __init__(self, app: Any, guard: _Guard, **kw: Any) -> None:
        self.guard = guard
        self.paused_until = 0.0
        super().__init__(app, **kw)

    def readable(self) -> bool:
        accepting: bool = super().readable()  # runs the maintenance too
        return accepting and time.monotonic() >= self.paused_until

    def handle_accept(self) -> None:
        try:
            pair = self.accept()
        except OSError as err:
            self._pause(err)
            return
        if pair is None:
            return
        conn, addr = pair
        if self._crowded(addr[0]):
            self.guard.refused += 1
            conn.close()
            return
        try:
            self.set_socket_options(conn)
        except OSError:  # the client had already gone
            conn.close()
            return
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)

    def set_socket_options(self, conn: socket.socket) -> None:
        super().set_socket_options(conn)  # TCP_NODELAY: waitress buffers its own writes
        if hasattr(socket, "TCP_USER_TIMEOUT"):  # Linux
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, UNACKED_MS)

    def _crowded(self, host: str) -> bool:
        return sum(1 for channel in self.active_channels.values() if channel.addr[0] == host) >= self.guard.per_address

    def _pause(self, err: OSError) -> None:
        """Out of descriptors (or memory): stop accepting for a moment instead of failing in a loop."""
        if err.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
            log.warning("web_accept_paused: %s", err.strerror)
            self.paused_until = time.monotonic() + 0.5

    def maintenance(self, now: float) -> None:
        super().maintenance(now)  # idle keep-alive connections past IDLE_TIMEOUT
        cutoff = now - self.guard.head_deadline
        for channel in list(self.active_channels.values()):
            if channel.head_started is not None and channel.head_started < cutoff and not channel.will_close:
                self.guard.late += 1
                channel.will_close = True


ANY_HOST = ("0.0.0.0", "::", "")  # serving on every interface


def page_url(host: str, port: int, *, name: str | None = None) -> str:
    """The URL to print and to build join URLs from: one a phone on the same network can reach.

    Serving on every interface, that is the best LAN address (web/reach.py), never 127.0.0.1;
    with none yet (no network), the mDNS name, and a warning says phones cannot reach the page yet.

    >>> page_url("127.0.0.1", 8000)
    'http://127.0.0.1:8000'
    """
    if host not in ANY_HOST:
        return f"http://{f'[{host}]' if ':' in host else host}:{port}"
    addresses = phone_addresses()
    if addresses:
        return f"http://{addresses[0]}:{port}"
    url = f"http://{mdns_name(name)}:{port}"
    log.warning("web_no_lan_address: this machine has no network address yet, so phones cannot reach "
                "the page; join a Wi-Fi network or start a hotspot (the join URLs use %s)", url)
    return url


def print_qr(url: str, out: TextIO) -> None:
    """The URL as a QR code in the terminal, for a phone's camera."""
    segno.make(url, error="l").terminal(out=out, compact=True)
