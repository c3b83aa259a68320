"""Shared helpers for the web app's test-client tests: a running session, the app, browsers, SSE streams.

Nothing here is a pytest fixture: each test module builds its own fixtures from
these helpers (no conftest.py). A :class:`Browser` is one Flask test client with
its own cookie jar and CSRF token, like one phone or one host laptop; a
:class:`Stream` reads a Server-Sent Events answer message by message.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.test import TestResponse

from companion.rules.edition import load_edition
from companion.rules.actions import Move, Roll, Suggest
from companion.table.commands import NewGame, Play, StartGame, TagLost, TagSeen
from companion.table.session import Session, Table
from companion.table.store import Store
from companion.table.tags import Piece
from web import create_app
from web.context import WebContext
from web.deltas import apply

PIN = "246813"
CONFIG: dict[str, Any] = {"HOST_PIN": PIN, "TESTING": True, "KEEPALIVE": 0.05}
SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
CLASSIC = load_edition("classic")
PAD1 = 10  # the default zone map: seat 1's pad is reader 10, seat 2's reader 11...
CENTRE = 9
CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)"')
ERROR_KEYS = {"ok", "error"}


# ---- the companion -------------------------------------------------------------------------------

def uid_of(piece: Piece, edition_id: str = "classic") -> str:
    """The made-up tag UID of a piece (the same scheme as companion.cli.mock_table.made_up_tags)."""
    deck = load_edition(edition_id).deck
    kinds = {"card": (0x10, deck.all), "mover": (0x20, deck.suspects), "weapon": (0x30, deck.weapons)}
    code, names = kinds[piece.kind]
    return f"04:{code:02X}:{names.index(piece.name):02X}:00:00:00:01"


def enrol_all(store: Store, edition_id: str = "classic") -> None:
    """Give every card, mover and weapon of the edition a tag in the store."""
    deck = load_edition(edition_id).deck
    pieces = [Piece("card", card) for card in deck.all] + [Piece("mover", s) for s in deck.suspects]
    pieces += [Piece("weapon", w) for w in deck.weapons]
    for piece in pieces:
        store.enrol(edition_id, uid_of(piece, edition_id), piece)


@contextmanager
def running(tmp_path: Path, seed: int = 7, name: str = "games.db") -> Iterator[Session]:
    """A started session over a table with a store (every classic piece enrolled) in ``tmp_path``."""
    with Store(tmp_path / name).open() as store:
        if not len(store.tag_map("classic")):
            enrol_all(store)
        with Session(Table(store=store, seed_source=lambda: seed)) as session:
            yield session


def make_app(session: Session, **extra: Any) -> Flask:
    """The web app over ``session`` with the test configuration (PIN 246813, keepalive 0.05 s)."""
    return create_app(session, {**CONFIG, **extra})


def web_of(app: Flask) -> WebContext:
    found: WebContext = app.extensions["clue"]
    return found


def open_game(session: Session, seats: tuple[str, ...] = SEATS, start: bool = True, **game: Any) -> None:
    """Open (and start) a classic game straight on the session, not through the host page."""
    opened = session.call(NewGame(game.pop("edition", "classic"), seats, **game))
    assert opened.ok, opened.error
    if start:
        started = session.call(StartGame())
        assert started.ok, started.error


def scarlet_suggests_in_the_lounge(session: Session) -> None:
    """A classic game (physical dice, seed 7) where Miss Scarlet has suggested Plum with the Rope in the Lounge."""
    assert session.call(NewGame("classic", SEATS, dice="physical")).ok
    assert session.call(StartGame()).ok
    assert session.call(Play("Miss Scarlet", Roll("Miss Scarlet", (6,)))).ok
    assert session.call(Play("Miss Scarlet", Move("Miss Scarlet", "Lounge"))).ok
    assert session.call(Play("Miss Scarlet", Suggest("Miss Scarlet", "Professor Plum", "Rope"))).ok


def tap(session: Session, seat_number: int, card: str) -> None:
    """A card tapped on a seat's pad (1, 2...) and lifted off again; 0 is the centre pad."""
    reader = CENTRE if seat_number == 0 else PAD1 + seat_number - 1
    uid = uid_of(Piece("card", card))
    assert session.call(TagSeen(reader, uid)).ok
    assert session.call(TagLost(reader, uid)).ok


def state_of(session: Session) -> Any:
    """The table's game state (immutable), or None."""
    return session.inspect(lambda table: table.state)


def token_of(app: Flask, seat: str) -> str:
    """The seat's current join token (made on the session thread: the store lives there)."""
    web = web_of(app)
    token: str = web.inspect(lambda table: web.pairing.token(seat))
    return token


# ---- browsers ------------------------------------------------------------------------------------

def csrf_of(page: str) -> str:
    """The CSRF token in a page's ``<meta name="csrf-token">``."""
    found = CSRF_META.search(page)
    assert found, "the page has no csrf-token meta tag"
    return found.group(1)


class Browser:
    """One browser: a test client with its own cookies and the CSRF token of the last page it loaded."""

    def __init__(self, app: Flask, page: str = "/") -> None:
        self.app = app
        self.client = app.test_client()
        self.csrf = ""
        self.load(page)

    def load(self, page: str = "/") -> TestResponse:
        """Open a page and keep its CSRF token."""
        response = self.client.get(page)
        self.csrf = csrf_of(response.get_data(as_text=True))
        return response

    def get(self, url: str, **kw: Any) -> TestResponse:
        return self.client.get(url, **kw)

    def post(self, url: str, body: Any = None, *, csrf: str | None = None, **kw: Any) -> TestResponse:
        """POST ``body`` as JSON with this browser's CSRF token (or ``csrf`` if given)."""
        headers = {"X-CSRF-Token": self.csrf if csrf is None else csrf, **kw.pop("headers", {})}
        if "data" in kw:
            return self.client.post(url, headers=headers, **kw)
        return self.client.post(url, json=body, headers=headers, **kw)

    def json(self, url: str) -> Any:
        """GET a JSON route that must answer 200."""
        response = self.client.get(url)
        assert response.status_code == 200, (url, response.status_code, response.get_data(as_text=True)[:300])
        assert response.mimetype == "application/json"
        return response.get_json()

    def join(self, seat: str) -> TestResponse:
        """Open the seat's join URL, like a phone that scanned its QR code."""
        response = self.client.get(f"/j/{token_of(self.app, seat)}")
        assert response.status_code == 200, response.status_code
        self.csrf = csrf_of(response.get_data(as_text=True))
        return response

    def login(self, pin: str = PIN) -> TestResponse:
        return self.post("/host/login", {"pin": pin})

    def act(self, kind: str, **fields: Any) -> TestResponse:
        """Play one action as the joined seat."""
        return self.post("/api/seat/action", {"type": kind, **fields})


def seat_browser(app: Flask, seat: str) -> Browser:
    browser = Browser(app)
    browser.join(seat)
    return browser


def host_browser(app: Flask) -> Browser:
    browser = Browser(app, "/host")
    answer = browser.login()
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return browser


def error_of(response: TestResponse) -> str:
    """The code of a refusal, after checking its shape: 4xx (or 5xx), JSON ``{"ok": false, "error": {...}}``."""
    assert response.mimetype == "application/json", (response.status_code, response.get_data(as_text=True)[:200])
    body = response.get_json()
    assert isinstance(body, dict) and set(body) == ERROR_KEYS and body["ok"] is False, body
    error = body["error"]
    assert set(error) == {"code", "message"}, error
    assert isinstance(error["code"], str) and error["code"], error
    assert isinstance(error["message"], str) and error["message"].strip(), error
    code: str = error["code"]
    return code


def refused(response: TestResponse, status: int, code: str) -> None:
    """Assert a refusal with this status and code."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True)[:300])
    assert error_of(response) == code


# ---- Server-Sent Events --------------------------------------------------------------------------

class Stream:
    """An open SSE answer from the test client, read one message at a time. Close it (or use ``with``)."""

    def __init__(self, client: Any, url: str) -> None:
        self.response: TestResponse = client.get(url, buffered=False)
        self.status = self.response.status_code
        self.mimetype = self.response.mimetype
        self._chunks = iter(self.response.response)
        self._buffer = ""
        self.ended = False
        self.comments: list[str] = []
        self.last: dict[str, Any] | None = None  # the view as built so far: the whole view, then each delta

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.response.close()

    def chunk(self) -> str:
        """The next piece the server writes, as is (a message, a comment or the ``retry:`` line)."""
        chunk = next(self._chunks)
        return chunk.decode() if isinstance(chunk, bytes) else str(chunk)

    def message(self, limit: int = 100) -> tuple[str, str]:
        """The next message with an event or data (comments and ``retry:`` are kept aside).

        Each read waits at most one keepalive, so ``limit`` reads is a timeout.
        Returns ``("end", "")`` once the stream has ended.
        """
        for _ in range(limit):
            while "\n\n" in self._buffer:
                raw, self._buffer = self._buffer.split("\n\n", 1)
                event, data = "message", []
                for line in raw.split("\n"):
                    if line.startswith(":"):
                        self.comments.append(line)
                    elif line.startswith("event:"):
                        event = line[len("event:"):].strip()
                    elif line.startswith("data:"):
                        data.append(line[len("data:"):].lstrip(" "))
                if data:
                    return event, "\n".join(data)
            try:
                chunk = next(self._chunks)
            except StopIteration:
                self.ended = True
                return "end", ""
            self._buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        raise AssertionError(f"no SSE message within {limit} reads")

    def view(self) -> dict[str, Any]:
        """The next view: a whole ``event: view``, or ``event: delta`` applied to the last one (as the pages do)."""
        event, data = self.message()
        assert event in ("view", "delta"), (event, data[:200])
        if event == "view":
            self.last = json.loads(data)
        else:
            assert self.last is not None, "a delta before any whole view"
            self.last = apply(self.last, json.loads(data))
        assert self.last is not None
        return self.last


def read_messages(client: Any, url: str, count: int) -> list[tuple[str, str]]:
    """Open ``url`` as an SSE stream, read ``count`` messages (event, data), and close it."""
    with Stream(client, url) as stream:
        return [stream.message() for _ in range(count)]


def subscribers(session: Session) -> int:
    """How many mailboxes the session publishes to (streams and handhelds)."""
    return len(session._boxes)


def without(data: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in keys}
