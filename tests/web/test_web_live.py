"""The web page served for real (waitress on a local port): streams reach clients at once, and
streams whose client has gone are cleaned up."""

from __future__ import annotations

import json
import socket
import time
import tracemalloc
import urllib.request
from collections.abc import Iterator

import pytest

from companion.rules.actions import Roll
from companion.table.commands import NewGame, Notify, Play, StartGame
from companion.table.session import Session, Table
from web import create_app
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


def next_view(client: socket.socket, buffer: bytearray) -> dict[str, object]:
    """Read until one whole ``event: view`` message is in, and return its view."""
    while True:
        start = buffer.find(b"event: view\n")
        end = buffer.find(b"\n\n", start) if start >= 0 else -1
        if end >= 0:
            message = bytes(buffer[start:end])
            del buffer[:end + 2]
            data = message.split(b"\ndata: ", 1)[1].split(b"\r\n", 1)[0]
            view: dict[str, object] = json.loads(data)
            return view
        chunk = client.recv(65536)
        assert chunk, "the stream ended"
        buffer.extend(chunk)


def subscribers(session: Session) -> int:
    return len(session._boxes)


def test_a_stream_gets_the_current_view_at_once_and_every_change_after(served: tuple[Session, int]) -> None:
    session, port = served
    with open_stream(port) as client:
        buffer = bytearray()
        assert next_view(client, buffer)["phase"] == "start"
        sent = time.monotonic()
        assert session.call(Play("Miss Scarlet", Roll("Miss Scarlet"))).ok
        view = next_view(client, buffer)
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
            buffer = bytearray()
            next_view(client, buffer)
            for number in range(40):  # 40 views of over 100 KB: 4 MB through one stream
                assert session.call(Notify(None, f"{number} " + "x" * 100_000)).ok
                while not str((next_view(client, buffer).get("notice") or {}).get("text", "")).startswith(f"{number} "):
                    pass
            buffers = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(True, "*waitress/buffers.py")])
    finally:
        tracemalloc.stop()
    held = sum(stat.size for stat in buffers.statistics("filename"))
    assert held < 1_500_000, f"waitress holds {held / 1e6:.1f} MB of a 4 MB stream it has sent"
