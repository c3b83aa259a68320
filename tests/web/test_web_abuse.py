"""A hostile phone on the same Wi-Fi cannot stall the table: bounded streams, slowloris, huge bodies.

The server runs for real (waitress on a loopback port). Every load here goes to
127.0.0.1 only and is bounded in count and time; the "attacker" of the
connection tests binds its sockets to 127.0.0.2 (still loopback) so that it is
one address and the table's own requests another, as on a real Wi-Fi.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import select
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from web_fixtures import (
    SEATS,
    Browser,
    Stream,
    make_app,
    open_game,
    refused,
    running,
    subscribers,
    token_of,
    web_of,
)

from companion.table.session import Session
from web.serve import PER_ADDRESS, WebServer
from web.streams import StreamLimits

LIMITS = StreamLimits()
ATTACKER = "127.0.0.2"
WAIT = 5.0  # the longest any single read here may take


@dataclass
class Served:
    session: Session
    port: int
    cookie: str  # Miss Scarlet's phone, joined

    def get(self, path: str, cookie: str | None = None) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT)
        try:
            connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
            answer = connection.getresponse()
            return answer.status, answer.read()
        finally:
            connection.close()


@contextmanager
def serving(tmp_path: Path, **server: Any) -> Iterator[Served]:
    with running(tmp_path) as session:
        open_game(session)
        # The real keepalive (15 s): a dropped stream must be noticed without waiting for it.
        app = make_app(session, KEEPALIVE=15.0)
        with WebServer(app, "127.0.0.1", 0, **server) as server_:
            connection = http.client.HTTPConnection("127.0.0.1", server_.port, timeout=WAIT)
            connection.request("GET", f"/j/{token_of(app, SEATS[0])}")
            answer = connection.getresponse()
            answer.read()
            connection.close()
            found = re.search(r"clue_session=[^;]+", answer.getheader("Set-Cookie") or "")
            assert found, "joining set no cookie"
            yield Served(session, server_.port, found.group(0))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(tmp_path) as served:
        yield served


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    client.settimeout(WAIT)
    client.bind((source, 0))
    client.connect(("127.0.0.1", port))
    return client


def attacker_socket(port: int) -> socket.socket:
    try:
        return connect(port, ATTACKER)
    except OSError as err:  # a loopback without 127.0.0.2 (not Linux)
        pytest.skip(f"cannot bind {ATTACKER}: {err}")


def open_stream(port: int, path: str = "/events/table", cookie: str | None = None,
                source: str = "127.0.0.1") -> tuple[socket.socket, int, bytes]:
    """A raw SSE request: the socket, the status (0: the server closed the connection) and the answer so far."""
    client = connect(port, source)
    extra = f"Cookie: {cookie}\r\n" if cookie else ""
    received = b""
    try:
        client.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n{extra}\r\n".encode())
        while b"\r\n\r\n" not in received:
            chunk = client.recv(65536)
            if not chunk:
                return client, 0, received
            received += chunk
    except ConnectionError:
        return client, 0, received
    return client, int(received.split(b" ", 2)[1]), received


def wait_until(condition: Callable[[], bool], seconds: float = 3.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def closed_by_server(client: socket.socket) -> bool:
    """Whether the server has closed this connection (EOF or reset), without waiting."""
    try:
        client.setblocking(False)
        return client.recv(65536) == b""
    except BlockingIOError:
        return False
    except ConnectionError:
        return True


# ---- streams -------------------------------------------------------------------------------------

def test_anonymous_streams_past_the_limit_are_refused_and_a_seat_is_still_served(served: Served) -> None:
    """Old: each stream held one of 32 threads, so the 32nd stalled every request."""
    attacker_socket(served.port).close()  # skips where 127.0.0.2 cannot be bound
    with ExitStack() as streams:
        statuses = []
        for _ in range(40):
            client, status, answer = open_stream(served.port, source=ATTACKER)
            streams.enter_context(client)
            statuses.append(status)
            if status == 503:
                body = json.loads(answer.split(b"\r\n\r\n", 1)[1] or client.recv(65536))
                assert body["ok"] is False and body["error"]["code"] == "busy", body
        # Held: the address's share; the rest refused (503, or closed once the address holds too many connections).
        assert statuses.count(200) == LIMITS.table_per_address
        assert statuses.count(503) >= PER_ADDRESS - LIMITS.table_per_address
        status, body = served.get("/api/seat", served.cookie)
        assert status == 200 and json.loads(body)["seat"] == SEATS[0]
        seat_stream, status, _ = open_stream(served.port, "/events/seat", served.cookie)
        seat_stream.close()
        assert status == 200  # anonymous streams never take a joined seat's place


def test_dropped_streams_give_their_thread_back_at_once(served: Served) -> None:
    """Old: a dropped stream kept its thread until its next keepalive (15 s here)."""
    before = subscribers(served.session)
    for _ in range(3):
        clients = [open_stream(served.port) for _ in range(LIMITS.table_per_address)]
        assert [status for _, status, _ in clients] == [200] * LIMITS.table_per_address
        assert wait_until(lambda: subscribers(served.session) == before + LIMITS.table_per_address)
        for client, _, _ in clients:
            client.close()
        assert wait_until(lambda: subscribers(served.session) == before, 5.0), "dropped streams still subscribed"
    assert served.get("/api/table")[0] == 200


def test_the_table_streams_of_many_addresses_are_capped_in_all(tmp_path: Path) -> None:
    with running(tmp_path) as session:
        open_game(session)
        app = make_app(session)
        phone = Browser(app)
        phone.join(SEATS[0])
        clients = [app.test_client() for _ in range(LIMITS.table_total + 1)]
        with ExitStack() as stack:
            for number, client in enumerate(clients[:-1]):
                client.environ_base["REMOTE_ADDR"] = f"10.0.0.{number + 2}"
                stream = stack.enter_context(Stream(client, "/events/table"))
                assert stream.status == 200
            clients[-1].environ_base["REMOTE_ADDR"] = "10.0.0.99"
            with Stream(clients[-1], "/events/table") as last:
                assert last.status == 503  # checked first: an admitted stream never ends
                refused(last.response, 503, "busy")
            with Stream(phone.client, "/events/seat") as seat:
                assert seat.status == 200 and seat.view()["seat"] == SEATS[0]


def test_a_seats_newest_stream_ends_its_oldest(tmp_path: Path) -> None:
    """A phone that left the Wi-Fi without closing its stream must not lock its player out."""
    with running(tmp_path) as session:
        open_game(session)
        app = make_app(session)
        phone = Browser(app)
        phone.join(SEATS[0])
        streams = [Stream(phone.client, "/events/seat") for _ in range(LIMITS.per_seat)]
        try:
            for stream in streams:
                stream.view()
            with Stream(phone.client, "/events/seat") as newest:
                assert newest.view()["seat"] == SEATS[0]
                assert streams[0].message() == ("end", "")
                assert web_of(app).streams.count(SEATS[0]) == LIMITS.per_seat
        finally:
            for stream in streams:
                stream.close()


# ---- slowloris -----------------------------------------------------------------------------------

def test_half_open_connections_from_one_address_do_not_lock_the_table_out(served: Served) -> None:
    """Old: 100 half-open connections (waitress's connection_limit) and nobody could connect."""
    count = 150
    with ExitStack() as stack:
        attackers = []
        for _ in range(count):
            client = stack.enter_context(attacker_socket(served.port))
            client.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            attackers.append(client)
        status, body = served.get("/api/seat", served.cookie)
        assert status == 200 and json.loads(body)["seat"] == SEATS[0]
        assert wait_until(lambda: sum(closed_by_server(c) for c in attackers) >= count - PER_ADDRESS, 5.0)


def test_a_request_not_sent_in_time_is_closed(tmp_path: Path) -> None:
    with ExitStack() as stack:
        served = stack.enter_context(serving(tmp_path, head_deadline=0.5))
        dribbling = stack.enter_context(connect(served.port))
        dribbling.sendall(b"GET /api/table HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        silent = stack.enter_context(connect(served.port))

        def still_dribbling() -> bool:
            try:
                dribbling.sendall(b"X")  # a byte now and then: activity, but never a whole head
            except OSError:
                return True
            return closed_by_server(dribbling)

        assert wait_until(still_dribbling, 4.0), "a request dribbled in forever was not closed"
        assert wait_until(lambda: closed_by_server(silent), 4.0), "a connection that never sent a request was kept"
        assert served.get("/api/table")[0] == 200


# ---- bodies --------------------------------------------------------------------------------------

def temporary_files() -> int:
    """Descriptors of this process open on files in the temporary folder (where waitress spills bodies)."""
    folder = tempfile.gettempdir()
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            count += os.readlink(f"/proc/self/fd/{fd}").startswith(folder + "/")
        except OSError:
            pass
    return count


def read_all(client: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (or resets it: it stopped reading)."""
    received = b""
    try:
        while chunk := client.recv(65536):
            received += chunk
    except ConnectionError:
        pass
    return received


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors in /proc")
def test_a_huge_chunked_body_is_refused_before_it_is_buffered(served: Served) -> None:
    """Old: a chunked body was buffered (to temporary files past 512 KiB) before any check ran."""
    before = temporary_files()
    chunk = b"x" * 65536
    sent, answer = 0, b""
    with connect(served.port) as client:
        client.sendall(b"POST /api/seat/action HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                       b"Transfer-Encoding: chunked\r\n\r\n")
        while sent < 2 * 1024 * 1024 and not answer:  # stop at 2 MiB: the rest of a 1 GiB body
            try:
                client.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except OSError:  # the server has answered and closed
                pass
            sent += len(chunk)
            if select.select([client], [], [], 0.01)[0]:
                answer = read_all(client)
        assert temporary_files() == before, "the body went to a temporary file"
    assert answer.startswith(b"HTTP/1.1 413"), (sent, answer[:200])
    assert sent <= 1024 * 1024, f"refused only after {sent} bytes"
    body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    assert body == {"ok": False, "error": {"code": "too_large", "message": "The request is too large."}}
