"""The companion served for real (waitress on a loopback port) and raw HTTP clients for it.

For the tests that must go through the server itself (its body limits, its
connection caps), not the Flask test client that bypasses it. Every socket here
connects to 127.0.0.1; a client may bind another loopback address (127.0.0.2...)
to be another phone on the Wi-Fi.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask
from web_fixtures import PIN, SEATS, make_app, open_game, running, token_of

from companion.table.session import Session
from web.serve import WebServer

WAIT = 10.0  # the longest any single read here may take
CSRF_META = re.compile(rb'<meta name="csrf-token" content="([^"]+)"')
COOKIE = re.compile(r"^\s*([^=;\s]+)=([^;]*)")


@dataclass
class Served:
    session: Session
    app: Flask
    server: WebServer

    @property
    def port(self) -> int:
        return self.server.port


@contextmanager
def serving(tmp_path: Path, server: dict[str, Any] | None = None, **config: Any) -> Iterator[Served]:
    """A started classic game served by waitress on 127.0.0.1 (any free port); ``config`` for the app."""
    with running(tmp_path) as session:
        open_game(session)
        app = make_app(session, **config)
        with WebServer(app, "127.0.0.1", 0, **(server or {})) as web_server:
            yield Served(session, app, web_server)


def connect(port: int, source: str = "127.0.0.1", timeout: float = WAIT) -> socket.socket:
    """A TCP connection to the server from the loopback address ``source``."""
    client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    client.settimeout(timeout)
    try:
        client.bind((source, 0))
        client.connect(("127.0.0.1", port))
    except OSError:
        client.close()
        raise
    return client


class _BoundConnection(http.client.HTTPConnection):
    """http.client's connection, from a chosen loopback address."""

    def __init__(self, port: int, source: str, timeout: float) -> None:
        super().__init__("127.0.0.1", port, timeout=timeout, source_address=(source, 0))


@dataclass
class Client:
    """One browser: its cookies and the CSRF token of the last page it loaded; a new connection per request."""

    port: int
    source: str = "127.0.0.1"
    cookies: dict[str, str] = field(default_factory=dict)
    csrf: str = ""

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
                timeout: float = WAIT) -> tuple[int, http.client.HTTPMessage, bytes]:
        """Send one request and read the whole answer: (status, headers, body)."""
        connection = _BoundConnection(self.port, self.source, timeout)
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        try:
            connection.request(method, path, body=body, headers=sent)
            answer = connection.getresponse()
            data = answer.read()
        finally:
            connection.close()
        for line in answer.headers.get_all("Set-Cookie") or []:
            found = COOKIE.match(line)
            if found:
                self.cookies[found.group(1)] = found.group(2)
        return answer.status, answer.headers, data

    def load(self, path: str) -> bytes:
        """GET a page that must answer 200, and keep its CSRF token."""
        status, _, page = self.request("GET", path)
        assert status == 200, (path, status, page[:200])
        found = CSRF_META.search(page)
        assert found, f"{path} has no csrf-token meta tag"
        self.csrf = found.group(1).decode()
        return page

    def post(self, path: str, body: bytes, content_type: str = "application/json",
             timeout: float = WAIT) -> tuple[int, http.client.HTTPMessage, bytes]:
        """POST ``body`` as the page's ``post()`` (web/static/common.js) does: its type, the CSRF token."""
        headers = {"Content-Type": content_type, "Accept": "application/json", "X-CSRF-Token": self.csrf,
                   "Origin": f"http://127.0.0.1:{self.port}"}
        return self.request("POST", path, body, headers, timeout)


def host_client(served: Served) -> Client:
    """A browser logged in as the host."""
    host = Client(served.port)
    host.load("/host")
    status, _, answer = host.post("/host/login", json.dumps({"pin": PIN}).encode())
    assert status == 200, answer[:300]
    return host


def seat_client(served: Served, seat: str = SEATS[0], source: str = "127.0.0.1") -> Client:
    """A phone that opened the seat's join URL."""
    phone = Client(served.port, source)
    phone.load(f"/j/{token_of(served.app, seat)}")
    return phone


def read_answer(client: socket.socket) -> bytes:
    """One answer: its head and its Content-Length's body, or all the server sends until it closes
    the connection (or resets it: it stopped reading)."""
    received = b""
    try:
        while chunk := client.recv(65536):
            received += chunk
            head, found, body = received.partition(b"\r\n\r\n")
            length = re.search(rb"\r\ncontent-length: *(\d+)", head, re.IGNORECASE)
            if found and length and len(body) >= int(length.group(1)):
                break
    except (ConnectionError, TimeoutError):
        pass
    return received


def status_of(answer: bytes) -> int:
    """The status of a raw HTTP answer (0: none)."""
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.") else 0


def error_code_of(answer: bytes) -> str:
    """The code of a raw JSON refusal ``{"ok": false, "error": {"code", "message"}}``."""
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"application/json" in head.lower(), head
    data = json.loads(body)
    assert data["ok"] is False and set(data["error"]) == {"code", "message"} and data["error"]["message"], data
    code: str = data["error"]["code"]
    return code
