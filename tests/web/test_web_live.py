"""The web page served for real (waitress on a local port): streams reach clients at once, and
streams whose client has gone are cleaned up."""

from __future__ import annotations

import json
import random
import re
import socket
import time
import tracemalloc
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from companion.deduction.playout import choose
from companion.rules.actions import Roll
from companion.table.commands import NewGame, Notify, Play, StartGame
from companion.table.session import Session, Table
from web import create_app
from web.context import with_log
from web.deltas import apply
from web.serve import WebServer


@pytest.fixture
def served() -> Iterator[tuple[Session, int]]:
    with Session(Table(seed_source=lambda: 7)) as session:
        session.call(NewGame("classic", ("Miss Scarlet", "Colonel Mustard", "Mrs. White")))
        session.call(StartGame())
        app = create_app(session, {"HOST_PIN": "246813", "KEEPALIVE": 0.1})
        with WebServer(app, "127.0.0.1", 0) as server:
            yield session, server.port


def open_stream(port: int, path: str = "/events/table") -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=5)
    client.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    return client


class Reader:
    """A raw stream's views as a page builds them: the whole view first, then each delta applied."""

    def __init__(self, client: socket.socket) -> None:
        self.client, self.buffer = client, bytearray()
        self.view: dict[str, Any] | None = None

    def next_view(self, within: float = 10.0) -> dict[str, Any]:
        """Read until one whole ``event: view`` or ``event: delta`` message is in; the view it makes."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            found = re.search(rb"event: (view|delta)\r?\ndata: ([^\r\n]*)\r?\n\r?\n", self.buffer)
            if found:
                event, data = found.group(1), json.loads(found.group(2))  # before the buffer under them changes
                del self.buffer[:found.end()]
                self.view = data if event == b"view" else apply(self.view or {}, data)
                assert self.view is not None
                return self.view
            chunk = self.client.recv(65536)
            assert chunk, "the stream ended"
            self.buffer.extend(chunk)
        raise AssertionError("no view within the time")


def next_view(client: socket.socket, buffer: bytearray) -> dict[str, Any]:
    """The first view of a stream (always sent whole)."""
    return Reader(client).next_view()


def subscribers(session: Session) -> int:
    return len(session._boxes)


def test_a_stream_gets_the_current_view_at_once_and_every_change_after(served: tuple[Session, int]) -> None:
    session, port = served
    with open_stream(port) as client:
        reader = Reader(client)
        assert reader.next_view()["phase"] == "start"
        sent = time.monotonic()
        assert session.call(Play("Miss Scarlet", Roll("Miss Scarlet"))).ok
        view = reader.next_view()
        assert view["phase"] == "moving" and view["actions"] == 1
        assert time.monotonic() - sent < 1.0
        assert any("Miss Scarlet rolls" in line for line in view["log"])  # type: ignore[union-attr]


def test_a_stream_whose_client_has_gone_is_unsubscribed_within_a_keepalive(served: tuple[Session, int]) -> None:
    session, port = served
    before = subscribers(session)
    client = open_stream(port)
    next_view(client, bytearray())
    assert subscribers(session) == before + 1
    client.close()
    deadline = time.monotonic() + 5
    while subscribers(session) > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert subscribers(session) == before


def test_keepalives_flow_between_views(served: tuple[Session, int]) -> None:
    _, port = served
    with open_stream(port) as client:
        received = b""
        deadline = time.monotonic() + 3
        while b": keepalive" not in received and time.monotonic() < deadline:
            received += client.recv(65536)
        assert b": keepalive" in received


def test_pages_and_api_answer_over_http(served: tuple[Session, int]) -> None:
    _, port = served
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/table", timeout=5) as answer:
        assert answer.headers["Content-Type"] == "application/json"
        assert json.load(answer)["turn"] == "Miss Scarlet"
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
        assert b'name="csrf-token"' in answer.read()
        cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_a_long_lived_stream_does_not_keep_what_it_has_sent(served: tuple[Session, int]) -> None:
    """waitress keeps a response's sent bytes until its buffer is replaced: 16 MiB a stream by default."""
    session, port = served
    tracemalloc.start()
    try:
        with open_stream(port) as client:
            reader = Reader(client)
            reader.next_view()
            for number in range(40):  # 40 changes of over 100 KB each: 4 MB through one stream
                assert session.call(Notify(None, f"{number} " + "x" * 100_000)).ok
                while not str((reader.next_view().get("notice") or {}).get("text", "")).startswith(f"{number} "):
                    pass
            buffers = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(True, "*waitress/buffers.py")])
    finally:
        tracemalloc.stop()
    held = sum(stat.size for stat in buffers.statistics("filename"))
    assert held < 1_500_000, f"waitress holds {held / 1e6:.1f} MB of a 4 MB stream it has sent"


def test_after_the_first_view_a_stream_sends_what_changed_not_the_whole_record(served: tuple[Session, int]) -> None:
    """A view carries the whole record: sent whole on every change, a long game's streams carried megabytes."""
    session, port = served
    rand = random.Random(4)
    with open_stream(port) as client:
        reader = Reader(client)
        reader.next_view()
        for _ in range(30):  # a record of some length
            play_one(session, rand)
            reader.next_view()
        whole = len(json.dumps(reader.view))
        play_one(session, rand)
        while (start := reader.buffer.find(b"event: ")) < 0 or b"\n\n" not in reader.buffer[start:]:
            reader.buffer.extend(client.recv(65536))
        message = bytes(reader.buffer[start:reader.buffer.index(b"\n\n", start)])
        assert message.startswith(b"event: delta\n"), message[:40]
        assert len(message) < whole / 5, (len(message), whole)
        view = reader.next_view()
        assert view == session.inspect(lambda table: json.loads(json.dumps(with_log(table.view(None)))))


def play_one(session: Session, rand: random.Random) -> None:
    """A random legal action; the companion rolls the dice."""
    state = session.inspect(lambda table: table.state)
    action = choose(rand, state)
    if isinstance(action, Roll):
        action = Roll(action.seat)
    assert session.call(Play(action.seat, action)).ok
