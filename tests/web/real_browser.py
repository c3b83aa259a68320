"""A browser for the real server (waitress on a loopback port): its own cookie, CSRF token and source address.

The Flask test client skips waitress; these talk HTTP over a socket, each from
the loopback address it is given (127.0.0.2, 127.0.0.3...: Linux answers the
whole of 127.0.0.0/8), so the server sees several clients as a Wi-Fi would.
"""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from web_fixtures import csrf_of, make_app, running

from flask import Flask

from web.serve import WebServer

WAIT = 10.0  # the longest any one request may take


class Answer:
    """A response: status, headers and body."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body)

    def code(self) -> str | None:
        """A refusal's error code (None for anything else)."""
        try:
            found = self.json()
        except ValueError:
            return None
        error = found.get("error") if isinstance(found, dict) else None
        return error.get("code") if isinstance(error, dict) else None

    def text(self) -> str:
        return self.body.decode(errors="replace")


class RealBrowser:
    """One browser on one source address: GETs and JSON POSTs keep its session cookie and CSRF token."""

    def __init__(self, port: int, source: str = "127.0.0.1") -> None:
        self.port = port
        self.source = source
        self.cookie = ""
        self.csrf = ""

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> Answer:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT,
                                                source_address=(self.source, 0))
        sent = {**({"Cookie": self.cookie} if self.cookie else {}), **(headers or {})}
        try:
            connection.request(method, path, body=body, headers=sent)
            answer = connection.getresponse()
            found = Answer(answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read())
        finally:
            connection.close()
        cookie = re.search(r"clue_session=[^;]*", found.headers.get("set-cookie", ""))
        if cookie:
            self.cookie = cookie.group(0)
        return found

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self.request("GET", path, headers=headers)

    def load(self, path: str = "/host") -> Answer:
        """Open a page (as a browser: it asks for HTML) and keep its CSRF token."""
        page = self.get(path, {"Accept": "text/html"})
        self.csrf = csrf_of(page.text())
        return page

    def post(self, path: str, body: Any, headers: dict[str, str] | None = None) -> Answer:
        return self.request("POST", path, json.dumps(body).encode(),
                            {"Content-Type": "application/json", "X-CSRF-Token": self.csrf, **(headers or {})})

    def login(self, pin: str) -> Answer:
        if not self.csrf:
            self.load()
        return self.post("/host/login", {"pin": pin})


@contextmanager
def serving(tmp_path: Path, **config: Any) -> Iterator[tuple[Flask, int]]:
    """The app (PIN 246813, a store in ``tmp_path``/games.db) served by waitress on a free loopback port."""
    with running(tmp_path) as session:
        app = make_app(session, **config)
        with WebServer(app, "127.0.0.1", 0) as server:
            yield app, server.port
