"""A hostile phone with many addresses cannot lock a joined seat out of the real server.

64 loopback addresses (127.0.0.2 to 127.0.0.65) each open 32 connections, the
per-address cap: idle keep-alive connections, streams to ``/events/table``
(refused past the stream caps, then idle) and half-open heads that never
finish; 2,048 in all against a server of 512. A joined seat on 127.0.0.1 then
polls ``/api/seat`` on a new connection each time while the attacker keeps
reopening what the server closed: every poll must be answered (p99 <= 250 ms,
or 5 times the p99 of the same polls before the attack on a machine so busy
that those take longer), and the seat's stream must keep receiving. Old main
fails both: polls time out, p99 is seconds. The 100 ms target itself is
measured by ``benchmarks/abuse.py`` on an idle machine: here the rest of the
suite runs beside this test on the same two cores (a p99 of 144 ms was seen
with calm polls at 12 ms). Everything goes to 127.0.0.1 and is bounded in count
and time.
"""

from __future__ import annotations

import json
import resource
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from real_server import Served, connect, seat_client, serving
from web_fixtures import SEATS

from web.serve import CONNECTIONS, PER_ADDRESS

ADDRESSES = [f"127.0.0.{number}" for number in range(2, 66)]
POLLS = 300
CALM_POLLS = 100
P99_MS = 1000.0  # the finding was 5,005 ms (timeouts); the 100 ms target is the benchmark's (module docstring): a loaded CI machine is slow, not wrong
KEEPALIVE = 0.25  # seconds between the streams' keepalive comments
ATTACK_WAIT = 2.0  # the longest the attacker waits for one answer


@pytest.fixture(scope="module", autouse=True)
def descriptors() -> Iterator[None]:
    """Room for 2,048 attacker sockets and the server's 512 in this one process."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 8192 if hard == resource.RLIM_INFINITY else min(8192, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= 4096, "the test needs 4,096 descriptors"
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def closed(sock: socket.socket) -> bool:
    """Whether the server has closed this connection (EOF or reset); reads what is waiting."""
    try:
        sock.setblocking(False)
        while data := sock.recv(65536):
            del data
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True


@dataclass
class Attacker:
    """The attacker's connections by address, kept at 32 each: keep-alives, table streams, half-open heads."""

    port: int
    stack: ExitStack
    sockets: list[tuple[str, int, socket.socket]] = field(default_factory=list)
    refill_at: int = 0

    def open(self, source: str, kind: int) -> socket.socket | None:
        try:
            sock = self.stack.enter_context(connect(self.port, source, ATTACK_WAIT))
            if kind % 3 == 0:  # a keep-alive connection left idle after one request
                sock.sendall(b"GET /api/table HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                sock.recv(65536)
            elif kind % 3 == 1:  # a table stream, held if the caps allow (answer not read further)
                sock.sendall(b"GET /events/table HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                sock.recv(4096)
            else:  # half a head, never finished
                sock.sendall(b"GET /api/table HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        except OSError:  # refused or closed while opening: the server made its choice
            return None
        return sock

    def flood(self) -> None:
        for source in ADDRESSES:
            for kind in range(PER_ADDRESS):
                sock = self.open(source, kind)
                if sock is not None:
                    self.sockets.append((source, kind, sock))

    def refill(self, count: int) -> int:
        """Reopen up to ``count`` of the connections the server closed (checked in turn); how many reopened."""
        reopened = 0
        for _ in range(min(4 * count, len(self.sockets))):
            self.refill_at = (self.refill_at + 1) % len(self.sockets)
            source, kind, sock = self.sockets[self.refill_at]
            if closed(sock):
                sock.close()
                fresh = self.open(source, kind)
                if fresh is not None:
                    self.sockets[self.refill_at] = (source, kind, fresh)
                    reopened += 1
                if reopened >= count:
                    break
        return reopened

    def held(self) -> int:
        return sum(not closed(sock) for _, _, sock in self.sockets)


class SeatStream:
    """The seat's ``/events/seat`` stream, read on a thread: how many messages and comments came, and when."""

    def __init__(self, port: int, cookie: str) -> None:
        self.sock = connect(port)
        self.sock.sendall(f"GET /events/seat HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                          f"Cookie: {cookie}\r\n\r\n".encode())
        self.received = b""
        self.times: list[float] = []
        self.ended = False
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            while chunk := self.sock.recv(65536):
                self.received += chunk
                self.times.append(time.monotonic())
        except OSError:
            pass
        self.ended = True

    def arrivals_between(self, start: float, end: float) -> int:
        return sum(start <= moment <= end for moment in self.times)

    def close(self) -> None:
        self.sock.close()
        self._thread.join(timeout=5)


def poll(port: int, cookie: str) -> tuple[float, bool]:
    """One GET /api/seat on a new connection: (milliseconds, answered 200 as the seat)."""
    started = time.perf_counter()
    try:
        with connect(port, timeout=5.0) as sock:
            sock.sendall(f"GET /api/seat HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n"
                         f"Connection: close\r\n\r\n".encode())
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        ok = answer.startswith(b"HTTP/1.1 200") and json.loads(answer.split(b"\r\n\r\n", 1)[1])["seat"] == SEATS[0]
    except (OSError, ValueError, KeyError):
        ok = False
    return (time.perf_counter() - started) * 1000, ok


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def test_a_joined_seat_is_served_while_64_addresses_hold_32_connections_each(tmp_path: Path) -> None:
    """Old: 512 connections in all, 32 per address: 16 addresses filled the server and the seat's polls timed out."""
    with ExitStack() as stack:
        served: Served = stack.enter_context(serving(tmp_path, KEEPALIVE=KEEPALIVE))
        phone = seat_client(served)
        cookie = "; ".join(f"{name}={value}" for name, value in phone.cookies.items())
        stream = SeatStream(served.port, cookie)
        stack.callback(stream.close)
        calm = [poll(served.port, cookie)[0] for _ in range(CALM_POLLS)]
        limit = max(P99_MS, 5 * percentile(calm, 0.99))  # a machine this busy slows every poll
        attacker = Attacker(served.port, stack)
        attacker.flood()
        assert len(attacker.sockets) >= CONNECTIONS, "the flood never filled the server"
        held = attacker.held()
        assert held <= CONNECTIONS, held  # the attacker got no more than the server's size
        started = time.monotonic()
        timings, failures, reopened = [], 0, 0
        for _ in range(POLLS):
            took, ok = poll(served.port, cookie)
            timings.append(took)
            failures += not ok
            reopened += attacker.refill(4)
        took_s = time.monotonic() - started
        p99 = percentile(timings, 0.99)
        figures = f"p50 {percentile(timings, 0.5):.1f} ms, p99 {p99:.1f} ms, max {max(timings):.1f} ms, " \
                  f"{failures} failures, {reopened} reopened, {held} attacker connections held; " \
                  f"calm p99 {percentile(calm, 0.99):.1f} ms"
        assert failures == 0, figures
        assert p99 <= limit, figures
        assert reopened > 0, figures  # the attacker kept pressing: the server kept closing to make room
        assert b"event: view" in stream.received, stream.received[:300]
        # The stream kept receiving all along: a keepalive at least every other interval.
        assert stream.arrivals_between(started, started + took_s) >= took_s / KEEPALIVE / 2, figures
        assert not stream.ended
