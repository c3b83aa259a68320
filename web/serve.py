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
from collections.abc import Callable, Mapping
from typing import Any, TextIO

import segno
from waitress import wasyncore  # type: ignore[import-untyped]
from waitress.channel import HTTPChannel  # type: ignore[import-untyped]
from waitress.parser import HTTPRequestParser  # type: ignore[import-untyped]
from waitress.server import TcpWSGIServer  # type: ignore[import-untyped]
from waitress.task import ErrorTask  # type: ignore[import-untyped]
from waitress.utilities import Error, RequestEntityTooLarge  # type: ignore[import-untyped]

from companion.rules.edition_files import MAX_EXPORT

from .editor import MAX_DOCUMENT
from .guard import MAX_BODY
from .host import host_cookie_check
from .photo import MAX_PHOTO_BODY
from .reach import mdns_name, phone_addresses

# Worker threads. Every open SSE stream holds one (web/streams.py bounds them: 12 table
# streams and three per seat, so 42 at a ten-seat table), and the rest answer requests.
THREADS = 56
# waitress keeps everything a response wrote in one in-memory buffer until it reaches this
# size (16 MiB by default), even once sent: an SSE stream lives for hours, so seven of them
# grew the process by 100 MiB in a soak. Past it, the buffer is replaced, and a client that
# has not read that much yet holds its stream's thread (its newest-wins mailbox skips views).
OUTBUF_BYTES = 512 * 1024
# A body is refused as it arrives, at its route's own limit: the blueprints that raise Flask's
# limit (web/photo.py, web/editor.py) get theirs here too (body_limits), every other request
# the app's 16 KiB. A declared length is checked when the head is parsed, a chunked body is
# cut off as soon as it passes the limit. Allowed bodies stay in memory (never a temporary
# file: inbuf_overflow is twice the largest), so the bytes of bodies larger than the app's
# small limit are counted while they are received and read: at most LARGE_BODIES_PER_ADDRESS
# per address and LARGE_BODIES in all, past which a body is refused at once with 503 busy.
BLUEPRINT_BODIES = {"photo": MAX_PHOTO_BODY, "editor": max(MAX_DOCUMENT, MAX_EXPORT)}
LARGE_BODIES = 2 * MAX_PHOTO_BODY  # two photos at once; the host sends one at a time
LARGE_BODIES_PER_ADDRESS = MAX_PHOTO_BODY
# A large body may take longer than HEAD_DEADLINE to arrive: it gets a second more for each
# SLOWEST_UPLOAD bytes it declares (8 MiB: 32 s more over a poor Wi-Fi's 2 Mbit/s).
SLOWEST_UPLOAD = 256 * 1024
# A response is written into memory, never a temporary file (waitress spills past 1 MiB by
# default): the largest, a traced photo's rectified PNG, is a few MiB.
OUTBUF_OVERFLOW = 2 * MAX_PHOTO_BODY
BUSY_SECONDS = 5  # Retry-After on a body refused while others are being received
MAX_HEADER_BYTES = 32 * 1024  # a half-sent head is held in memory: waitress allows 256 KiB
# Open connections: at most PER_ADDRESS from one address (a browser opens six to a server),
# and CONNECTIONS in all (fewer if the descriptor limit is low). Past the first, a connection
# is accepted and closed at once. Past the second, the server makes room: it closes an idle
# connection (no request under way, no answer unsent) of the address holding the most, if it holds
# at least two more than the newcomer's; else the newcomer is closed. So addresses share the
# server fairly, and a phone with a connection or two always gets in, however many addresses
# a hostile phone holds (64 x 32 connections: each keeps about 8 of the 512).
CONNECTIONS = 512
PER_ADDRESS = 32
ACCEPT_BATCH = 64  # connections accepted per wake-up: a phone's waits behind fewer of a flood's
SPARE_DESCRIPTORS = 64  # kept for the store, the board's serial port, logs
# A connection must send a whole request (head and body) within this many seconds of starting
# it, or of opening: a slowloris client that dribbles a byte at a time is closed. A large body
# gets more (SLOWEST_UPLOAD).
HEAD_DEADLINE = 10.0
IDLE_TIMEOUT = 60  # an idle keep-alive connection is closed after this many seconds
# Written data a phone has not acknowledged for this long (it left the Wi-Fi without closing
# its connection) makes the kernel drop the connection, and its stream's thread is freed.
UNACKED_MS = 30_000
log = logging.getLogger(__name__)


class WebServer:
    """waitress on ``host:port`` (port 0: any free port). ``start()``, then ``close()``.

    ``per_address``, ``head_deadline`` (s) and ``connections`` override PER_ADDRESS,
    HEAD_DEADLINE and CONNECTIONS (tests).
    """

    def __init__(self, app: Any, host: str = "0.0.0.0", port: int = 8000, threads: int = THREADS,
                 per_address: int = PER_ADDRESS, head_deadline: float = HEAD_DEADLINE,
                 connections: int = CONNECTIONS) -> None:
        self.app = app
        self.host = host
        self.requested_port = port
        self.threads = threads
        self.guard = _Guard(per_address, head_deadline, connection_limit(connections))
        self.bodies = Bodies(body_limits(app), sender=host_cookie_check(app))
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._sockets: dict[int, Any] = {}  # waitress's socket map: ours, so close() can close every channel

    def start(self) -> WebServer:
        # clear_untrusted_proxy_headers: no proxy sits in front; ident: no version banner.
        # channel_request_lookahead: keep reading a connection while its request runs, so a
        # stream's client that has gone is noticed at once (web/events.py asks). poll: select()
        # cannot watch descriptors past 1024, and would stop the server when it met one.
        # connection_limit: waitress would stop accepting there; _Server keeps its own limit
        # and makes room instead. max_request_body_size: the largest; _Parser sets each one's.
        # inbuf_overflow: a body past its limit is cut within one read, long before this.
        self._server = _Server(self.app, self.guard, self.bodies, map=self._sockets, host=self.host,
                               port=self.requested_port, threads=self.threads, ident="clue-companion",
                               clear_untrusted_proxy_headers=True, outbuf_high_watermark=OUTBUF_BYTES,
                               outbuf_overflow=OUTBUF_OVERFLOW, channel_request_lookahead=1,
                               max_request_body_size=self.bodies.largest + 1, inbuf_overflow=2 * self.bodies.largest,
                               max_request_header_size=MAX_HEADER_BYTES, connection_limit=1 << 30,
                               channel_timeout=IDLE_TIMEOUT, cleanup_interval=1, asyncore_use_poll=True)
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
    """The connection caps and the head deadline, shared by the server and its connections."""

    def __init__(self, per_address: int, head_deadline: float, connections: int) -> None:
        self.per_address = per_address
        self.head_deadline = head_deadline
        self.connections = connections
        self.refused = 0  # connections closed at once: too many from their address, or no room
        self.evicted = 0  # idle connections closed to make room for a lighter address's
        self.late = 0  # connections closed for not sending their request in time


def body_limits(app: Any) -> dict[str, int]:
    """The most bytes a POST to each path of ``app`` may send, where it is more than the app's
    own limit: every POST route of a blueprint in BLUEPRINT_BODIES (those raise Flask's limit
    for their routes). Any other request may send ``MAX_CONTENT_LENGTH`` (``""`` here)."""
    config = getattr(app, "config", {})
    limits = {"": int(config.get("MAX_CONTENT_LENGTH") or MAX_BODY)}
    url_map = getattr(app, "url_map", None)
    for rule in url_map.iter_rules() if url_map is not None else ():
        blueprint = rule.endpoint.rpartition(".")[0]
        if blueprint in BLUEPRINT_BODIES and "POST" in (rule.methods or ()) and not rule.arguments:
            limits[rule.rule] = BLUEPRINT_BODIES[blueprint]
    return limits


class Bodies:
    """Each route's body limit, and the bytes of large bodies being received or read, by address.

    A body larger than the app's small limit holds its declared length (a chunked one: its
    route's limit) from when its head is parsed until its request is done or its connection
    closed. ``reserve`` is called on the server's thread, ``release`` on any.

    >>> bodies = Bodies({"": 16, "/photo": 100}, total=150, per_address=100)
    >>> bodies.limit("POST", "/photo"), bodies.limit("GET", "/photo"), bodies.limit("POST", "/x")
    (100, 16, 16)
    >>> bodies.reserve(1, "a", 100), bodies.reserve(2, "a", 50), bodies.reserve(3, "b", 50), bodies.reserve(4, "c", 1)
    (True, False, True, False)
    >>> bodies.release(1); bodies.release(1); bodies.reserve(4, "c", 1)
    True
    """

    def __init__(self, limits: Mapping[str, int], total: int = LARGE_BODIES,
                 per_address: int = LARGE_BODIES_PER_ADDRESS, sender: Callable[[str], bool] | None = None) -> None:
        self.limits = dict(limits)
        # Who may send a large body, from its Cookie header (None: anyone): every large-body route
        # is the host's, so nobody else can hold the room a host's photo needs.
        self.sender = sender
        self.small = self.limits[""]
        self.largest = max(self.limits.values())
        self.total = total
        self.per_address = per_address
        self.busy = 0  # bodies refused with 503: too many large ones under way
        self._held: dict[int, tuple[str, int]] = {}  # a request's id -> its address and bytes
        self._lock = threading.Lock()

    def may_send(self, cookie: str) -> bool:
        """Whether a request with this Cookie header may send a large body."""
        return self.sender is None or self.sender(cookie)

    def limit(self, method: str, path: str) -> int:
        return self.limits.get(path, self.small) if method == "POST" else self.small

    def reserve(self, key: int, host: str, size: int) -> bool:
        """Hold ``size`` bytes for request ``key`` from ``host``; False if that is past a limit."""
        with self._lock:
            mine = sum(held for address, held in self._held.values() if address == host)
            taken = sum(held for _, held in self._held.values())
            if mine + size > self.per_address or taken + size > self.total:
                self.busy += 1
                return False
            self._held[key] = (host, size)
            return True

    def release(self, key: int) -> None:
        """Give back what request ``key`` held (again: nothing)."""
        with self._lock:
            self._held.pop(key, None)

    def held(self) -> int:
        with self._lock:
            return sum(held for _, held in self._held.values())


class NotHost(Error):  # type: ignore[misc]
    """waitress's error for a large body from a browser that is not logged in as host."""

    code = 401
    reason = "Unauthorized"


class ServerBusy(Error):  # type: ignore[misc]
    """waitress's error for a body refused because too many large ones are under way."""

    code = 503
    reason = "Service Unavailable"


_REFUSALS = {  # waitress's error status -> the app's code and sentence (docs/web.md)
    400: ("bad_request", "The request was not understood."),
    413: ("too_large", "The request is too large."),
    431: ("too_large", "The request is too large."),
    500: ("internal", "Something went wrong in the companion."),
    501: ("bad_request", "The request was not understood."),  # a transfer coding other than chunked
    401: ("host_login", "Log in with the host PIN first."),
    503: ("busy", "The companion is receiving other large files. Try again in a few seconds."),
}


class _JsonErrorTask(ErrorTask):  # type: ignore[misc]
    """waitress's own refusals (a body too large, a bad head) as JSON, like the app's (web/guard.py)."""

    def execute(self) -> None:
        error = self.request.error
        code, message = _REFUSALS.get(error.code, _REFUSALS[400 if error.code < 500 else 500])
        body = json.dumps({"ok": False, "error": {"code": code, "message": message}}).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        if error.code == 503:
            self.response_headers.append(("Retry-After", str(BUSY_SECONDS)))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class _RequestAdjustments:
    """waitress's settings as one request's parser sees them: the server's, but its own body limit."""

    def __init__(self, shared: Any) -> None:
        self._shared = shared
        self.max_request_body_size: int = shared.max_request_body_size

    def __getattr__(self, name: str) -> Any:
        return getattr(self._shared, name)


class _Parser(HTTPRequestParser):  # type: ignore[misc]
    """waitress's request parser, with the body limit of the request's route (Bodies).

    waitress checks a declared length against ``max_request_body_size`` right after the head
    is parsed, and a chunked body's bytes as they come: the limit is set in ``parse_header``.
    A chunked body is also cut at its payload (its framing aside), and a large body must find
    room in ``Bodies`` or is refused with 503.
    """

    error: Any  # waitress's Error, or None

    def __init__(self, adj: Any, bodies: Bodies, host: str) -> None:
        super().__init__(_RequestAdjustments(adj))
        self.bodies = bodies
        self.host = host
        self.limit = bodies.small
        self.extra_time = 0.0  # seconds past the head deadline this request's body may take

    def parse_header(self, header_plus: bytes) -> None:
        super().parse_header(header_plus)
        self.limit = self.bodies.limit(self.command, self.path)
        # waitress refuses at max_request_body_size bytes, counting a chunked body's framing
        # too: room for its framing (the payload is checked in received()).
        self.adj.max_request_body_size = self.limit + 1 if not self.chunked else 2 * self.limit + 65536

    def received(self, data: bytes) -> int:
        in_head = not self.headers_finished
        consumed: int = super().received(data)
        if self.error is None and self.body_rcv is not None:
            if len(self.body_rcv) > self.limit:
                self.error = RequestEntityTooLarge(f"exceeds the limit of {self.limit} bytes")
                self.completed = True
            elif in_head and self.headers_finished:
                self._hold()
        if self.error is not None:
            self.expect_continue = False  # waitress would say 100 Continue and read the body anyway
        return consumed

    def _hold(self) -> None:
        size = self.limit if self.chunked else self.content_length
        if size <= self.bodies.small:
            return
        if not self.bodies.may_send(self.headers.get("COOKIE", "")):
            self.error = NotHost("a large body from a browser not logged in as host")
            self.completed = True
        elif self.bodies.reserve(id(self), self.host, size):
            self.extra_time = size / SLOWEST_UPLOAD
        else:
            self.error = ServerBusy("too many large bodies under way")
            self.completed = True

    def close(self) -> None:
        super().close()
        self.bodies.release(id(self))


class _Channel(HTTPChannel):  # type: ignore[misc]
    """waitress's connection, plus when its unfinished request began (None: none is under way),
    with _Parser for its requests."""

    error_task_class = _JsonErrorTask
    counted_as: str | None = None  # the address the server counts it under (set by the server)

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.head_started: float | None = self.creation_time  # a new connection owes a request

    def parser_class(self, adj: Any) -> _Parser:  # waitress calls self.parser_class(self.adj)
        return _Parser(adj, self.server.bodies, self.addr[0])

    def received(self, data: bytes) -> bool:
        fresh = self.request is None
        taken: bool = super().received(data)
        if self.request is None:
            self.head_started = None  # every request sent so far is complete
        elif fresh:
            self.head_started = time.time()
        return taken

    def idle(self) -> bool:
        """Whether closing this connection loses nothing: no request under way, no answer unsent."""
        return not (self.requests or self.total_outbufs_len or self.will_close or self.close_when_flushed)

    def deadline(self, head_deadline: float) -> float | None:
        """When this connection's unfinished request must be complete (None: none is under way)."""
        if self.head_started is None:
            return None
        return self.head_started + head_deadline + getattr(self.request, "extra_time", 0.0)

    def del_channel(self, map: Any = None) -> None:
        super().del_channel(map)
        if self.counted_as is not None:
            self.server.forget(self, self.counted_as)
            self.counted_as = None
        if self.request is not None:  # a body cut short held its room; a whole one holds it until answered
            self.server.bodies.release(id(self.request))


class _Server(TcpWSGIServer):  # type: ignore[misc]
    """waitress's server, refusing connections past the per-address cap where they are accepted,
    making room for a light address when full (see CONNECTIONS), closing connections that do
    not send their request in time, and surviving running out of descriptors."""

    channel_class = _Channel

    def __init__(self, app: Any, guard: _Guard, bodies: Bodies, **kw: Any) -> None:
        self.guard = guard
        self.bodies = bodies
        self.paused_until = 0.0
        self.by_address: dict[str, set[Any]] = {}  # open connections (channels) by address
        super().__init__(app, **kw)

    def readable(self) -> bool:
        accepting: bool = super().readable()  # runs the maintenance too
        return accepting and time.monotonic() >= self.paused_until

    def handle_accept(self) -> None:
        for _ in range(ACCEPT_BATCH):  # until none is waiting: a flood must not queue a phone behind it
            try:
                pair = self.accept()
            except OSError as err:
                self._pause(err)
                return
            if pair is None:
                return
            self._admit(*pair)

    def _admit(self, conn: socket.socket, addr: Any) -> None:
        host = addr[0]
        if len(self.by_address.get(host, ())) >= self.guard.per_address or not self._room_for(host):
            self.guard.refused += 1
            conn.close()
            return
        try:
            self.set_socket_options(conn)
            channel = self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)
        except OSError:  # the client had already gone
            conn.close()
            return
        channel.counted_as = host
        self.by_address.setdefault(host, set()).add(channel)

    def forget(self, channel: Any, host: str) -> None:
        """A connection from ``host`` has closed."""
        held = self.by_address.get(host)
        if held is not None:
            held.discard(channel)
            if not held:
                del self.by_address[host]

    def _room_for(self, host: str) -> bool:
        """Whether a connection from ``host`` fits, closing another address's idle one if need be."""
        if len(self.active_channels) < self.guard.connections:
            return True
        mine = len(self.by_address.get(host, ()))
        for address in sorted(self.by_address, key=lambda address: len(self.by_address[address]), reverse=True):
            held = self.by_address[address]
            if len(held) < mine + 2:  # every other address holds no more than the newcomer's would
                return False
            idle = [channel for channel in held if channel.idle()]
            if idle:
                victim = min(idle, key=lambda channel: channel.last_activity)
                victim.handle_close()
                self.guard.evicted += 1
                return True
        return False

    def set_socket_options(self, conn: socket.socket) -> None:
        super().set_socket_options(conn)  # TCP_NODELAY: waitress buffers its own writes
        if hasattr(socket, "TCP_USER_TIMEOUT"):  # Linux
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, UNACKED_MS)

    def _pause(self, err: OSError) -> None:
        """Out of descriptors (or memory): stop accepting for a moment instead of failing in a loop."""
        if err.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
            log.warning("web_accept_paused: %s", err.strerror)
            self.paused_until = time.monotonic() + 0.5

    def maintenance(self, now: float) -> None:
        super().maintenance(now)  # idle keep-alive connections past IDLE_TIMEOUT
        for channel in list(self.active_channels.values()):
            deadline = channel.deadline(self.guard.head_deadline)
            if deadline is not None and deadline < now and not channel.will_close:
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
